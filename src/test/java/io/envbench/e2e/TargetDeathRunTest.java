package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.envbench.base.environment.RunSession;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code envbench run} when the target dies mid-run: its container is killed from outside during the
 * first run; that run is recorded as {@code failed: target died: ...} and ends early (its JMeter stopped),
 * the next runs are ok, and nothing labelled is left.
 */
@Isolated
class TargetDeathRunTest extends DockerEndToEndTest {
    static final int RUN_SECONDS = 8;

    static final String EXPERIMENT = """
            name: target-death
            description: a target killed during its first run
            target: nginx-static
            port: 18490
            environments:
              - name: victim
                placement: docker
                network: bridge
            repetitions: 3
            load:
              http:
                path: /page-4k.html
                threads: 2
                requestsPerSecond: 0
                rampUpSeconds: 0
                warmupSeconds: 1
                durationSeconds: %d
            """.formatted(RUN_SECONDS);

    @Test
    void aTargetKilledInTheFirstRunFailsThatRunStopsItsLoadAndTheNextRunsAreOk() throws Exception {
        Path experiment = dir.resolve("experiment.yaml");
        Files.writeString(experiment, EXPERIMENT);
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        Process p = Cli.start(console, "run", experiment.toString(), "-o", out.toString());
        try {
            // once the first run's load has begun, kill its container as the OOM killer or a crash would
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline && !Files.exists(out.resolve("jtl/victim-r1.jtl"))) {
                Thread.sleep(100);
            }
            assertTrue(Files.exists(out.resolve("jtl/victim-r1.jtl")), Files.readString(console));
            Thread.sleep(1500);
            var victim = docker.containers().stream()
                    .filter(c -> "victim".equals(c.labels().get(RunSession.LABEL_ENV)))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no container of victim: " + docker.containers()));
            Instant killed = Instant.now();
            new DockerConnection(DockerDaemon.fromEnvironment())
                    .client()
                    .killContainerCmd(victim.id())
                    .exec(); // SIGKILL to its main process
            Instant noticed = null; // when the run's progress log says so
            for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    noticed == null && System.nanoTime() < until; ) {
                if (Files.readString(console).contains("victim died: exited with code 137")) {
                    noticed = Instant.now();
                } else {
                    Thread.sleep(50);
                }
            }

            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "ended: " + Files.readString(console));
            String text = Files.readString(console);
            assertEquals(1, p.exitValue(), "runs are missing (the failed one): exit 1; " + text);

            List<CSVRecord> runs;
            try (Reader r = Files.newBufferedReader(out.resolve("runs.csv"))) {
                runs = CSVFormat.DEFAULT
                        .builder()
                        .setHeader()
                        .setSkipHeaderRecord(true)
                        .build()
                        .parse(r)
                        .getRecords();
            }
            assertEquals(3, runs.size(), "r1 failed, r2 and r3 ok: " + runs);
            CSVRecord first = runs.get(0);
            assertEquals("1", first.get("repetition"));
            assertEquals(
                    "failed: target died: exited with code 137 (killed by signal 9, SIGKILL)", first.get("status"));
            Instant firstEnd = Instant.parse(first.get("end"));
            assertTrue(noticed != null, "the run's progress log says it: " + text);
            System.out.printf(
                    "time to detect, end to end: the run's log said its container died %d ms after the kill; run 1 ended "
                            + "(JMeter stopped, the environment gone) %d ms after it%n",
                    Duration.between(killed, noticed).toMillis(),
                    Duration.between(killed, firstEnd).toMillis());
            // noticed within a couple of seconds (the events stream, then a 1 s grace for a daemon on its way out)
            assertTrue(
                    Duration.between(killed, noticed).compareTo(Duration.ofSeconds(3)) <= 0,
                    "noticed within 3 s of the kill: " + noticed);
            // then JMeter is stopped and the run recorded: seconds, not the 10 s the run had left
            assertTrue(
                    Duration.between(killed, firstEnd).compareTo(Duration.ofSeconds(8)) <= 0,
                    "the run ended within 8 s of its target's death, its JMeter stopped: " + first);
            assertTrue(
                    Files.readString(out.resolve("report/comparison.md"))
                            .contains("victim run 1: failed: target died: exited with code 137"),
                    "the report says which run failed and why");
            assertTrue(Files.readString(out.resolve("logs/victim-r1.target.log"))
                    .contains("died during the run: exited with code 137"));
            for (CSVRecord later : runs.subList(1, runs.size())) {
                assertEquals("ok", later.get("status"), later.toString());
                assertTrue(Long.parseLong(later.get("samples")) > 50, later.toString());
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
