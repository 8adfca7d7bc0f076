package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.units.LocalPorts;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerLauncher;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.launch.dockerdaemon.DaemonConfigFile;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import io.envbench.launch.dockerdaemon.DaemonSettings;
import io.envbench.launch.dockerdaemon.DaemonSettingsChange;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.launch.dockerdaemon.RunningDockerd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Study 001's (docs/studies.md#study-001) extra row on the real engine: the local daemon's userland proxy turned off
 * and back on through {@link DaemonSettingsChange} (two real daemon restarts), and put back by the reaper of an owner
 * killed with SIGKILL. Run under {@code flock /work/docker.lock}: it restarts this host's dockerd. Root only; the
 * daemon must run nothing but EnvBench's leftovers.
 */
@Isolated
class DockerDaemonSettingsTest extends DockerEndToEndTest {
    static final Path TARGETS = Jmeter.ROOT.resolve("targets");
    static final String SOCKET = DockerDaemon.LOCAL_SOCKET;

    static final Path ROUTE_LOCALNET = Path.of("/proc/sys/net/ipv4/conf/docker0/route_localnet");

    Optional<byte[]> configBefore;
    RunningDockerd dockerdBefore;
    String routeLocalnetBefore;

    @BeforeEach
    void localDaemonAsRoot() throws IOException {
        DockerRequired.require(
                "0".equals(DockerRequired.uid()), "root", "restarting dockerd and writing /etc/docker need root");
        DockerRequired.require(
                DockerDaemon.fromEnvironment().address().equals(SOCKET),
                "the local daemon",
                "DOCKER_HOST names another daemon; only the local one is restarted");
        configBefore = new DaemonConfigFile(DaemonConfigFile.DEFAULT).bytes();
        dockerdBefore = DaemonRestart.onThisHost().running(SOCKET).orElseThrow();
        routeLocalnetBefore = Files.readString(ROUTE_LOCALNET).strip();
    }

    @AfterEach
    void daemonAsBefore() throws Exception {
        assertEquals(
                configBefore.map(b -> new String(b, StandardCharsets.UTF_8)),
                new DaemonConfigFile(DaemonConfigFile.DEFAULT).bytes().map(b -> new String(b, StandardCharsets.UTF_8)),
                DaemonConfigFile.DEFAULT + " as before the test");
        RunningDockerd now = DaemonRestart.onThisHost()
                .running(SOCKET)
                .orElseThrow(() -> new AssertionError("no dockerd runs after the test"));
        assertEquals(dockerdBefore.commandLine(), now.commandLine(), "dockerd runs with the command line it had");
        assertEquals(dockerdBefore.log(), now.log(), "and writes to the log it wrote to");
        assertTrue(Dockerd.answers(), "and answers");
        assertEquals(
                routeLocalnetBefore,
                Files.readString(ROUTE_LOCALNET).strip(),
                ROUTE_LOCALNET + ", which dockerd set without its " + "proxy, is put back");
    }

    @Test
    void withTheUserlandProxyOffAPublishedPortAnswersOnLoopbackWithoutDockerProxyAndAllIsPutBackAfter()
            throws Exception {
        DockerDaemon daemon = DockerDaemon.fromEnvironment();
        DaemonSettingsChange.Applied applied;
        DaemonSettingsChange.Restored restored;
        try (DaemonSettingsChange change = DaemonSettingsChange.open(
                daemon,
                DaemonConfigFile.DEFAULT,
                dir.resolve("journals"),
                DaemonRestart.onThisHost(),
                RestartPermission.GRANTED)) {
            assertEquals(
                    DaemonSettings.DOCKER_DEFAULTS,
                    change.effective(),
                    "this host's daemon runs with Docker's defaults");
            applied = change.apply(new DaemonSettings(false));
            assertTrue(applied.restarted());
            assertEquals("userland-proxy=false", change.effective().describe());
            assertNotEquals(
                    dockerdBefore.pid(),
                    DaemonRestart.onThisHost().running(SOCKET).orElseThrow().pid(),
                    "a new dockerd");
            assertEquals(List.of(), dockerProxies(), "no docker-proxy before the container, either");
            assertEquals(
                    "1",
                    Files.readString(ROUTE_LOCALNET).strip(),
                    "dockerd without its proxy routes 127.0.0.1 on docker0");
            served(daemon, false);
            restored = change.restore();
        }
        assertTrue(restored.complete(), restored.summary());
        assertEquals(Optional.of(DaemonSettings.DOCKER_DEFAULTS), restored.now());
        served(daemon, true);
        System.out.printf(
                "daemon settings: userland-proxy=false applied in %d ms, put back in %d ms (each a dockerd restart)%n",
                applied.took().toMillis(), restored.took().toMillis());
    }

    @Test
    void theReaperOfAnOwnerKilledAfterTurningTheProxyOffPutsTheDaemonBack() throws Exception {
        Path journals = dir.resolve("journals");
        Process owner = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        OwnerThatChangesDaemonSettings.class.getName(),
                        journals.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> said = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            for (String line;
                    System.nanoTime() < deadline && (line = out.readLine()) != null && !line.equals("ready"); ) {
                said.add(line);
            }
            assertTrue(
                    said.stream().anyMatch(l -> l.startsWith("applied userland-proxy=false")), String.join("\n", said));
            assertTrue(Files.exists(DaemonConfigFile.DEFAULT), "the owner wrote " + DaemonConfigFile.DEFAULT);
            assertEquals(new DaemonSettings(false), effective());
            long afterApply =
                    DaemonRestart.onThisHost().running(SOCKET).orElseThrow().pid();

            long killed = System.nanoTime();
            owner.destroyForcibly(); // SIGKILL: no close(), no shutdown hook
            owner.waitFor(10, TimeUnit.SECONDS);
            long back = -1;
            while (System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(90)) {
                Optional<RunningDockerd> d = DaemonRestart.onThisHost().running(SOCKET);
                if (!journalsLeft(journals) && d.isPresent() && d.get().pid() != afterApply && Dockerd.answers()) {
                    back = (System.nanoTime() - killed) / 1_000_000;
                    break;
                }
                Thread.sleep(100);
            }
            System.out.printf(
                    "daemon settings: owner SIGKILLed -> its reaper put daemon.json back and restarted dockerd in %s ms%n",
                    back < 0 ? "(not within 90 s)" : Long.toString(back));
            assertTrue(back >= 0, "not back 90 s after the kill; reaper log: " + readLog(owner.pid()));
            assertEquals(DaemonSettings.DOCKER_DEFAULTS, effective());
            // The sweep deletes the journal as it puts it back and the reaper writes what it did after: wait for its
            // last line
            String log = reaperLogWhenDone(owner.pid(), Duration.ofSeconds(10));
            assertTrue(log.contains("put back host settings: 3 settings put back"), log);
            Files.deleteIfExists(ReaperProcess.logFile(owner.pid()));
        } finally {
            owner.destroyForcibly();
        }
    }

    /**
     * Study 003's (docs/studies.md#study-003) extra row through the runner: an environment on the vfs storage driver
     * between two on the daemon's own. Its image is carried into vfs (none is built or pulled there), bonnie++ runs in
     * a vfs copy-on-write layer, and at the end the image is removed from vfs and the daemon runs overlay2 again.
     */
    @Test
    void anEnvironmentOnTheVfsStorageDriverRunsWithItsImageCarriedAndLeavesVfsAsFound() throws Exception {
        Path repositories = Path.of("/var/lib/docker/image/vfs/repositories.json");
        String vfsBefore = Files.exists(repositories) ? Files.readString(repositories) : "";
        Path file = dir.resolve("vfs-row.yaml");
        Files.writeString(file, """
                name: vfs-row
                target: bonnie
                readyTimeoutSeconds: 60
                environments:
                  - { name: host, placement: bare }
                  - { name: cow, placement: docker }
                  - name: cow-vfs
                    placement: docker
                    dockerDaemon: { storageDriver: vfs }
                repetitions: 1
                baseline: host
                load:
                  command: { run: ./bonnie.sh -s 64 -r 32 -n 1 -f, output: bonnie++, durationSeconds: 30 }
                """);
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        long t0 = System.nanoTime();
        int exit = Cli.run(console, 400, "run", file.toString(), "-o", out.toString(), "--allow-docker-restart");
        String text = Files.readString(console);
        System.out.printf("vfs row: 3 runs, 2 daemon restarts, in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertEquals(0, exit, text);
        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(4, runs.size(), String.join("\n", runs));
        assertTrue(runs.stream().skip(1).allMatch(l -> l.split(",")[5].equals("ok")), String.join("\n", runs));
        List<String> daemonCsv = Files.readAllLines(out.resolve("docker-daemon.csv"));
        assertTrue(
                daemonCsv.contains("cow-vfs-r1,cow-vfs,userland-proxy=true storage-driver=vfs"), daemonCsv.toString());
        assertTrue(daemonCsv.contains("cow-r1,cow,userland-proxy=true"), daemonCsv.toString());
        assertTrue(text.contains("loaded envbench/bonnie:latest into storage driver vfs"), text);
        assertTrue(text.contains("docker daemon, storage driver vfs: removed envbench/bonnie:latest"), text);
        assertTrue(Files.readString(out.resolve("report/bonnie.md")).contains("| cow-vfs | "), "a row of its own");
        assertEquals(DaemonSettings.DOCKER_DEFAULTS, effective(), "the daemon's own settings again");
        String vfsAfter = Files.exists(repositories) ? Files.readString(repositories) : "";
        assertFalse(vfsAfter.contains("envbench/"), "no EnvBench image left in vfs: " + vfsAfter);
        assertEquals(vfsBefore.contains("envbench/"), vfsAfter.contains("envbench/"));
    }

    /**
     * A storage driver this host's kernel does not carry (it has no device mapper): that environment's run fails with
     * dockerd's own reason, the other environment's run is unharmed, and the daemon runs as before.
     */
    @Test
    void aStorageDriverTheHostCannotRunFailsItsRunWithDockerdsReasonAndPutsTheDaemonBack() throws Exception {
        DockerRequired.require(
                !Files.readString(Path.of("/proc/misc")).contains("device-mapper"),
                "a kernel without device mapper",
                "this host can run devicemapper");
        // dockerd makes the device mapper's control node before it finds the kernel lacks it: removed after, if new
        Path control = Path.of("/dev/mapper/control");
        boolean controlBefore = Files.exists(control);
        Path file = dir.resolve("dm-row.yaml");
        Files.writeString(file, """
                name: dm-row
                target: nginx-static
                port: %d
                environments:
                  - { name: docker, placement: docker }
                  - name: docker-dm
                    placement: docker
                    dockerDaemon: { storageDriver: devicemapper }
                repetitions: 1
                load:
                  http: { path: /page-4k.html, threads: 1, requestsPerSecond: 50, durationSeconds: 3 }
                """.formatted(LocalPorts.pickFree()));
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        int exit = Cli.run(console, 300, "run", file.toString(), "-o", out.toString(), "--allow-docker-restart");
        String text = Files.readString(console);
        assertEquals(1, exit, "a failed run fails the experiment: " + text);
        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertTrue(runs.get(1).startsWith("1,docker,1,") && runs.get(1).contains(",ok,"), runs.toString());
        assertTrue(runs.get(2).contains("failed: docker daemon: dockerd exited"), runs.toString());
        assertTrue(text.contains("driver not supported"), "dockerd's reason: " + text);
        assertTrue(text.contains("Docker daemon settings put back"), text);
        assertEquals(DaemonSettings.DOCKER_DEFAULTS, effective(), "the daemon's own settings again");
        if (!controlBefore) {
            Files.deleteIfExists(control);
            Files.deleteIfExists(control.getParent());
        }
    }

    /**
     * A labelled nginx publishing a free port on 127.0.0.1 answers there, through a docker-proxy for that port or not;
     * it is removed after.
     */
    private void served(DockerDaemon daemon, boolean throughProxy) throws Exception {
        int port = LocalPorts.pickFree();
        try (RunningTarget t = new DockerLauncher(new DockerConnection(daemon))
                .start(
                        "daemon-settings-" + (throughProxy ? "proxy" : "no-proxy"),
                        TargetRecipe.load(TARGETS, "nginx-static")
                                .container(ContainerOptions.builder().build(), port, Duration.ofSeconds(30)))) {
            Endpoint e = t.endpoint().orElseThrow();
            assertEquals("127.0.0.1", e.host());
            HttpResponse<String> r = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), "the published port answers on 127.0.0.1");
            List<String> proxies = dockerProxies();
            boolean proxied = proxies.stream().anyMatch(p -> p.contains("-host-port " + port + " "));
            System.out.printf(
                    "userland-proxy=%s: 127.0.0.1:%d answered HTTP 200; docker-proxy processes: %s; route_localnet on docker0: %s%n",
                    throughProxy,
                    port,
                    proxies,
                    Files.readString(ROUTE_LOCALNET).strip());
            assertEquals(throughProxy, proxied, "a docker-proxy for port " + port + ": " + proxies);
        }
        assertFalse(
                dockerProxies().stream().anyMatch(p -> p.contains("-host-port " + port + " ")),
                "its proxy ended with it");
    }

    /** The command lines of the docker-proxy processes running now. */
    private static List<String> dockerProxies() throws IOException {
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(
                Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path p : procs) {
                try {
                    if ("docker-proxy"
                            .equals(Files.readString(p.resolve("comm")).strip())) {
                        out.add(String.join(
                                        " ",
                                        Arrays.asList(Files.readString(p.resolve("cmdline"))
                                                .split("\0"))) + " ");
                    }
                } catch (IOException e) {
                    // ended while we looked
                }
            }
        }
        return out;
    }

    private static DaemonSettings effective() throws IOException {
        return DaemonSettings.effective(
                DaemonRestart.onThisHost().commandLine(SOCKET).orElseThrow(), DaemonConfigFile.DEFAULT);
    }

    private static boolean journalsLeft(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return false;
        }
        try (DirectoryStream<Path> j = Files.newDirectoryStream(folder, "*.journal")) {
            return j.iterator().hasNext();
        }
    }

    /** The reaper's log once it says the owner is gone and how many leftovers it removed, or as it is at the deadline. */
    private static String reaperLogWhenDone(long ownerPid, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        String log = readLog(ownerPid);
        while (!log.contains("owner PID " + ownerPid + " gone;") && System.nanoTime() < deadline) {
            Thread.sleep(100);
            log = readLog(ownerPid);
        }
        return log;
    }

    private static String readLog(long ownerPid) {
        try {
            return Files.readString(ReaperProcess.logFile(ownerPid));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
