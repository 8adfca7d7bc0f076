package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Ports;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.control.reaper.ReaperTest;
import io.envbench.control.registry.EnvBench;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.measure.metrics.ContainerProbe;
import io.envbench.measure.metrics.ContainerSnapshot;
import io.envbench.study.command.CommandRun;
import io.envbench.study.experiment.CommandLoad;
import io.envbench.study.experiment.CommandOutput;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote Docker daemon over TLS, for real: a second dockerd ({@link TlsDockerDaemon}) that listens only on
 * {@code tcp://127.0.0.2:PORT} with {@code --tlsverify} and certificates made here. EnvBench's normal code starts an
 * environment there, publishes its port on the daemon's host and gives that address as the endpoint; the container
 * carries its owner's labels, dies and is reaped as on the local daemon; and every wrong setting (no TLS, no folder,
 * no client certificate, another CA) gets a message naming the setting within seconds. Plain HTTP is never spoken to
 * it: the daemon refuses it, and EnvBench refuses plain tcp:// to anything but loopback ({@link DockerDaemonTest}).
 */
class RemoteDockerTlsTest {
    static final Path TARGETS = TargetRecipeTest.TARGETS;
    static final int PORT = 18291;
    static final Duration READY = Duration.ofSeconds(30);
    static TlsDockerDaemon tls;
    static String image;

    @BeforeAll
    static void startTheTlsDaemon() throws Exception {
        DockerRequired.check();
        TlsDockerDaemon.missingRequirement()
                .ifPresent(why -> DockerRequired.require(false, "a second dockerd with TLS", why));
        long t0 = System.nanoTime();
        tls = TlsDockerDaemon.start();
        long started = System.nanoTime();
        image = TargetRecipe.load(TARGETS, "nginx-static").image(); // built by ./envbench setup
        tls.copyImage(image);
        System.out.printf(
                "TLS dockerd at %s answered in %d ms; %s copied to it in %d ms%n",
                tls.address(), (started - t0) / 1_000_000, image, (System.nanoTime() - started) / 1_000_000);
    }

    /** Stops the daemon and removes the bridge and its folder; fails when anything was left on it. */
    @AfterAll
    static void stopTheTlsDaemon() {
        if (tls != null) {
            tls.close();
        }
    }

    static EnvironmentDefinition nginx(String name, int port) {
        return new EnvironmentDefinition(
                name,
                "nginx-static",
                EnvironmentDefinition.Placement.DOCKER,
                ContainerOptions.builder().build(),
                port,
                READY);
    }

    @Test
    void anEnvironmentOnTheTlsDaemonIsPublishedOnTheDaemonsHostAndTheEndpointIsThatHost() throws Exception {
        DockerDaemon daemon = tls.daemon();
        DockerClient remote = new DockerConnection(daemon).client();
        String id;
        try (EnvBench envbench = new EnvBench(TARGETS, daemon, false)) {
            RunningTarget t = envbench.environments().start(nginx("tls-bridge", PORT));
            id = t.containerId().orElseThrow();
            Endpoint endpoint = t.endpoint().orElseThrow();
            assertEquals(
                    new Endpoint(TlsDockerDaemon.LISTEN_ADDRESS, PORT),
                    endpoint,
                    "the daemon's host, from the tcp:// address");
            System.out.println(
                    "started on the TLS daemon in " + t.startToReady().toMillis() + " ms: " + t.describe());

            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(2))
                    .build();
            int requests = 50;
            long bytes = 0;
            for (int i = 0; i < requests; i++) {
                HttpResponse<byte[]> r = http.send(
                        HttpRequest.newBuilder(URI.create("http://" + endpoint + "/page-4k.html"))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, r.statusCode());
                bytes += r.body().length;
            }
            assertEquals(requests * 4096L, bytes, "the 4 KiB page each time");
            assertThrows(
                    ConnectException.class,
                    () -> new Socket("127.0.0.1", PORT).close(),
                    "published on the daemon's address only, not on 127.0.0.1");

            var inspect = remote.inspectContainerCmd(id).exec();
            Map<String, String> labels = inspect.getConfig().getLabels();
            assertEquals("true", labels.get(RunSession.LABEL_MANAGED));
            assertEquals(RunSession.runId(), labels.get(RunSession.LABEL_RUN));
            assertEquals(
                    OwnerIdentity.current(),
                    OwnerIdentity.fromLabels(labels).orElseThrow(),
                    "the owner's host, machine, boot, PID namespace, PID and start");
            Ports.Binding[] bindings = inspect.getHostConfig()
                    .getPortBindings()
                    .getBindings()
                    .values()
                    .iterator()
                    .next();
            assertEquals(TlsDockerDaemon.LISTEN_ADDRESS, bindings[0].getHostIp());
            assertTrue(
                    t.describe().contains("published=" + TlsDockerDaemon.LISTEN_ADDRESS + ":" + PORT + "->8080/tcp"),
                    t.describe());
            DockerClient local = new DockerConnection(DockerDaemon.fromEnvironment()).client();
            assertThrows(
                    NotFoundException.class,
                    () -> local.inspectContainerCmd(id).exec(),
                    "on the TLS daemon, not the local one");

            ContainerProbe probe = new ContainerProbe(new DockerConnection(daemon));
            assertFalse(probe.readsCgroupFiles(), "a tcp:// daemon's figures come from its stats API");
            ContainerSnapshot stats = probe.read(id, t.pid());
            assertTrue(stats.memoryUsageBytes() > 0, "stats over TLS: " + stats);

            envbench.environments().stop("tls-bridge");
        }
        assertEquals(
                List.of(),
                remote.listContainersCmd().withShowAll(true).exec().stream()
                        .map(c -> c.getId())
                        .toList(),
                "nothing left on the TLS daemon");
        var volumes = remote.listVolumesCmd().exec().getVolumes();
        assertTrue(volumes == null || volumes.isEmpty(), "no volume left: " + volumes);
    }

    @Test
    void aContainerKilledOnTheTlsDaemonIsHeardThroughItsEventsStream() throws Exception {
        DockerDaemon daemon = tls.daemon();
        DockerClient remote = new DockerConnection(daemon).client();
        try (EnvBench envbench = new EnvBench(TARGETS, daemon, false)) {
            CompletableFuture<String> died = new CompletableFuture<>();
            envbench.environments().addListener(new EnvironmentRegistry.Listener() {
                @Override
                public void died(String environment, String reason) { // told once what is left is removed
                    died.complete(reason);
                }
            });
            RunningTarget t = envbench.environments().start(nginx("tls-victim", PORT + 1));
            long t0 = System.nanoTime();
            remote.killContainerCmd(t.containerId().orElseThrow()).exec();
            String why = died.get(10, TimeUnit.SECONDS);
            System.out.printf(
                    "killed on the TLS daemon: heard and cleaned up in %d ms: %s%n",
                    (System.nanoTime() - t0) / 1_000_000, why);
            assertTrue(why.contains("SIGKILL"), why);
            assertFalse(envbench.environments().isRunning("tls-victim"));
        }
        assertEquals(0, remote.listContainersCmd().withShowAll(true).exec().size(), "the dead container is removed");
    }

    /**
     * A command in a container on the TLS daemon that prints nothing for longer than the attached deadline
     * ({@link DockerDeadlines#ATTACHED}; 3 s on this test's link, so it shows in 6 s, not 33) runs to its end (bonnie++
     * is silent for minutes): only the wait for the answer's head has that deadline, not the silence after it. Over a
     * TCP socket a read timeout would cut it; over the Unix socket it would not show.
     */
    @Test
    void aCommandSilentForLongerThanTheAttachedDeadlineRunsToItsEndOnTheTlsDaemon(@TempDir Path dir) throws Exception {
        Duration attached = Duration.ofSeconds(3);
        long silentSeconds = attached.toSeconds() + 3;
        try (EnvBench envbench = new EnvBench(TARGETS, tls.daemon(), false)) {
            RunningTarget t = envbench.environments().start(nginx("tls-silent", PORT + 3));
            var load = new CommandLoad(
                    List.of("/bin/sh", "-c", "sleep " + silentSeconds + "; echo done"),
                    CommandOutput.BONNIE_CSV,
                    OptionalLong.empty(),
                    Duration.ofSeconds(silentSeconds));
            var run = new CommandRun(load, dir.resolve("out"), dir.resolve("err"));
            CommandRun.Result r = run.inContainer(new DockerDaemonLink(tls.daemon(), attached).client(), t);
            System.out.printf("a command silent for %d s on the TLS daemon: %s%n", silentSeconds, r);
            assertTrue(r.ok(), "ran to its end: " + r + "; stderr: " + Files.readString(dir.resolve("err")));
            assertEquals("done\n", Files.readString(dir.resolve("out")));
            assertTrue(r.elapsed().toSeconds() >= silentSeconds, r.toString());
            envbench.environments().stop("tls-silent");
        }
    }

    @Test
    void onTheSharedDaemonOnlyLeftoversOfADeadOwnerOfThisHostAreReaped() throws Exception {
        DockerClient remote = new DockerConnection(tls.daemon()).client();
        OwnerIdentity self = OwnerIdentity.current();
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        OwnerIdentity deadHere = new OwnerIdentity(
                self.hostname(), self.machineId(), self.bootId(), self.pidNamespace(), dead.pid(), 1, -1);
        OwnerIdentity otherLoadGenerator = new OwnerIdentity(
                "loadgen-elsewhere", "0000feed", self.bootId(), self.pidNamespace(), dead.pid(), 1, -1);
        String deadId = sleeper(remote, deadHere, "tls-deadown");
        String otherId = sleeper(remote, otherLoadGenerator, "tls-otherhost");
        try {
            DockerReaper.Sweep sweep = new DockerReaper(remote).sweepContainers();
            List<String> left = remote.listContainersCmd().withShowAll(true).exec().stream()
                    .map(c -> c.getId())
                    .toList();
            assertFalse(left.contains(deadId), "this host's owner is gone: removed");
            assertTrue(left.contains(otherId), "another load generator's live container on the shared daemon is kept");
            var kept = sweep.decisions().stream()
                    .filter(d -> d.id().equals(otherId))
                    .findFirst()
                    .orElseThrow();
            assertTrue(kept.why().contains("loadgen-elsewhere"), kept.why());
        } finally {
            remote.removeContainerCmd(otherId).withForce(true).exec();
        }
    }

    @Test
    void whatAKilledOwnerMadeOnTheTlsDaemonIsRemovedByItsReaperWithinTenSeconds(@TempDir Path state) throws Exception {
        long ms = ReaperTest.killOwnerAndAwaitNothingLeft(
                state,
                image,
                Map.of(
                        DockerDaemon.ENV_HOST,
                        tls.address(),
                        DockerDaemon.ENV_TLS_VERIFY,
                        "1",
                        DockerDaemon.ENV_CERT_PATH,
                        tls.clientCerts().toString()),
                new DockerConnection(tls.daemon()).client(),
                "TLS daemon");
        assertTrue(ms < 10_000, "gone within 10 s, took " + ms + " ms");
    }

    private static String sleeper(DockerClient docker, OwnerIdentity owner, String run) {
        Map<String, String> labels = new HashMap<>(owner.labels());
        labels.put(RunSession.LABEL_MANAGED, "true");
        labels.put(RunSession.LABEL_RUN, run);
        labels.put(RunSession.LABEL_ENV, "reaper-test");
        return docker.createContainerCmd(image)
                .withCmd("sleep", "300")
                .withLabels(labels)
                .exec()
                .getId();
    }

    /** Connect (a new client, the TLS handshake) and ping, against the same on the local unix socket; printed side by side. */
    @Test
    void connectAndPingOverTlsAgainstTheUnixSocket() throws Exception {
        DockerDaemon unix = DockerDaemon.fromEnvironment();
        DockerRequired.require(unix.isLocalSocket(), "the local socket", "DOCKER_HOST names " + unix.address());
        DockerDaemon overTls = tls.daemon();
        List<Long> unixNanos = new ArrayList<>();
        List<Long> tlsNanos = new ArrayList<>();
        List<Long> unixWarm = new ArrayList<>();
        List<Long> tlsWarm = new ArrayList<>();
        for (int i = 0; i < 25; i++) { // interleaved, so both see the same machine
            connectAndPing(unix, unixNanos, unixWarm);
            connectAndPing(overTls, tlsNanos, tlsWarm);
        }
        System.out.printf("%-34s %14s %14s%n", "median of 25 (min - max), ms", "unix socket", "TLS tcp://");
        System.out.printf("%-34s %14s %14s%n", "new client: connect + ping", ms(unixNanos), ms(tlsNanos));
        System.out.printf("%-34s %14s %14s%n", "ping on that client (kept open)", ms(unixWarm), ms(tlsWarm));
        assertEquals(25, tlsNanos.size());
    }

    private static void connectAndPing(DockerDaemon daemon, List<Long> cold, List<Long> warm) throws Exception {
        long t0 = System.nanoTime();
        try (DockerClient c = DockerConnection.open(daemon)) {
            cold.add(System.nanoTime() - t0);
            long t1 = System.nanoTime();
            c.pingCmd().exec();
            warm.add(System.nanoTime() - t1);
        }
    }

    private static String ms(List<Long> nanos) {
        List<Long> s = nanos.stream().sorted().toList();
        return String.format("%.2f (%.2f-%.2f)", s.get(s.size() / 2) / 1e6, s.get(0) / 1e6, s.get(s.size() - 1) / 1e6);
    }

    @Test
    void plainHttpToTheTlsDaemonIsRefusedByItAndTheMessageSaysHowToTurnTlsOn() throws Exception {
        DockerDaemon plain =
                DockerDaemon.configured(DockerDaemon.Settings.JMETER_PROPERTIES, tls.address(), "false", "");
        String m = refusedWithin(() -> assertThrows(TargetStartException.class, () -> DockerConnection.open(plain))
                .getMessage());
        assertTrue(m.contains("speaks TLS and EnvBench connected without it"), m);
        assertTrue(m.contains("envbench.docker.tls.verify=true and envbench.docker.cert.path=FOLDER"), m);
        // the same through EnvBench's normal start: a message, and nothing made
        try (EnvBench envbench = new EnvBench(TARGETS, plain, false)) {
            TargetStartException e = assertThrows(
                    TargetStartException.class, () -> envbench.environments().start(nginx("tls-plain", PORT + 2)));
            assertTrue(e.getMessage().contains("speaks TLS"), e.getMessage());
        }
        assertEquals(
                0,
                new DockerConnection(tls.daemon())
                        .client()
                        .listContainersCmd()
                        .withShowAll(true)
                        .exec()
                        .size());
    }

    @Test
    void aMissingCertificateFolderOrClientCertificateIsNamedBeforeAnyConnection() throws Exception {
        Path nowhere = tls.scratch("none").resolve("nowhere");
        InvalidSettingException noFolder = assertThrows(
                InvalidSettingException.class,
                () -> DockerConnection.open(DockerDaemon.configured(
                        DockerDaemon.Settings.JMETER_PROPERTIES, tls.address(), "true", nowhere.toString())));
        assertEquals("envbench.docker.cert.path", noFolder.field());
        assertTrue(noFolder.getMessage().contains("is not a folder"), noFolder.getMessage());

        Path caOnly = tls.scratch("ca-only");
        Files.copy(tls.clientCerts().resolve("ca.pem"), caOnly.resolve("ca.pem"));
        InvalidSettingException noClient = assertThrows(
                InvalidSettingException.class,
                () -> DockerConnection.open(DockerDaemon.configured(
                        DockerDaemon.Settings.COMMAND_LINE, tls.address(), "true", caOnly.toString())));
        assertEquals("--docker-cert-path", noClient.field());
        assertTrue(noClient.getMessage().contains("has no readable cert.pem"), noClient.getMessage());
    }

    @Test
    void aDaemonCertificateFromAnotherCaIsRefusedWithTheCaFileNamed() throws Exception {
        Path wrongCa = tls.scratch("wrong-ca");
        copyClient(wrongCa);
        TestPki.authority("some other CA").writeAuthority(wrongCa); // replaces ca.pem
        DockerDaemon d = DockerDaemon.configured(
                DockerDaemon.Settings.JMETER_PROPERTIES, tls.address(), "true", wrongCa.toString());
        String m = refusedWithin(() -> assertThrows(TargetStartException.class, () -> DockerConnection.open(d))
                .getMessage());
        assertTrue(m.contains("its certificate is not signed by the CA in " + wrongCa.resolve("ca.pem")), m);
        assertTrue(m.contains("envbench.docker.cert.path"), m);
    }

    @Test
    void aClientCertificateTheDaemonDoesNotTrustIsNamed() throws Exception {
        Path stranger = tls.scratch("stranger");
        TestPki.authority("a CA the daemon does not trust").writeClient(stranger);
        Files.copy(
                tls.clientCerts().resolve("ca.pem"), stranger.resolve("ca.pem"), StandardCopyOption.REPLACE_EXISTING);
        DockerDaemon d = DockerDaemon.configured(
                DockerDaemon.Settings.JMETER_PROPERTIES, tls.address(), "true", stranger.toString());
        String m = refusedWithin(() -> assertThrows(TargetStartException.class, () -> DockerConnection.open(d))
                .getMessage());
        // the alert (bad_certificate) or, when it is lost while this client still writes, the closed connection
        assertTrue(m.contains("refused this client's certificate " + stranger.resolve("cert.pem")), m);
        assertTrue(
                m.contains("signed by the CA the daemon trusts (dockerd --tlscacert) in envbench.docker.cert.path"), m);
    }

    private static void copyClient(Path to) throws IOException {
        for (String f : DockerDaemon.TLS_FILES) {
            Files.copy(tls.clientCerts().resolve(f), to.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The message, printed with the time it took; a wrong setting is said within seconds (10 s at most). */
    private static String refusedWithin(Supplier<String> attempt) {
        long t0 = System.nanoTime();
        String m = attempt.get();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("refused in " + ms + " ms: " + m);
        assertTrue(ms < 10_000, "took " + ms + " ms");
        return m;
    }
}
