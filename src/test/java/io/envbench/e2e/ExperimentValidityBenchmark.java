package io.envbench.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.stats.Figure;
import io.envbench.report.ComparisonReport;
import io.envbench.report.RunConclusion;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the experiments stand on (run by {@code ./envbench bench}, not by the test suite): how repeatable a capacity
 * search is (two searches of nginx bare metal, one after the other), and how the smallest detectable change falls
 * from 4 to 8 rounds of a fixed-rate comparison (the first 4 rounds of an 8-round run against all 8), and how the
 * comparison moves with the load generator isolated or not. Prints figures; asserts nothing.
 */
class ExperimentValidityBenchmark {
    @TempDir
    Path dir;

    static final String CAPACITY = """
            name: capacity-bench
            target: nginx-static
            port: 18485
            environments:
              - { name: bare, placement: bare }
            isolation: auto
            capacity:
              slo: ["p90 <= 20", "errorPct < 1"]
              startRate: 500
              maxRate: 20000
              stepSeconds: 8
              warmupSeconds: 3
            load:
              http: { path: /page-4k.html, threads: 16, durationSeconds: 5 }
            """;

    @Test
    void capacitySearchTwiceOnTheSameMachine() throws Exception {
        Path file = Files.writeString(dir.resolve("cap.yaml"), CAPACITY);
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%n%-8s %10s %6s %14s %16s %s%n",
                "search",
                "seconds",
                "steps",
                "capacity /s",
                "top end /s",
                ""));
        double[] first = null;
        for (int i = 1; i <= 2; i++) {
            Path out = dir.resolve("search-" + i);
            long t0 = System.nanoTime();
            Cli.run(dir.resolve("console-" + i + ".txt"), 580, "capacity", file.toString(), "-o", out.toString());
            double seconds = (System.nanoTime() - t0) / 1e9;
            String summary = Files.readString(dir.resolve("console-" + i + ".txt"))
                    .lines()
                    .filter(l -> l.startsWith("bare: capacity"))
                    .reduce((a, b) -> b)
                    .orElse("");
            // "capacity N/s (held ...; M/s did not ..." or, without a top end, "capacity N/s (held in most ...; no
            // rate"
            Matcher m = Pattern.compile("capacity (?:at least )?(\\d+)/s").matcher(summary);
            Matcher top = Pattern.compile("; (\\d+)/s did not").matcher(summary);
            double capacity = m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
            double failed = top.find() ? Double.parseDouble(top.group(1)) : Double.NaN;
            long steps = Files.readAllLines(out.resolve("capacity/bare.csv")).size() - 1L;
            String within = first == null
                    ? "(the interval the second should fall in)"
                    : capacity >= first[0] && (Double.isNaN(first[1]) || capacity < first[1])
                            ? "within the first search's interval"
                            : "OUTSIDE the first search's interval";
            t.append(String.format(
                    Locale.ROOT, "%-8d %10.0f %6d %14.0f %16.0f %s%n", i, seconds, steps, capacity, failed, within));
            if (first == null) {
                first = new double[] {capacity, failed};
            }
            t.append("  ").append(summary).append('\n');
        }
        System.out.println(t);
    }

    /**
     * The demo's comparison with JMeter isolated on its own CPU and sharing every CPU, alternately (one round of each,
     * three times over): per round, docker-bridge against bare in CPU per request and 90% line, and JMeter's own CPU.
     */
    @Test
    void isolationOnAndOffInterleaved() throws Exception {
        Jmeter.docker();
        String base = FIXED_RATE
                .replace("repetitions: 8", "repetitions: 1")
                .replace("  - { name: docker-host, placement: docker, network: host }\n", "");
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%n%-6s %-9s %-26s %-26s %-22s%n",
                "round",
                "isolation",
                "CPU/request bridge/bare",
                "90% ms bridge / bare",
                "JMeter CPU % (bare)"));
        for (int round = 1; round <= 3; round++) {
            for (String isolation : new String[] {"cpus", "off"}) {
                String yaml = base.replace("baseline: bare", "baseline: bare\nisolation: " + isolation);
                Path file = Files.writeString(dir.resolve("iso-" + isolation + ".yaml"), yaml);
                Path out = dir.resolve("iso-" + isolation + "-" + round);
                Cli.run(dir.resolve("console.txt"), 300, "run", file.toString(), "-o", out.toString());
                RunDirectory d = new RunDirectory(out);
                Experiment e = ExperimentFile.read(d.experiment(), Jmeter.ROOT.resolve("targets"));
                RunConclusion c = RunConclusion.of(d, e, d.runs().read(), true, false);
                ComparisonReport r = c.report();
                String[] bare = row(r.costRows(), "bare");
                String[] bridge = row(r.costRows(), "docker-bridge");
                double p90Bare = r.acrossRuns().medianOfRuns("bare", "TOTAL", Figure.P90);
                double p90Bridge = r.acrossRuns().medianOfRuns("docker-bridge", "TOTAL", Figure.P90);
                String jmeter = c.metrics()
                        .map(m -> String.format(
                                Locale.ROOT,
                                "%.1f",
                                m.summary("bare", MetricName.JMETER_CPU).average()))
                        .orElse("-");
                t.append(String.format(
                        Locale.ROOT,
                        "%-6d %-9s %-26s %-26s %-22s%n",
                        round,
                        isolation,
                        String.format(
                                Locale.ROOT,
                                "%.3f (%s / %s µs)",
                                Double.parseDouble(bridge[2]) / Double.parseDouble(bare[2]),
                                bridge[2],
                                bare[2]),
                        String.format(Locale.ROOT, "%.1f / %.1f", p90Bridge, p90Bare),
                        jmeter));
            }
        }
        System.out.println(t);
    }

    private static String[] row(List<String[]> rows, String env) {
        return rows.stream().filter(r -> r[0].equals(env)).findFirst().orElseThrow();
    }

    static final String FIXED_RATE = """
            name: mde-bench
            target: nginx-static
            port: 18486
            environments:
              - { name: bare, placement: bare }
              - { name: docker-bridge, placement: docker, network: bridge }
              - { name: docker-host, placement: docker, network: host }
            repetitions: 8
            baseline: bare
            load:
              http: { path: /page-4k.html, threads: 8, requestsPerSecond: 500, warmupSeconds: 2, durationSeconds: 7 }
            """;

    @Test
    void smallestDetectableChangeAtFourAndEightRounds() throws Exception {
        Jmeter.docker();
        Path file = Files.writeString(dir.resolve("mde.yaml"), FIXED_RATE);
        Path out = dir.resolve("mde");
        Cli.run(dir.resolve("console.txt"), 580, "run", file.toString(), "-o", out.toString());
        RunDirectory d = new RunDirectory(out);
        Experiment e = ExperimentFile.read(d.experiment(), Jmeter.ROOT.resolve("targets"));
        List<RunRecord> all = d.runs().read();
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT, "%n%-15s %-7s %-28s %-28s%n", "environment", "rounds", "throughput MDE", "90% MDE"));
        for (int rounds : new int[] {4, 8}) {
            List<RunRecord> some = new ArrayList<>();
            for (RunRecord r : all) {
                if (r.run().round() <= rounds) {
                    some.add(r);
                }
            }
            ComparisonReport report = RunConclusion.of(d, e, some, true, false).report();
            for (String[] row : report.noiseRows()) {
                t.append(String.format(Locale.ROOT, "%-15s %-7d %-28s %-28s%n", row[0], rounds, row[2], row[3]));
            }
        }
        System.out.println(t);
    }
}
