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
 * Study 003 (docs/studies.md#study-003) (bonnie++) shortened, through {@code envbench run} as CI runs it: the study's
 * own file with a 512 MiB file, 32 MiB of memory per place (tmpfs: 768 MiB, its file is memory), no file tests and 2
 * repetitions. Every place runs, the table has a row per place with host = 100, both charts are written, and nothing is
 * left: no container, volume, scratch folder, cgroup or host process. (A test bonnie++ ends in under 0.5 s it reports
 * as {@code +++++}, too quick to time: a smaller file leaves no figure on this machine's fast disk.)
 */
@Isolated
class SeedBonnieTest extends DockerEndToEndTest {
    static final Path STUDY = Jmeter.ROOT.resolve("testplans/experiments/seed-003-bonnie.yaml");
    static final List<String> PLACES = List.of("host", "cow", "bind", "volume", "tmpfs");

    /** Besides nothing labelled (checked by {@link DockerEndToEndTest}): no folder or host process of the study's own. */
    @AfterEach
    void nothingOfTheStudyIsLeft() throws Exception {
        try (Stream<Path> s = Files.list(Path.of("/var/tmp"))) {
            assertEquals(
                    List.of(),
                    s.filter(p -> p.getFileName().toString().startsWith("envbench-bonnie."))
                            .toList(),
                    "scratch folders");
        }
        Path memory = Path.of("/sys/fs/cgroup/memory");
        if (Files.isDirectory(memory)) {
            try (Stream<Path> s = Files.list(memory)) {
                assertEquals(
                        List.of(),
                        s.filter(p -> p.getFileName().toString().startsWith("envbench-"))
                                .toList(),
                        "transient cgroups");
            }
        }
        assertEquals(
                List.of(),
                ProcessHandle.allProcesses()
                        .filter(p -> p.info().commandLine().orElse("").contains("bonnie")
                                || p.info().commandLine().orElse("").contains("hold.sh"))
                        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                        .toList(),
                "host processes");
    }

    @Test
    void theShortStudyGivesATableWithHostAtHundredAndBothChartsAndLeavesNothing() throws Exception {
        String yaml = Files.readString(STUDY)
                .replace("run: ./bonnie.sh -s 2048 -r 1024 -n 16 -f", "run: ./bonnie.sh -s 512 -r 32 -n 0 -f")
                .replace("memory: 1g", "memory: 32m")
                .replace("memory: 3g", "memory: 768m")
                .replace("bareMemory: 1g", "bareMemory: 32m")
                .replace("repetitions: 6", "repetitions: 2")
                .replace("durationSeconds: 30", "durationSeconds: 10")
                // the vfs row restarts the daemon (DockerDaemonSettingsTest runs it): the short study is the rest
                .replaceAll("(?m)^  - name: cow-vfs .*\\n(^    .*\\n)+", "");
        assertTrue(!yaml.contains("storageDriver"), yaml);
        assertTrue(
                yaml.contains("-s 512 -r 32") && yaml.contains("repetitions: 2") && yaml.contains("bareMemory: 32m"),
                yaml);
        Path file = dir.resolve("seed-003-short.yaml");
        Files.writeString(file, yaml);
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        long t0 = System.nanoTime();
        int exit = Cli.run(console, 170, "run", file.toString(), "-o", out.toString());
        String text = Files.readString(console);
        System.out.printf("short bonnie++ study: 10 runs in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertEquals(0, exit, text);

        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(11, runs.size(), String.join("\n", runs));
        List<String> order =
                runs.subList(1, runs.size()).stream().map(l -> l.split(",")[1]).toList();
        assertEquals(Stream.concat(PLACES.stream(), PLACES.stream()).toList(), order, "interleaved");
        assertTrue(runs.stream().skip(1).allMatch(l -> l.split(",")[5].equals("ok")), String.join("\n", runs));
        for (String place : PLACES) {
            assertTrue(
                    Files.readString(out.resolve("output/" + place + "-r1.out"))
                            .startsWith("1.98,2.00a," + place + ","),
                    place + "'s output is bonnie++'s CSV, named after the place");
        }

        List<String> csv = Files.readAllLines(out.resolve("report/bonnie.csv"));
        List<String[]> write = csv.stream()
                .map(l -> l.split(",", -1))
                .filter(c -> c[0].equals("block write"))
                .toList();
        assertEquals(PLACES, write.stream().map(c -> c[2]).toList(), "a row per place in " + csv);
        if (write.get(0)[3].equals("0")) { // bonnie++ timed none of the host's writes (+++++): no 100 to give
            assertEquals("2", write.get(0)[4], "both host runs too quick to time: " + String.join(",", write.get(0)));
            assertEquals("", write.get(0)[9], "no % of a host that has no value");
        } else {
            assertEquals("100", write.get(0)[9], "host = 100");
        }
        List<String> head = List.of(csv.get(0).split(","));
        // a host with no timed write is a baseline without runs: nothing to compare with
        assertEquals(
                write.get(0)[3].equals("0") ? "no runs" : "baseline",
                write.get(0)[head.indexOf("verdict")],
                String.join(",", write.get(0)));
        for (String[] row : write) {
            // each place's 2 runs: a value (K/s > 0), or counted as too quick to time
            assertEquals(2, Integer.parseInt(row[3]) + Integer.parseInt(row[4]), String.join(",", row));
            assertTrue(row[3].equals("0") || Double.parseDouble(row[5]) > 0, String.join(",", row));
        }
        String md = Files.readString(out.resolve("report/bonnie.md"));
        assertTrue(md.contains("## block write (K/s, higher is better)") && md.contains("| host | 2 | "), md);
        for (String chart : List.of("bonnie-relative", "bonnie-relative-log")) {
            assertTrue(Files.size(out.resolve("report/charts/" + chart + ".png")) > 10_000, chart);
        }
        assertTrue(text.contains("## block write"), text);
        // the block I/O of the containers is counted (their throttle rule): a 64 MiB file read back through 32 MiB of
        // memory
        double readBytes = 0;
        for (String place : List.of("cow", "volume")) {
            for (int r = 1; r <= 2; r++) {
                readBytes += column(
                        out.resolve("metrics/" + place + "-r" + r + ".csv"),
                        "container." + place + ".blk.read.bytesPerSec");
            }
        }
        System.out.printf(
                "block reads counted in the cow and volume containers' cgroups: %.0f MiB%n", readBytes / (1 << 20));
        assertTrue(readBytes > 0, "the containers' block reads are counted");
        assertTrue(junitOk(out), Files.readString(out.resolve("junit.xml")));
    }

    /** The sum of a metrics file's column over its rows (bytes/s at 1 s ticks: about the bytes). */
    private static double column(Path metrics, String name) throws Exception {
        List<String> lines = Files.readAllLines(metrics).stream()
                .filter(l -> !l.startsWith("#"))
                .toList(); // the sources comment
        int i = List.of(lines.get(0).split(",")).indexOf(name);
        assertTrue(i >= 0, name + " in " + lines.get(0));
        double sum = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            if (i < c.length && !c[i].isEmpty()) {
                sum += Double.parseDouble(c[i]);
            }
        }
        return sum;
    }

    private static boolean junitOk(Path out) throws Exception {
        String junit = Files.readString(out.resolve("junit.xml"));
        return !junit.contains("<failure");
    }
}
