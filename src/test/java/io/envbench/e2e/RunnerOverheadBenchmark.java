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
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The runner's own cost per run (run by {@code ./envbench bench}, not by the test suite): from the end of one run (its
 * environment stopped) to the first sample of the next, less that environment's own start-to-ready, which is in it.
 * The rest is the runner: the next start's bookkeeping and JMeter's JVM starting. Measured twice in one call, on the
 * same 3 x 4 interleaved experiment: with the built-in plan, whose Start Gate lets the runner start each JMeter ahead,
 * and with the same plan and properties but its gate disabled (every JMeter started once its environment is up), the
 * reference. Prints figures; asserts nothing.
 */
@Isolated
class RunnerOverheadBenchmark {
    @TempDir
    Path dir;

    @Test
    void stopToFirstSampleOfTheNextRun() throws Exception {
        Jmeter.docker();
        String builtin =
                ExperimentRunTest.EXPERIMENT.replace("  - throughput(docker-bridge) >= 10 * throughput(bare)\n", "");
        Path closed = Jmeter.builtinPlanWithoutGate(dir);
        // the same load as the built-in one: the properties the runner sets for it, given to the plan
        String withoutGate = builtin.replace(
                "  http:\n    path: /page-4k.html\n    threads: 2\n    requestsPerSecond: 0\n    rampUpSeconds: 0\n"
                        + "    warmupSeconds: 1\n    durationSeconds: 2\n",
                "  plan: " + closed + "\n  properties: { envbench.path: /page-4k.html, envbench.threads: 2, "
                        + "envbench.closed.loop: true, envbench.fixed.rate: false, envbench.rate.per.minute: 0.0, "
                        + "envbench.rampup.seconds: 0 }\n  warmupSeconds: 1\n"
                        + "  durationSeconds: 2\n");
        if (withoutGate.equals(builtin)) {
            throw new AssertionError("the experiment's load changed; this benchmark no longer knows it:\n" + builtin);
        }
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%n%-14s %-26s %22s %18s %18s%n",
                "environment",
                "JMeter",
                "stop -> next sample ms",
                "start-to-ready ms",
                "runner ms"));
        Map<String, Double> ahead = measure(builtin, "ahead", t, "started ahead (Start Gate)");
        Map<String, Double> after = measure(withoutGate, "after", t, "started after the start");
        ahead.forEach((env, ms) -> t.append(String.format(
                Locale.ROOT,
                "%-14s runner ms, ahead / after: %.0f / %.0f = %.2f%n",
                env,
                ms,
                after.get(env),
                ms / after.get(env))));
        t.append("medians over the runs but the first of each 3 x 4 interleaved experiment; runner = the rest: "
                + "bookkeeping and the JMeter JVM starting until its first sample (target <= 1000 ms)");
        System.out.println(t);
    }

    /** Runs the experiment; appends its rows and returns the runner ms per environment. */
    private Map<String, Double> measure(String yaml, String name, StringBuilder t, String how) throws Exception {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        Path out = dir.resolve(name);
        int exit = Cli.run(dir.resolve(name + "-console.txt"), 600, "run", file.toString(), "-o", out.toString());
        if (exit != 0) {
            throw new AssertionError(
                    name + ": exit " + exit + ":\n" + Files.readString(dir.resolve(name + "-console.txt")));
        }
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
        Map<String, Double> runner = new LinkedHashMap<>();
        byEnv.forEach((env, v) -> {
            double gap = median(v.stream().mapToDouble(x -> x[0]).toArray());
            double ready = median(v.stream().mapToDouble(x -> x[1]).toArray());
            runner.put(env, gap - ready);
            t.append(String.format(
                    Locale.ROOT, "%-14s %-26s %22.0f %18.0f %18.0f%n", env, how, gap, ready, gap - ready));
        });
        return runner;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
