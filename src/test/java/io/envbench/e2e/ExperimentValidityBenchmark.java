package io.envbench.e2e;

import java.io.IOException;
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
import org.junit.jupiter.api.parallel.Isolated;

/**
 * What the experiments stand on (run by {@code ./envbench bench}, not by the test suite): how repeatable a capacity
 * search is (three searches of nginx bare metal and the range they state, then a fourth), and how the smallest detectable change falls
 * from 4 to 8 rounds of a fixed-rate comparison (the first 4 rounds of an 8-round run against all 8), and how the
 * comparison moves with the load generator isolated or not. Prints figures; asserts nothing.
 */
@Isolated
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

    /**
     * Three whole searches in one {@code capacity} call, then a fourth on its own: whether the fourth's capacity lies
     * in the range the three stated from their spread, and in the first search's own bracket (which, on this machine,
     * a second search had left).
     */
    @Test
    void capacityRangeFromThreeSearchesAndAFourth() throws Exception {
        String once = CAPACITY.replace("warmupSeconds: 3", "warmupSeconds: 3\n  tries: 1");
        Path three = Files.writeString(dir.resolve("three.yaml"), once.replace("tries: 1", "tries: 1\n  searches: 3"));
        Path single = Files.writeString(dir.resolve("one.yaml"), once);
        StringBuilder t = new StringBuilder("\n");
        Search threeSearches = search(three, "three", 900);
        Search fourthSearch = search(single, "fourth", 580);
        String threeSummary = threeSearches.summary();
        String fourthSummary = fourthSearch.summary();
        Matcher range =
                Pattern.compile("expected between (\\d+)/s and (\\d+)/s").matcher(threeSummary);
        Matcher each = Pattern.compile("searches \\((\\d+)/s, ").matcher(threeSummary);
        Matcher fourth = Pattern.compile("capacity (?:at least )?(\\d+)/s").matcher(fourthSummary);
        double low = range.find() ? Double.parseDouble(range.group(1)) : Double.NaN;
        double high = Double.isNaN(low) ? Double.NaN : Double.parseDouble(range.group(2));
        double c4 = fourth.find() ? Double.parseDouble(fourth.group(1)) : Double.NaN;
        t.append(String.format(
                Locale.ROOT, "three searches in one call: %.0f s%n  %s%n", threeSearches.seconds(), threeSummary));
        t.append(String.format(Locale.ROOT, "a fourth search: %.0f s%n  %s%n", fourthSearch.seconds(), fourthSummary));
        t.append(String.format(
                Locale.ROOT,
                "the fourth's capacity %.0f/s is %s the range %.0f-%.0f/s stated from three searches%n",
                c4,
                c4 >= low && c4 <= high ? "INSIDE" : "OUTSIDE",
                low,
                high));
        if (each.find()) {
            t.append("(the first of the three searches found ")
                    .append(each.group(1))
                    .append("/s)\n");
        }
        System.out.println(t);
    }

    /** A capacity call's summary line and how long it took. */
    private record Search(String summary, double seconds) {}

    /** {@code envbench capacity FILE -o dir/NAME}, timed. */
    private Search search(Path file, String name, long timeoutSeconds) throws Exception {
        Path console = dir.resolve("console-" + name + ".txt");
        long t0 = System.nanoTime();
        Cli.run(
                console,
                timeoutSeconds,
                "capacity",
                file.toString(),
                "-o",
                dir.resolve(name).toString());
        return new Search(summary(console), (System.nanoTime() - t0) / 1e9);
    }

    private static String summary(Path console) throws IOException {
        return Files.readString(console)
                .lines()
                .filter(l -> l.startsWith("bare: "))
                .reduce((a, b) -> b)
                .orElse("(no summary: see " + console + ")");
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
