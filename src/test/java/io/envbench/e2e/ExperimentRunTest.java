package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.envbench.launch.docker.DockerInventory;
import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.results.ResultFiles;
import io.envbench.study.runner.JMeterStartGate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code envbench run} end to end: the real runner starts the real environments, runs the assembled JMeter
 * headless against them and writes the run directory; exit codes, interleaving, JUnit XML, Ctrl-C and resume.
 */
@Isolated
class ExperimentRunTest {
    @TempDir
    Path dir;

    DockerInventory docker;

    /** Three environments x 4 short runs; a criterion that must fail (bridge 10x bare's throughput). */
    static final String EXPERIMENT = """
            name: runner-e2e
            description: three environments, four short interleaved runs
            target: nginx-static
            port: 18480
            environments:
              - name: bare
                placement: bare
              - name: docker-bridge
                placement: docker
                network: bridge
              - name: docker-host
                placement: docker
                network: host
            repetitions: 4
            order: interleaved
            baseline: bare
            load:
              http:
                path: /page-4k.html
                threads: 2
                requestsPerSecond: 0
                rampUpSeconds: 0
                warmupSeconds: 1
                durationSeconds: 2
            criteria:
              - errorPct(*) < 1
              - throughput(docker-bridge) >= 10 * throughput(bare)
            """;

    @BeforeEach
    void dockerRuns() {
        docker = Jmeter.docker();
    }

    @AfterEach
    void nothingLabelledIsLeft() {
        Jmeter.assertNothingLabelledLeft(docker);
    }

    private Path experiment(String yaml) throws Exception {
        Path f = dir.resolve("experiment.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void runsInterleavedWritesTheRunDirectoryAndAFailedCriterionExitsOne() throws Exception {
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        // two rounds: the order within each, and every later run's JMeter started ahead, show as in four
        int exit = Cli.run(
                console,
                400,
                "run",
                experiment(EXPERIMENT.replace("repetitions: 4", "repetitions: 2"))
                        .toString(),
                "-o",
                out.toString());
        String text = Files.readString(console);
        assertEquals(1, exit, text);

        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(
                "round,environment,repetition,start,end,status,samples,startToReadyMs,firstSample,jmeterCpus,targetCpus,"
                        + "dockerProxyCpus",
                runs.get(0));
        assertEquals(7, runs.size(), String.join("\n", runs));
        List<String> order =
                runs.subList(1, runs.size()).stream().map(l -> l.split(",")[1]).toList();
        for (int round = 0; round < 2; round++) {
            assertEquals(
                    List.of("bare", "docker-bridge", "docker-host"),
                    order.subList(3 * round, 3 * round + 3),
                    "round " + (round + 1));
        }
        assertTrue(runs.stream().skip(1).allMatch(l -> l.split(",")[5].equals("ok")), String.join("\n", runs));
        assertTrue(
                runs.stream().skip(1).allMatch(l -> Long.parseLong(l.split(",")[6]) > 50), "samples per run: " + runs);

        String junit = Files.readString(out.resolve("junit.xml"));
        assertTrue(junit.contains("tests=\"3\" failures=\"1\""), junit);
        assertTrue(
                junit.contains("name=\"throughput(docker-bridge) &gt;= 10 * throughput(bare)\">\n    <failure"), junit);
        assertTrue(junit.contains("name=\"errorPct(*) &lt; 1\">\n    <system-out>"), junit);

        assertTrue(Files.isRegularFile(out.resolve("report/index.html")));
        assertTrue(Files.isRegularFile(out.resolve("experiment.yaml")));
        assertTrue(Files.isRegularFile(out.resolve("metrics/docker-bridge-r2.csv")));
        assertEquals(
                order.size(), keptCompressed(out).size(), "each run's JTL kept compressed, nothing plain or half-made");
        assertTrue(Files.readString(out.resolve("logs/bare-r1.target.log")).contains("host process pid"));
        assertFalse(Files.exists(out.resolve("PARTIAL")));
        assertTrue(text.contains("FAIL ") && text.contains("PASS "), text);
        startedAheadAtTheGate(out, runs, 18480);
    }

    /**
     * The built-in plan holds the Start Gate: the first run's JMeter started once its environment was up, with its
     * endpoint on the command line; every later run's started while the run before it ended, waited at the gate and
     * got its endpoint there once its environment was ready (no run had an error: its samples went there). A JMeter
     * started for a run that did not happen (the runs ended before it) left no file.
     */
    static void startedAheadAtTheGate(Path out, List<String> runs, int port) throws IOException {
        String opened = "EnvBench Start Gate opened with {envbench.host=127.0.0.1, envbench.port=" + port + "}";
        List<String> ids = runs.subList(1, runs.size()).stream()
                .map(l -> l.split(",")[1] + "-r" + l.split(",")[2])
                .toList();
        String first = Files.readString(out.resolve("logs/" + ids.get(0) + ".jmeter.log"));
        assertFalse(first.contains("Start Gate opened"), first);
        assertTrue(first.contains("Setting JMeter property: envbench.port=" + port), first);
        for (String id : ids.subList(1, ids.size())) {
            String log = Files.readString(out.resolve("logs/" + id + ".jmeter.log"));
            assertTrue(log.contains(opened), id + ":\n" + log);
            assertFalse(log.contains("Setting JMeter property: envbench.port"), id + ":\n" + log);
            assertTrue(
                    Files.readString(out.resolve("logs/" + id + ".jmeter.out")).contains(JMeterStartGate.WAITING), id);
        }
        // nothing of a JMeter started for a run that did not happen
        try (var logs = Files.list(out.resolve("logs"))) {
            List<String> jmeterLogs = logs.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".jmeter.log"))
                    .sorted()
                    .toList();
            assertEquals(ids.stream().map(id -> id + ".jmeter.log").sorted().toList(), jmeterLogs);
        }
    }

    /**
     * calibration: aa and isolation: cpus on the real engine: bare runs again as bare-aa right after bare in every
     * round, and the report says first what that A/A comparison gave, with the adjusted p and the smallest change the
     * runs could show; JMeter ran on CPUs of its own, the target and the bridge's docker-proxy on the others, as read
     * from /proc during each run.
     */
    @Test
    void calibrationAndIsolationRunForRealAndAreRecorded() throws Exception {
        String yaml = """
                name: calibration-e2e
                target: nginx-static
                port: 18481
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker-bridge, placement: docker, network: bridge }
                repetitions: 4
                baseline: bare
                isolation: cpus
                calibration: aa
                correction: holm
                # 2 s measured: JMeter's JIT warm-up keeps its CPU busy through them on a slower machine, and the
                # report would rightly give no verdict; the generator rule has its own tests, this one the A/A's
                allowGeneratorBound: true
                load:
                  http: { path: /page-4k.html, threads: 2, requestsPerSecond: 300, warmupSeconds: 1, durationSeconds: 3 }
                """;
        Path out = dir.resolve("calibrated");
        Path console = dir.resolve("console.txt");
        int exit = Cli.run(console, 400, "run", experiment(yaml).toString(), "-o", out.toString());
        String text = Files.readString(console);
        assertEquals(0, exit, text);
        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        List<String> order =
                runs.subList(1, runs.size()).stream().map(l -> l.split(",")[1]).toList();
        assertEquals(12, order.size(), String.join("\n", runs));
        for (int round = 0; round < 4; round++) {
            assertEquals(List.of("bare", "bare-aa", "docker-bridge"), order.subList(3 * round, 3 * round + 3));
        }
        assertTrue(text.contains("isolated: JMeter on CPUs "), text);
        for (String row : runs.subList(1, runs.size())) {
            String[] f = row.split(",", -1);
            assertEquals("ok", f[5], row);
            Set<String> jmeterCpus = Set.of(f[9].split("[ ,]"));
            assertTrue(!f[9].isEmpty() && !f[10].isEmpty(), "both read from /proc: " + row);
            for (String cpu : f[10].split("[ ,]")) {
                assertFalse(jmeterCpus.contains(cpu), "the target's CPUs are not JMeter's: " + row);
            }
            if (f[1].equals("docker-bridge")) {
                assertEquals(f[10], f[11], "docker-proxy on the target's side: " + row);
            } else {
                assertEquals("", f[11], "no docker-proxy on bare metal: " + row);
            }
        }
        String written = Files.readString(out.resolve("experiment.yaml"));
        assertTrue(written.contains("calibration: aa") && !written.contains("bare-aa"), written);
        assertTrue(Files.isRegularFile(out.resolve("report/comparison.md")), text);
        String md = Files.readString(out.resolve("report/comparison.md"));
        assertTrue(md.contains("Calibration (A/A): bare-aa is bare run again in every round"), md);
        // 4 tests (90% and CPU per request of two environments: at a fixed rate the throughput is the schedule's and
        // not judged), adjusted by Holm: 4 vs 4 runs cannot pass 0.05 / 4
        assertTrue(md.contains("Verdicts: 4 tests of 90% and CPU per request adjusted together (Holm step-down"), md);
        assertTrue(md.contains("Throughput is not judged"), md);
        assertFalse(md.contains("NO VERDICT"), md);
        assertTrue(md.contains("## Noise floor") && md.contains("| bare-aa (bare again) | 4 + 4 |"), md);
        assertTrue(md.contains("none at this many runs"), md);
        String csv = Files.readString(out.resolve("report/comparison.csv"));
        assertTrue(csv.lines().findFirst().orElseThrow().contains("throughputAdjustedP"), csv);
    }

    /**
     * repetitions: auto on the real engine: with an interval width any 6 runs meet, the runs end after round 6 of at
     * most 9, rounds.csv says why, the run directory is complete (not partial) and the report says where it ended; a
     * --resume of it runs nothing more.
     */
    @Test
    void repetitionsAutoEndsWhenTheIntervalsAreNarrowEnough() throws Exception {
        String yaml = """
                name: auto-e2e
                target: nginx-static
                port: 18482
                environments:
                  - { name: bare, placement: bare }
                repetitions: auto
                minRepetitions: 6
                maxRepetitions: 9
                intervalWidth: 1000%
                load:
                  http: { path: /page-4k.html, threads: 1, requestsPerSecond: 100, warmupSeconds: 1, durationSeconds: 2 }
                """;
        Path out = dir.resolve("auto");
        Path console = dir.resolve("console.txt");
        int exit = Cli.run(console, 300, "run", experiment(yaml).toString(), "-o", out.toString());
        String text = Files.readString(console);
        assertEquals(0, exit, text);
        assertTrue(text.contains("auto (6 to 9, until every 95% interval of a median is within 1000% of it)"), text);
        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(6, runs.size() - 1, String.join("\n", runs));
        List<String> rounds = Files.readAllLines(out.resolve("rounds.csv"));
        assertEquals(2, rounds.size(), String.join("\n", rounds));
        assertTrue(
                rounds.get(1).startsWith("6,") && rounds.get(1).contains("stop: every 95% interval within 1000%"),
                rounds.get(1));
        assertTrue(text.contains("round 6: the runs end here: every 95% interval within 1000%"), text);
        assertFalse(Files.exists(out.resolve("PARTIAL")), text);
        assertFalse(text.contains("PARTIAL"), text);
        assertTrue(Files.isRegularFile(out.resolve("report/comparison.md")), text);
        String md = Files.readString(out.resolve("report/comparison.md"));
        assertTrue(md.contains("Repetitions (auto): 6 rounds of at most 9, as every 95% interval within 1000%"), md);
        assertTrue(Files.readString(out.resolve("experiment.yaml")).contains("repetitions: auto"));
        startedAheadAtTheGate(out, runs, 18482); // round 7's JMeter, started ahead, went without a trace

        Path again = dir.resolve("resume.txt");
        assertEquals(0, Cli.run(again, 120, "run", "--resume", out.toString()), Files.readString(again));
        assertEquals(runs, Files.readAllLines(out.resolve("runs.csv")), "nothing more ran");
    }

    /**
     * An open-model rate one thread cannot keep (100,000/s): every sample is late for its arrival, so its response time
     * from the intended start grows through the run while JMeter's own elapsed times stay those of an idle nginx; the
     * report shows both, and says the rate was not kept.
     */
    @Test
    void aRateTheGeneratorCannotKeepShowsInTheLatencyFromTheIntendedStart() throws Exception {
        String yaml = """
                name: late-e2e
                target: nginx-static
                port: 18484
                environments:
                  - { name: bare, placement: bare }
                repetitions: 1
                isolation: off
                load:
                  http: { path: /page-4k.html, threads: 1, requestsPerSecond: 100000, warmupSeconds: 1, durationSeconds: 4 }
                """;
        Path out = dir.resolve("late");
        Path console = dir.resolve("console.txt");
        int exit = Cli.run(console, 200, "run", experiment(yaml).toString(), "-o", out.toString());
        String text = Files.readString(console);
        assertEquals(0, exit, text);
        assertTrue(text.contains("RATE NOT KEPT on bare"), text);
        String header;
        try (BufferedReader r = new BufferedReader(ResultFiles.reader(out.resolve("jtl/bare-r1.jtl.gz")))) {
            header = r.readLine();
        }
        assertTrue(header.contains("envbench.intended"), header);
        assertTrue(Files.isRegularFile(out.resolve("report/comparison.md")), text);
        String md = Files.readString(out.resolve("report/comparison.md"));
        String row = md.lines()
                .dropWhile(l -> !l.startsWith("## Latency from the intended start"))
                .filter(l -> l.startsWith("| bare |"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no latency from the intended start:\n" + md));
        String[] cells = row.split("\\|");
        double jmeterP90 = Double.parseDouble(cells[3].strip());
        double intendedP90 = Double.parseDouble(cells[4].strip());
        assertTrue(intendedP90 > 100 && intendedP90 > 10 * jmeterP90, row);
    }

    @Test
    void sigtermMidRunKeepsWhatWasRecordedLeavesNothingAndResumeCompletesIt() throws Exception {
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        String passing = EXPERIMENT
                .replace("  - throughput(docker-bridge) >= 10 * throughput(bare)\n", "")
                .replace("repetitions: 4", "repetitions: 2")
                .replace(
                        "durationSeconds: 2",
                        "durationSeconds: 6"); // SIGTERM lands 1.5 s into docker-bridge r1, well before its end
        Process p = Cli.start(console, "run", experiment(passing).toString(), "-o", out.toString());
        // wait until the second run has begun, then stop it as Ctrl-C or a CI timeout would
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && !Files.exists(out.resolve("jtl/docker-bridge-r1.jtl"))) {
            Thread.sleep(100);
        }
        assertTrue(Files.exists(out.resolve("jtl/docker-bridge-r1.jtl")), Files.readString(console));
        Thread.sleep(1500);
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ended after SIGTERM: " + Files.readString(console));
        assertEquals(130, p.exitValue(), "interrupted: " + Files.readString(console));
        assertEquals(List.of(), docker.containers(), "torn down");
        String partialReport = Files.readString(out.resolve("report/index.html"));
        assertTrue(
                partialReport.contains("PARTIAL: interrupted;") && partialReport.contains("bare"),
                "a readable partial report");
        assertTrue(Files.exists(out.resolve("PARTIAL")), Files.readString(console));
        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertTrue(runs.get(1).startsWith("1,bare,1,") && runs.get(1).contains(",ok,"), String.join("\n", runs));
        assertTrue(
                runs.stream().anyMatch(l -> l.contains(",docker-bridge,1,") && l.contains(",interrupted,")),
                String.join("\n", runs));
        assertTrue(
                Files.readString(out.resolve("junit.xml")).contains("<failure message=\"the experiment is partial;"),
                "a partial run never passes");

        // a folder holding both forms (an older runner's plain file): resume reads and completes it alike
        Path bare1 = out.resolve("jtl/bare-r1.jtl");
        try (InputStream in = ResultFiles.open(ResultFiles.compressedOf(bare1))) {
            Files.copy(in, bare1);
        }
        Files.delete(ResultFiles.compressedOf(bare1));

        // the runs --resume makes need not be as long as the one SIGTERM had to land in: the run directory's
        // experiment.yaml, which --resume reads, asks 2 s
        Path recorded = out.resolve("experiment.yaml");
        String yaml = Files.readString(recorded);
        assertTrue(yaml.contains("durationSeconds: 6"), yaml);
        Files.writeString(recorded, yaml.replace("durationSeconds: 6", "durationSeconds: 2"));
        Path console2 = dir.resolve("console2.txt");
        int exit = Cli.run(console2, 300, "run", "--resume", out.toString());
        String text = Files.readString(console2);
        assertEquals(0, exit, text);
        assertFalse(Files.exists(out.resolve("PARTIAL")), text);
        List<String> after = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(
                1, after.stream().filter(l -> l.contains(",bare,1,")).count(), "the finished run was not repeated");
        for (String env : List.of("bare", "docker-bridge", "docker-host")) {
            for (int rep = 1; rep <= 2; rep++) {
                String key = "," + env + "," + rep + ",";
                assertTrue(
                        after.stream()
                                .filter(l -> l.contains(key))
                                .reduce((a, b) -> b)
                                .orElse("")
                                .contains(",ok,"),
                        key + ": " + after);
            }
        }
        assertTrue(Files.readString(out.resolve("report/index.html")).contains("docker-host"));
        assertTrue(
                Files.readString(out.resolve("report/comparison.md")).contains("| bare |"),
                "the run left plain is in the report");
        List<String> kept = keptCompressed(out);
        assertTrue(kept.contains("bare-r1.jtl.gz") && kept.contains("docker-host-r2.jtl.gz"), kept.toString());
    }

    /**
     * {@code results: compact} on the real runner and JMeter: each run's JTL ends compressed with only the columns the
     * report reads, the report and {@code envbench summary} of the compressed files count every recorded sample.
     */
    @Test
    void resultsCompactKeepsEachRunsJtlCompressedWithTheReportsColumns() throws Exception {
        String yaml = """
                name: compact-e2e
                target: nginx-static
                port: 18481
                environments:
                  - { name: bare, placement: bare }
                repetitions: 2
                results: compact
                load:
                  http: { path: /page-4k.html, threads: 2, requestsPerSecond: 200, warmupSeconds: 1, durationSeconds: 3 }
                """;
        Path out = dir.resolve("compact");
        Path console = dir.resolve("console.txt");
        int exit = Cli.run(console, 200, "run", experiment(yaml).toString(), "-o", out.toString());
        String text = Files.readString(console);
        assertEquals(0, exit, text);
        assertEquals(List.of("bare-r1.jtl.gz", "bare-r2.jtl.gz"), keptCompressed(out), text);
        Path gz = out.resolve("jtl/bare-r1.jtl.gz");
        try (BufferedReader r = new BufferedReader(ResultFiles.reader(gz))) {
            assertEquals(
                    ResultColumns.COMPACT_COLUMNS,
                    List.of(r.readLine().split(",")),
                    "JMeter's header less the columns no report reads");
        }
        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        long recorded = Long.parseLong(runs.get(1).split(",")[6]);
        assertTrue(recorded > 100, runs.toString());
        assertEquals(recorded, Jmeter.samples(gz).size(), "every sample runs.csv counted is kept");
        assertTrue(Files.readString(out.resolve("report/comparison.md")).contains("| bare |"), text);
        assertTrue(Files.readString(out.resolve("experiment.yaml")).contains("results: compact"));

        Path summary = dir.resolve("summary.txt");
        int summed = Cli.run(
                summary,
                60,
                "summary",
                gz.toString(),
                out.resolve("jtl/bare-r2.jtl.gz").toString());
        assertEquals(0, summed, Files.readString(summary));
        assertTrue(Files.readString(summary).contains("bare-r1"), Files.readString(summary));
    }

    /** The names in a run directory's jtl/, each asserted to be a whole compressed JTL (no plain or temporary file). */
    static List<String> keptCompressed(Path out) throws Exception {
        List<String> names;
        try (Stream<Path> files = Files.list(out.resolve("jtl"))) {
            names = files.map(f -> f.getFileName().toString()).sorted().toList();
        }
        for (String n : names) {
            assertTrue(n.endsWith(".jtl.gz"), "only compressed JTLs are left: " + names);
            assertFalse(ResultFiles.endsWithCutRow(out.resolve("jtl").resolve(n)), n);
        }
        return names;
    }

    @Test
    void badExperimentFilesExitTwoNamingTheFieldAndLine() throws Exception {
        String[][] cases = {
            {EXPERIMENT.replace("repetitions: 4", "repetition: 4"), "repetition", "line 14"},
            {EXPERIMENT.replace("repetitions: 4", "repetitions: four"), "repetitions", "line 14"},
            {EXPERIMENT.replace("repetitions: 4", "repetitions: 0"), "repetitions", "line 14"},
            {EXPERIMENT.replace("order: interleaved", "order: interleaved\nresults: small"), "results", "line 16"},
            {EXPERIMENT.replace("throughput(docker-bridge) >=", "throughput(docker-brige) >="), "criteria[1]", "line 27"
            },
        };
        for (String[] c : cases) {
            Path console = dir.resolve("bad.txt");
            long t0 = System.nanoTime();
            int exit = Cli.run(
                    console,
                    60,
                    "run",
                    experiment(c[0]).toString(),
                    "-o",
                    dir.resolve("never").toString());
            String text = Files.readString(console);
            assertEquals(2, exit, text);
            assertTrue(
                    text.contains(c[1]) && text.contains(c[2]),
                    "expected field " + c[1] + " and " + c[2] + ":\n" + text);
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(20), "within seconds");
            assertFalse(Files.exists(dir.resolve("never/runs.csv")), "nothing ran");
        }
    }
}
