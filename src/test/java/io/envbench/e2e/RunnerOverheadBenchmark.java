package io.envbench.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's own cost per run (run by {@code ./envbench bench}, not by the test suite): from the end of one
 * run (its environment stopped) to the first sample of the next, next to that environment's own
 * start-to-ready, which is in it. The rest is the runner: the next start's bookkeeping and JMeter's JVM
 * starting. Prints figures; asserts nothing.
 */
class RunnerOverheadBenchmark {
    @TempDir
    Path dir;

    @Test
    void stopToFirstSampleOfTheNextRun() throws Exception {
        Jmeter.docker();
        Path file = dir.resolve("bench.yaml");
        Files.writeString(
                file,
                ExperimentRunTest.EXPERIMENT.replace("  - throughput(docker-bridge) >= 10 * throughput(bare)\n", ""));
        Path out = dir.resolve("run");
        int exit = Cli.run(dir.resolve("console.txt"), 600, "run", file.toString(), "-o", out.toString());
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("runs.csv")).subList(1, 13)) {
            rows.add(line.split(","));
        }
        Map<String, List<double[]>> byEnv = new LinkedHashMap<>();
        for (int i = 1; i < rows.size(); i++) {
            String[] prev = rows.get(i - 1);
            String[] r = rows.get(i);
            double gapMs = Duration.between(Instant.parse(prev[4]), Instant.parse(r[8]))
                    .toMillis();
            double readyMs = Double.parseDouble(r[7]);
            byEnv.computeIfAbsent(r[1], k -> new ArrayList<>()).add(new double[] {gapMs, readyMs});
        }
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%n%-14s %22s %18s %18s%n",
                "environment",
                "stop -> next sample ms",
                "start-to-ready ms",
                "runner ms"));
        byEnv.forEach((env, v) -> {
            double gap = median(v.stream().mapToDouble(x -> x[0]).toArray());
            double ready = median(v.stream().mapToDouble(x -> x[1]).toArray());
            t.append(String.format(Locale.ROOT, "%-14s %22.0f %18.0f %18.0f%n", env, gap, ready, gap - ready));
        });
        t.append("median over the runs of a 3 x 4 interleaved experiment (exit ")
                .append(exit)
                .append("); runner = the rest: bookkeeping and the JMeter JVM starting until its first sample");
        System.out.println(t);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
