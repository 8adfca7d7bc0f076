package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code envbench run} when the real Docker daemon goes away mid-run: frozen with SIGSTOP, or stopped with SIGTERM
 * and started again as {@code ./envbench setup} starts it. Each time the Docker run under way fails within 5 s with
 * a message naming the daemon's address and what to do, the bare-metal runs go on, the next Docker start fails as
 * fast while the daemon is away, and once it is back the later Docker runs use it again; nothing labelled is left.
 * The daemon is always restored (thawed, or started) in a finally block. Hold the Docker lock: it stops the daemon
 * every other test uses.
 */
@Isolated
class DaemonFaultTest extends DockerEndToEndTest {
    static final Duration DEADLINE = Duration.ofSeconds(5);
    static final String ADDRESS = "unix:///var/run/docker.sock";

    static final String EXPERIMENT = """
            name: daemon-fault
            description: the Docker daemon frozen or stopped during the first Docker run
            target: nginx-static
            port: 18491
            environments:
              - name: docker
                placement: docker
                network: bridge
              - name: bare
                placement: bare
            repetitions: 3
            order: interleaved
            baseline: bare
            load:
              http:
                path: /page-4k.html
                threads: 2
                requestsPerSecond: 200
                rampUpSeconds: 0
                warmupSeconds: 1
                durationSeconds: 5
            """;

    @Test
    void aDaemonFrozenMidRunFailsThatRunWithin5sTheOthersGoOnAndItIsUsedAgainOnceThawed() throws Exception {
        Dockerd dockerd = Dockerd.running();
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        Process p = start(out, console);
        try {
            awaitFile(out.resolve("jtl/docker-r1.jtl"), console);
            Thread.sleep(1500); // the load is under way
            Instant frozen = Instant.now();
            dockerd.freeze();

            List<CSVRecord> runs = awaitRuns(out, 1, console);
            CSVRecord lost = runs.get(0);
            assertEquals("docker", lost.get("environment"), lost.toString());
            assertTrue(
                    lost.get("status")
                            .startsWith("failed: Docker daemon lost: Docker daemon at " + ADDRESS
                                    + " did not answer GET /_ping within 2 s"),
                    lost.get("status"));
            assertTrue(lost.get("status").contains("./envbench setup"), "says what to do: " + lost.get("status"));
            Duration detect = Duration.between(frozen, Instant.parse(lost.get("end")));
            System.out.printf(
                    "time to detect a frozen daemon (SIGSTOP to its run recorded failed): %d ms%n", detect.toMillis());
            assertTrue(detect.compareTo(DEADLINE) <= 0, "the run failed within 5 s of the freeze: " + detect);

            runs = awaitRuns(out, 3, console);
            // the frozen daemon's container still runs and holds the published port: bare metal says so at once and the
            // runner goes on
            CSVRecord bare = runs.get(1);
            assertEquals("bare", bare.get("environment"));
            assertTrue(
                    bare.get("status").equals("ok")
                            || bare.get("status").startsWith("failed: start: port: 18491 is already in use")
                                    && bare.get("status")
                                            .contains("of a run lost with the Docker daemon at " + ADDRESS),
                    bare.get("status"));
            CSVRecord refused = runs.get(2);
            assertEquals("docker", refused.get("environment"));
            assertTrue(
                    refused.get("status").startsWith("failed: start: Docker daemon at " + ADDRESS + " did not answer"),
                    refused.get("status"));
            Duration startFailed =
                    Duration.between(Instant.parse(refused.get("start")), Instant.parse(refused.get("end")));
            System.out.printf("a Docker start while the daemon is frozen fails in %d ms%n", startFailed.toMillis());
            assertTrue(startFailed.compareTo(DEADLINE) <= 0, "the start failed within 5 s: " + startFailed);

            dockerd.thaw();
            Instant thawed = Instant.now();
            finish(p, console);
            runs = runs(out);
            assertEquals(6, runs.size(), runs.toString());
            String heldByLost = "failed: start: port: 18491 is already in use on this host";
            for (int i = 3; i < 6; i++) {
                CSVRecord r = runs.get(i);
                Instant start = Instant.parse(r.get("start"));
                if (start.isAfter(thawed)) {
                    assertEquals("ok", r.get("status"), "a run started after SIGCONT is ok, Docker's too: " + r);
                } else {
                    // the runner went on before the test could thaw the daemon: a bare run may find the port still held
                    // by
                    // the container lost with the frozen daemon, and must say so; a Docker start is refused as before
                    assertTrue(
                            r.get("environment").equals("bare")
                                    ? r.get("status").equals("ok")
                                            || r.get("status").startsWith(heldByLost)
                                                    && r.get("status")
                                                            .contains("of a run lost with the Docker daemon at "
                                                                    + ADDRESS)
                                    : r.get("status")
                                            .startsWith(
                                                    "failed: start: Docker daemon at " + ADDRESS + " did not answer"),
                            r.toString());
                    Instant previousEnd = Instant.parse(runs.get(i - 1).get("end"));
                    assertTrue(
                            !start.isAfter(previousEnd.plusSeconds(1)),
                            "the runner went on at once, waiting for nothing: " + r);
                }
            }
            assertTrue(
                    runs.subList(3, 6).stream()
                            .anyMatch(r -> r.get("environment").equals("docker")
                                    && r.get("status").equals("ok")),
                    "Docker used again after SIGCONT: " + runs);
            assertTrue(
                    Files.readString(out.resolve("report/comparison.md"))
                            .contains("docker run 1: failed: Docker daemon lost"),
                    "the report says which run failed and why");
        } finally {
            dockerd.restore();
            stop(p);
        }
    }

    @Test
    void aDaemonStoppedMidRunFailsThatRunWithin5sAndARestartedDaemonIsUsedAgainWithNothingLeft() throws Exception {
        Dockerd dockerd = Dockerd.running();
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        Process p = start(out, console);
        try {
            awaitFile(out.resolve("jtl/docker-r1.jtl"), console);
            Thread.sleep(1500);
            Instant stopped = Instant.now();
            dockerd.terminate();

            List<CSVRecord> runs = awaitRuns(out, 1, console);
            CSVRecord lost = runs.get(0);
            assertEquals("docker", lost.get("environment"), lost.toString());
            assertTrue(lost.get("status").startsWith("failed: Docker daemon lost: "), lost.get("status"));
            assertTrue(
                    lost.get("status").contains(ADDRESS) && lost.get("status").contains("./envbench setup"),
                    lost.get("status"));
            Duration detect = Duration.between(stopped, Instant.parse(lost.get("end")));
            System.out.printf(
                    "time to detect a daemon that went away (SIGTERM to its run recorded failed): %d ms%n",
                    detect.toMillis());
            assertTrue(detect.compareTo(DEADLINE) <= 0, "the run failed within 5 s of the stop: " + detect);

            runs = awaitRuns(out, 3, console);
            assertEquals(
                    "bare ok",
                    runs.get(1).get("environment") + " " + runs.get(1).get("status"),
                    "bare metal goes on: " + runs.get(1));
            CSVRecord refused = runs.get(2);
            assertTrue(
                    refused.get("status").startsWith("failed: start: Docker daemon not reachable at " + ADDRESS),
                    refused.get("status"));
            Duration startFailed =
                    Duration.between(Instant.parse(refused.get("start")), Instant.parse(refused.get("end")));
            System.out.printf("a Docker start while the daemon is gone fails in %d ms%n", startFailed.toMillis());
            assertTrue(startFailed.compareTo(DEADLINE) <= 0, "the start failed within 5 s: " + startFailed);

            assertTrue(dockerd.awaitExit(60), "dockerd ended after SIGTERM");
            long restartMs = dockerd.startAgain();
            Instant back = Instant.now();
            int leftAtRestart = docker.containers().size();
            System.out.printf(
                    "dockerd started again (nohup dockerd, as ./envbench setup) and answering in %d ms; "
                            + "labelled containers then: %d (the lost run's, removed at the next connection)%n",
                    restartMs, leftAtRestart);

            finish(p, console);
            runs = runs(out);
            assertEquals(6, runs.size(), runs.toString());
            List<CSVRecord> after = runs.stream()
                    .filter(r -> Instant.parse(r.get("start")).isAfter(back))
                    .toList();
            assertTrue(
                    after.stream().anyMatch(r -> r.get("environment").equals("docker")),
                    "a Docker run after the restart: " + runs);
            after.forEach(r -> assertEquals("ok", r.get("status"), "the restarted daemon is used again: " + r));
            int left = docker.containers().size();
            System.out.printf("leftovers: %d labelled container(s) after the run%n", left);
            assertEquals(0, left);
        } finally {
            dockerd.restore();
            stop(p);
        }
    }

    private Process start(Path out, Path console) throws IOException {
        Path experiment = dir.resolve("experiment.yaml");
        Files.writeString(experiment, EXPERIMENT);
        return Cli.start(console, "run", experiment.toString(), "-o", out.toString());
    }

    private static void awaitFile(Path file, Path console) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && !Files.exists(file)) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(file), file + " never appeared: " + Files.readString(console));
    }

    private static List<CSVRecord> awaitRuns(Path out, int n, Path console) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            List<CSVRecord> runs = runs(out);
            if (runs.size() >= n) {
                return runs;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("runs.csv never had " + n + " row(s): " + Files.readString(console));
    }

    private static List<CSVRecord> runs(Path out) throws IOException {
        Path f = out.resolve("runs.csv");
        if (!Files.exists(f)) {
            return List.of();
        }
        try (Reader r = Files.newBufferedReader(f)) {
            return CSVFormat.DEFAULT
                    .builder()
                    .setHeader()
                    .setSkipHeaderRecord(true)
                    .build()
                    .parse(r)
                    .getRecords();
        }
    }

    private static void finish(Process p, Path console) throws Exception {
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "ended: " + Files.readString(console));
        String text = Files.readString(console);
        assertEquals(1, p.exitValue(), "runs are missing (the failed ones): exit 1; " + text);
        assertTrue(text.contains("Docker daemon lost"), "the progress log says it: " + text);
    }

    private static void stop(Process p) throws InterruptedException {
        if (p.isAlive()) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
