package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Study 002 (docs/studies.md#study-002) (psql against PostgreSQL) shortened, through {@code envbench run} as CI runs
 * it: the study's own file with 100 INSERTs and 1,000 SELECTs and 2 repetitions. Every place runs (the host, the same
 * container, a second container on a user-defined network, the published port), each output has both timed phases, the
 * table has a row per place and phase with positive times, both charts are written; and nothing is left: no container,
 * network or volume, no cluster folder in /var/tmp, no PostgreSQL on the host.
 */
@Isolated
class SeedPostgresTest extends DockerEndToEndTest {
    static final Path STUDY = Jmeter.ROOT.resolve("testplans/experiments/seed-002-postgres.yaml");
    static final List<String> PLACES = List.of("host", "same-container", "other-container", "published-port");

    /** Besides nothing labelled (checked by {@link DockerEndToEndTest}): no folder or host process of the study's own. */
    @AfterEach
    void nothingOfTheStudyIsLeft() throws Exception {
        for (String folder : List.of("/var/tmp", "/tmp")) {
            try (Stream<Path> s = Files.list(Path.of(folder))) {
                assertEquals(
                        List.of(),
                        s.filter(p -> p.getFileName().toString().startsWith("envbench-postgres.")
                                        || p.getFileName().toString().startsWith("envbench-psql."))
                                .toList(),
                        "cluster and script folders in " + folder);
            }
        }
        assertEquals(
                List.of(),
                ProcessHandle.allProcesses()
                        .filter(p -> p.info().commandLine().orElse("").contains("envbench-postgres.")
                                || p.info().commandLine().orElse("").contains("postgres.sh")
                                || p.info().commandLine().orElse("").contains("psql-latency"))
                        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                        .toList(),
                "host processes");
    }

    @Test
    void theShortStudyTimesPsqlInFourPlacesAndLeavesNothing() throws Exception {
        String yaml = Files.readString(STUDY)
                .replace("run: ./psql-latency.sh 1000 10000", "run: ./psql-latency.sh 100 1000")
                .replace("repetitions: 20", "repetitions: 2")
                .replace("durationSeconds: 20", "durationSeconds: 5");
        assertTrue(yaml.contains("psql-latency.sh 100 1000") && yaml.contains("repetitions: 2"), yaml);
        Path file = dir.resolve("seed-002-short.yaml");
        Files.writeString(file, yaml);
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        long t0 = System.nanoTime();
        int exit = Cli.run(console, 240, "run", file.toString(), "-o", out.toString());
        String text = Files.readString(console);
        System.out.printf("short psql study: 8 runs in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertEquals(0, exit, text);

        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(9, runs.size(), String.join("\n", runs));
        assertEquals(
                Stream.concat(PLACES.stream(), PLACES.stream()).toList(),
                runs.subList(1, runs.size()).stream().map(l -> l.split(",")[1]).toList(),
                "interleaved");
        assertTrue(runs.stream().skip(1).allMatch(l -> l.split(",")[5].equals("ok")), String.join("\n", runs));
        for (String place : PLACES) {
            String output = Files.readString(out.resolve("output/" + place + "-r1.out"));
            assertTrue(
                    output.contains("psql insert statements=100 ") && output.contains("psql select statements=1000 "),
                    place + ": " + output);
        }
        assertTrue(
                text.contains("the command runs in a second container on network envbench-other-container-net"), text);

        List<String[]> csv = Files.readAllLines(out.resolve("report/psql.csv")).stream()
                .skip(1)
                .map(l -> l.split(",", -1))
                .toList();
        for (String phase : List.of("insert", "select")) {
            List<String[]> elapsed = csv.stream()
                    .filter(c -> c[0].equals(phase) && c[3].equals("elapsed"))
                    .toList();
            assertEquals(PLACES, elapsed.stream().map(c -> c[2]).toList(), "a row per place for " + phase);
            for (String[] row : elapsed) {
                assertEquals("2", row[4], String.join(",", row));
                assertTrue(Double.parseDouble(row[5]) > 0, "elapsed > 0: " + String.join(",", row));
                assertTrue(
                        !row[9].isEmpty() && !row[12].isEmpty(),
                        "overheads against host and same-container: " + String.join(",", row));
                System.out.printf(
                        "%s %s: elapsed %s s, vs host %s%%, vs same-container %s%%%n",
                        phase, row[2], row[5], row[9], row[12]);
            }
            assertEquals("0", elapsed.get(0)[9], "host against itself");
            assertEquals("0", elapsed.get(1)[12], "same-container against itself");
            List<String[]> cpu = csv.stream()
                    .filter(c -> c[0].equals(phase) && !c[3].equals("elapsed"))
                    .toList();
            assertEquals(2 * PLACES.size(), cpu.size());
            assertTrue(cpu.stream().allMatch(c -> Double.parseDouble(c[5]) >= 0), "user and sys times");
        }
        String md = Files.readString(out.resolve("report/psql.md"));
        assertTrue(md.contains("## insert (100 statements)") && md.contains("| other-container | 2 | "), md);
        for (String chart : List.of("psql-elapsed", "psql-relative")) {
            assertTrue(Files.size(out.resolve("report/charts/" + chart + ".png")) > 5_000, chart);
        }
        assertTrue(text.contains("# psql round trips per place"), text);
    }
}
