package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.HostConfig;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.Seccomp;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.readiness.Readiness;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.control.registry.ContainerUpdate;
import io.envbench.control.registry.EnvironmentRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real containers on the real Docker engine, from the real nginx-static image. */
public class DockerLauncherTest {
    static final Path TARGETS = TargetRecipeTest.TARGETS;
    static final Duration READY = Duration.ofSeconds(30);
    static final int PORT = 18181;

    DockerLauncher launcher;
    DockerInventory inventory;

    @BeforeEach
    void docker() throws Exception {
        DockerRequired.check();
        launcher = new DockerLauncher(new DockerConnection(DockerDaemon.fromEnvironment()));
        inventory = new DockerInventory(DockerDaemon.fromEnvironment());
    }

    @AfterEach
    void nothingOfThisRunIsLeft() {
        if (inventory != null) {
            assertEquals(
                    List.of(),
                    inventory.containers().stream()
                            .filter(c -> RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN)))
                            .toList());
        }
    }

    private static ContainerTarget nginx(ContainerOptions o) {
        return TargetRecipe.load(TARGETS, "nginx-static").container(o, PORT, READY);
    }

    public static String get(Endpoint e, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://" + e + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return r.body();
    }

    @Test
    void bridgePublishesOnLoopbackOnlyAndServesTheSite() throws Exception {
        try (RunningTarget t =
                launcher.start("test-bridge", nginx(ContainerOptions.builder().build()))) {
            assertEquals(4096, get(t.endpoint().orElseThrow(), "/page-4k.html").length());
            var c = inventory.containers().stream()
                    .filter(x -> x.id().equals(t.containerId().get()))
                    .findFirst()
                    .get();
            assertEquals(List.of("127.0.0.1:" + PORT + "->8080/tcp"), c.publishedPorts());
            assertEquals("true", c.labels().get(RunSession.LABEL_MANAGED));
            assertEquals("test-bridge", c.labels().get(RunSession.LABEL_ENV));
            assertTrue(t.describe().contains("published=127.0.0.1:" + PORT + "->8080/tcp"), t.describe());
            assertTrue(t.startToReady().toMillis() > 0);
        }
    }

    @Test
    void hostNetworkingPublishesNothingAndListensOnTheHostPort() throws Exception {
        ContainerTarget target =
                nginx(ContainerOptions.builder().networkMode(NetworkMode.HOST).build());
        try (RunningTarget t = launcher.start("test-host", target)) {
            assertEquals(1024, get(t.endpoint().orElseThrow(), "/page-1k.html").length());
            var c = inventory.containers().stream()
                    .filter(x -> x.id().equals(t.containerId().get()))
                    .findFirst()
                    .get();
            assertEquals(List.of(), c.publishedPorts());
            assertTrue(t.describe().contains("network=host") && t.describe().contains("published=none"), t.describe());
        }
    }

    @Test
    void limitsVolumesAndPinningReachDocker() throws Exception {
        ContainerOptions o = ContainerOptions.builder()
                .cpuset(CpuSet.parseForHost("cpuset", "0"))
                .cpus(0.5)
                .cpuShares(512)
                .memoryBytes(128L << 20)
                .volume(new VolumeMount(VolumeMount.Kind.NAMED, "envbench-test-" + RunSession.runId(), "/data"))
                .build();
        DockerClient docker = launcher.client();
        try (RunningTarget t = launcher.start("test-limits", nginx(o))) {
            InspectContainerResponse i =
                    docker.inspectContainerCmd(t.containerId().get()).exec();
            HostConfig hc = i.getHostConfig();
            assertEquals("0", hc.getCpusetCpus());
            assertEquals(50_000L, hc.getCpuQuota());
            assertEquals(100_000L, hc.getCpuPeriod());
            assertEquals(512, hc.getCpuShares());
            assertEquals(128L << 20, hc.getMemory());
            assertTrue(inventory.volumes() >= 1, "the named volume exists and is labelled");
        }
        assertTrue(
                docker.listVolumesCmd().exec().getVolumes().stream()
                        .noneMatch(v -> v.getName().equals("envbench-test-" + RunSession.runId())),
                "the volume EnvBench made is removed");
    }

    /** seccomp: unconfined reaches Docker as a security option; left at the default, the container has none. */
    @Test
    void seccompUnconfinedReachesDockerAndTheDefaultAddsNothing() throws Exception {
        DockerClient docker = launcher.client();
        ContainerOptions unconfined =
                ContainerOptions.builder().seccomp(Seccomp.UNCONFINED).build();
        try (RunningTarget t = launcher.start("test-seccomp", nginx(unconfined))) {
            HostConfig hc =
                    docker.inspectContainerCmd(t.containerId().get()).exec().getHostConfig();
            assertEquals(List.of("seccomp=unconfined"), hc.getSecurityOpts());
            assertTrue(t.describe().contains("seccomp=unconfined"), t.describe());
        }
        try (RunningTarget t = launcher.start(
                "test-seccomp-default", nginx(ContainerOptions.builder().build()))) {
            List<String> opts = docker.inspectContainerCmd(t.containerId().get())
                    .exec()
                    .getHostConfig()
                    .getSecurityOpts();
            assertTrue(opts == null || opts.isEmpty(), "the engine's own profile: " + opts);
        }
    }

    /**
     * A bind source that does not exist: Docker would make it (as root, empty) for a Bind; EnvBench mounts with a Mount,
     * which Docker refuses, and says so naming the path. No folder is made and no container is left.
     */
    @Test
    void aMissingBindSourceIsRefusedNamingItAndIsNeverCreated(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-folder");
        ContainerOptions o = ContainerOptions.builder()
                .volume(new VolumeMount(VolumeMount.Kind.BIND, missing.toString(), "/data"))
                .build();
        long t0 = System.nanoTime();
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> launcher.start("test-nobind", nginx(o)));
        System.out.printf("missing bind source refused in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        assertEquals("volumeSource", e.field());
        assertTrue(
                e.getMessage().contains("'" + missing + "' does not exist on the Docker host; create the folder first"),
                e.getMessage());
        assertTrue(Files.notExists(missing), "Docker made no folder behind the user's back");
    }

    @Test
    void anExistingBindSourceIsMounted(@TempDir Path dir) throws Exception {
        ContainerOptions o = ContainerOptions.builder()
                .volume(new VolumeMount(VolumeMount.Kind.BIND, dir.toString(), "/data"))
                .build();
        try (RunningTarget t = launcher.start("test-bind", nginx(o))) {
            var mounts = launcher.client()
                    .inspectContainerCmd(t.containerId().get())
                    .exec()
                    .getMounts();
            assertTrue(
                    mounts.stream()
                            .anyMatch(m -> dir.toString().equals(m.getSource())
                                    && "/data".equals(m.getDestination().getPath())),
                    String.valueOf(mounts));
        }
    }

    @Test
    void tmpfsVolume() throws Exception {
        ContainerOptions o = ContainerOptions.builder()
                .volume(new VolumeMount(VolumeMount.Kind.TMPFS, "", "/scratch"))
                .build();
        try (RunningTarget t = launcher.start("test-tmpfs", nginx(o))) {
            var hc = launcher.client()
                    .inspectContainerCmd(t.containerId().get())
                    .exec()
                    .getHostConfig();
            assertTrue(hc.getTmpFs().containsKey("/scratch"));
        }
    }

    @Test
    void unknownImageIsRefusedByName() {
        ContainerTarget t = new ContainerTarget(
                "envbench/no-such-image:latest", ContainerOptions.builder().build(), 8080, PORT, Readiness.tcp(READY));
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> launcher.start("test-noimage", t));
        assertEquals("image", e.field());
        assertTrue(e.getMessage().contains("./envbench setup"), e.getMessage());
    }

    @Test
    void aBusyPortIsRefusedBeforeAnythingStarts() throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress("127.0.0.1", PORT));
            InvalidSettingException e = assertThrows(
                    InvalidSettingException.class,
                    () -> launcher.start(
                            "test-busy", nginx(ContainerOptions.builder().build())));
            assertEquals("port", e.field());
            assertTrue(e.getMessage().contains("already in use"), e.getMessage());
        }
    }

    @Test
    void aTargetThatNeverGetsReadyFailsInTimeAndIsRemoved() {
        ContainerTarget never = new ContainerTarget(
                "envbench/nginx-static:latest",
                ContainerOptions.builder().build(),
                8080,
                PORT,
                Readiness.http("/no-such-page", Duration.ofSeconds(2)));
        long t0 = System.nanoTime();
        TargetStartException e = assertThrows(TargetStartException.class, () -> launcher.start("test-never", never));
        assertTrue(e.getMessage().contains("not ready") && e.getMessage().contains("HTTP 404"), e.getMessage());
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).toSeconds() < 15);
    }

    @Test
    void anOomKillDuringTheStartIsNamedAsOneWithItsLimit() {
        ContainerOptions o = ContainerOptions.builder()
                // tail keeps a line without an end in memory: 200 MiB of zeros under a 16 MiB limit
                .command(List.of("sh", "-c", "head -c 200m /dev/zero | tail"))
                .memoryBytes(16L << 20)
                .build();
        TargetStartException e = assertThrows(TargetStartException.class, () -> launcher.start("test-oom", nginx(o)));
        assertTrue(e.getMessage().contains("killed: out of memory, limit 16m; raise memory"), e.getMessage());
    }

    @Test
    void aTargetThatExitsFailsWithItsExitCode() {
        ContainerOptions o = ContainerOptions.builder()
                .command(List.of("sh", "-c", "echo broken config >&2; exit 3"))
                .build();
        TargetStartException e = assertThrows(TargetStartException.class, () -> launcher.start("test-exit", nginx(o)));
        assertTrue(e.getMessage().contains("exit code 3"), e.getMessage());
        assertTrue(e.getMessage().contains("broken config"), e.getMessage());
    }

    @Test
    void anUnreachableDaemonIsNamedWithinSeconds() {
        long t0 = System.nanoTime();
        DockerLauncher nowhere = new DockerLauncher(new DockerConnection(DockerDaemon.configured(
                DockerDaemon.Settings.JMETER_PROPERTIES, "unix:///nonexistent/docker.sock", "", "")));
        TargetStartException e = assertThrows(
                TargetStartException.class,
                () -> nowhere.start("x", nginx(ContainerOptions.builder().build())));
        assertTrue(e.getMessage().contains("not reachable at unix:///nonexistent/docker.sock"), e.getMessage());
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).toSeconds() < 10);
    }

    @Test
    void containerOptionsChangeOnARunningContainer() throws Exception {
        try (RunningTarget t =
                launcher.start("test-update", nginx(ContainerOptions.builder().build()))) {
            String id = t.containerId().get();
            ContainerUpdate u = new ContainerUpdate(new EnvironmentRegistry(TARGETS, DockerDaemon.fromEnvironment()));
            assertTrue(u.update(id, "0", "0.25", "64m").contains("cpuset=0"));
            HostConfig hc = launcher.client().inspectContainerCmd(id).exec().getHostConfig();
            assertEquals("0", hc.getCpusetCpus());
            assertEquals(25_000L, hc.getCpuQuota());
            assertEquals(64L << 20, hc.getMemory());
            u.pause(id);
            assertTrue(
                    launcher.client().inspectContainerCmd(id).exec().getState().getPaused());
            u.unpause(id);
            assertFalse(
                    launcher.client().inspectContainerCmd(id).exec().getState().getPaused());
            assertEquals(
                    "cpuset",
                    assertThrows(InvalidSettingException.class, () -> u.update(id, "0-99", "", ""))
                            .field());
            assertEquals(
                    "memory",
                    assertThrows(InvalidSettingException.class, () -> u.update(id, "", "", "12XB"))
                            .field());
            assertEquals(
                    "container",
                    assertThrows(InvalidSettingException.class, () -> u.update("no-such-container-xyz", "0", "", ""))
                            .field());
        }
    }

    @Test
    void aContainerEnvBenchDidNotStartIsLeftAloneUnlessAllowed() throws Exception {
        var docker = launcher.client();
        String image = nginx(ContainerOptions.builder().build()).image();
        String id = docker.createContainerCmd(image)
                .withName("envbench-test-not-ours")
                .exec()
                .getId(); // no EnvBench label
        try {
            docker.startContainerCmd(id).exec();
            var envs = new EnvironmentRegistry(TARGETS, DockerDaemon.fromEnvironment());
            InvalidSettingException e = assertThrows(
                    InvalidSettingException.class, () -> new ContainerUpdate(envs).pause("envbench-test-not-ours"));
            assertEquals("container", e.field());
            assertTrue(e.getMessage().contains("Allow containers EnvBench did not start"), e.getMessage());
            assertFalse(docker.inspectContainerCmd(id).exec().getState().getPaused(), "refused, yet paused");
            new ContainerUpdate(envs, true).pause("envbench-test-not-ours");
            assertTrue(docker.inspectContainerCmd(id).exec().getState().getPaused(), "allowed, not paused");
            new ContainerUpdate(envs, true).unpause(id);
        } finally {
            docker.removeContainerCmd(id).withForce(true).exec();
        }
    }
}
