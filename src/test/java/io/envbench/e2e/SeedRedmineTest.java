package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Study 000 (docs/studies.md#study-000) (Redmine and MariaDB, bare vs Docker) shortened, through {@code envbench run}
 * as CI runs it: the study's own file and plan at its low load (100 iterations a minute), one run a side of 20 s. Both
 * placements run the real Redmine and MariaDB (on the host; in two containers on a network of the environment's own),
 * every operation of the iteration has samples and no error, the two charts of the study (90% line, KB/s) are written;
 * and nothing is left: no container, network or volume, no Redmine instance or database folder, no mariadbd or Puma on
 * the host.
 */
@Isolated
class SeedRedmineTest extends DockerEndToEndTest {
    static final Path STUDY = Jmeter.ROOT.resolve("testplans/experiments/seed-000-redmine.yaml");
    static final List<String> OPERATIONS =
            List.of("1 GET /login", "2 POST /login", "3 GET /projects/envbench", "4 POST /projects/envbench/issues");

    /** Besides nothing labelled (checked by {@link DockerEndToEndTest}): no folder or host process of the study's own. */
    @AfterEach
    void nothingOfTheStudyIsLeft() throws Exception {
        try (Stream<Path> instances = Files.list(Path.of("/var/lib/redmine"));
                Stream<Path> scratch = Files.list(Path.of("/var/tmp"))) {
            assertEquals(
                    List.of(),
                    instances
                            .filter(p -> p.getFileName().toString().startsWith("envbench-"))
                            .toList(),
                    "Redmine instances");
            assertEquals(
                    List.of(),
                    scratch.filter(p -> p.getFileName().toString().startsWith("envbench-mariadb."))
                            .toList(),
                    "database folders");
        }
        assertEquals(
                List.of(),
                ProcessHandle.allProcesses()
                        .filter(p -> p.info()
                                .commandLine()
                                .orElse("")
                                .matches(".*(mariadbd|puma|redmine\\.sh|mariadb\\.sh).*"))
                        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                        .toList(),
                "host processes");
    }

    @Test
    void theShortStudyRunsRedmineBareAndInContainersWithoutErrorsAndLeavesNothing() throws Exception {
        String yaml = Files.readString(STUDY)
                .replace(
                        "plan: ../seed-000-redmine.jmx",
                        "plan: " + Jmeter.ROOT.resolve("testplans/seed-000-redmine.jmx"))
                .replaceFirst("repetitions: 6 .*", "repetitions: 1")
                .replace("warmupSeconds: 10", "warmupSeconds: 5")
                .replace("durationSeconds: 70", "durationSeconds: 20");
        assertTrue(
                yaml.contains("repetitions: 1")
                        && yaml.contains("durationSeconds: 20")
                        && yaml.contains("envbench.rate.per.minute: 100"),
                yaml);
        Path file = dir.resolve("seed-000-short.yaml");
        Files.writeString(file, yaml);
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        long t0 = System.nanoTime();
        int exit = Cli.run(console, 300, "run", file.toString(), "-o", out.toString());
        String text = Files.readString(console);
        System.out.printf("short Redmine study: 2 runs in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertEquals(0, exit, text);

        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(
                List.of("bare", "docker"),
                runs.subList(1, runs.size()).stream().map(l -> l.split(",")[1]).toList(),
                String.join("\n", runs));
        assertTrue(runs.stream().skip(1).allMatch(l -> l.split(",")[5].equals("ok")), String.join("\n", runs));
        String dockerLog = Files.readString(out.resolve("logs/docker-r1.target.log"));
        assertTrue(
                dockerLog.contains("db: container")
                        && dockerLog.contains("app: container")
                        && dockerLog.contains("network envbench-docker-net-"),
                dockerLog.lines().findFirst().orElse(""));
        String bareLog = Files.readString(out.resolve("logs/bare-r1.target.log"));
        assertTrue(
                bareLog.contains("db: host process") && bareLog.contains("app: host process"),
                bareLog.lines().findFirst().orElse(""));

        List<String[]> rows = Files.readAllLines(out.resolve("report/comparison.csv")).stream()
                .skip(1)
                .map(l -> l.split(",", -1))
                .toList();
        for (String env : List.of("bare", "docker")) {
            for (String op : OPERATIONS) {
                String[] row = rows.stream()
                        .filter(r -> r[0].equals(env) && r[1].equals(op))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no row for " + env + " " + op));
                assertTrue(Long.parseLong(row[2]) >= 5, env + " " + op + ": count " + row[2]);
                assertEquals(0.0, Double.parseDouble(row[10]), env + " " + op + ": error %");
                System.out.printf(
                        "%s %s: count %s, average %s ms, 90%% %s ms, %s KB/s%n",
                        env, op, row[2], row[3], row[5], row[12]);
            }
        }
        String md = Files.readString(out.resolve("report/comparison.md"));
        assertFalse(md.contains("Errors by response code"));
        // each service apart, on the host and in its container alike: the database's own storage writes (study 000)
        String services = md.substring(md.indexOf("## Services apart (metrics file)"));
        for (String env : List.of("bare", "docker")) {
            for (String service : List.of("db", "app")) {
                assertTrue(
                        services.lines().anyMatch(l -> l.startsWith("| " + env + " | " + service + " | ")),
                        env + " " + service + ":\n" + services);
            }
        }
        String header = Files.readAllLines(out.resolve("metrics/docker-r1.csv")).stream()
                .filter(l -> !l.startsWith("#"))
                .findFirst()
                .orElseThrow();
        assertTrue(
                header.contains("process.docker/db.io.write.bytesPerSec")
                        && header.contains("process.docker/app.cpu.pct"),
                header);
        services.lines().filter(l -> l.contains(" | db | ")).forEach(l -> System.out.println("database apart: " + l));
        for (String chart : List.of("p90", "received")) {
            assertTrue(Files.size(out.resolve("report/charts/" + chart + ".png")) > 5_000, chart);
        }
        // JMeter 5.6 logs "Existing CookieManager ... superseded by ..." once per sample of this plan (its one
        // Cookie Manager applied again each iteration): the assembled JMeter's log4j2.xml drops that message
        for (String env : List.of("bare", "docker")) {
            String jmeterLog = Files.readString(out.resolve("logs/" + env + "-r1.jmeter.log"));
            assertTrue(jmeterLog.contains("Running the test!"), jmeterLog);
            assertEquals(
                    List.of(),
                    jmeterLog.lines().filter(l -> l.contains("superseded by")).toList(),
                    env + ": JMeter's per-sample CookieManager warning");
        }
    }
}
