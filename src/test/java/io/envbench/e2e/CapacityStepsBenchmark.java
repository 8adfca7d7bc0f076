package io.envbench.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.envbench.measure.results.JtlReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A capacity search's cost between two steps (run by {@code ./envbench bench}, not by the test suite): from the last
 * answer of one step to the first request of the next, on nginx bare metal, the same search made twice in one call:
 * with the built-in plan, whose Start Gate lets each step's JMeter start while the step before ends its test, and with
 * the same plan and properties but its gate disabled (each step's JMeter started once the step before has exited), the
 * reference. Prints figures; asserts nothing.
 */
@Isolated
class CapacityStepsBenchmark {
    @TempDir
    Path dir;

    static final String FILE = """
            name: capacity-steps-bench
            target: nginx-static
            port: 18493
            environments:
              - { name: bare, placement: bare }
            capacity:
              slo: ["errorPct < 1"]
              startRate: 50
              maxRate: 400
              stepSeconds: 8
              warmupSeconds: 4
              tries: 1
              searches: 2
            load:
              http: { path: /page-4k.html, threads: 4, durationSeconds: 5 }
            """;

    @Test
    void fromOneStepToTheNext() throws Exception {
        Jmeter.docker();
        Path closed = Jmeter.builtinPlanWithoutGate(dir);
        // the same load as the built-in one: the properties a capacity step sets for it, given to the plan
        String withoutGate = FILE.replace(
                "  http: { path: /page-4k.html, threads: 4, durationSeconds: 5 }\n",
                "  plan: " + closed + "\n  properties: { envbench.path: /page-4k.html, envbench.threads: 4, "
                        + "envbench.closed.loop: false, envbench.fixed.rate: true }\n  durationSeconds: 5\n");
        if (withoutGate.equals(FILE)) {
            throw new AssertionError("the file's load changed; this benchmark no longer knows it:\n" + FILE);
        }
        double[] ahead = gaps(FILE, "ahead");
        double[] after = gaps(withoutGate, "after");
        String t = String.format(
                Locale.ROOT,
                "%n%-30s %6s %26s%n%-30s %6d %26.0f%n%-30s %6d %26.0f%n"
                        + "median gap, ahead / after: %.0f / %.0f ms = %.2f; the step's own %d s are not in it%n",
                "JMeter of each step",
                "gaps",
                "last answer -> next ms",
                "started ahead (Start Gate)",
                ahead.length,
                median(ahead),
                "started after the step before",
                after.length,
                median(after),
                median(ahead),
                median(after),
                median(ahead) / median(after),
                8);
        System.out.println(t);
    }

    /** Runs the search; the gaps between its steps, from the last answer of one to the first request of the next. */
    private double[] gaps(String yaml, String name) throws Exception {
        Path file = Files.writeString(dir.resolve(name + ".yaml"), yaml);
        Path out = dir.resolve(name);
        Path console = dir.resolve(name + "-console.txt");
        int exit = Cli.run(console, 600, "capacity", file.toString(), "-o", out.toString());
        if (exit != 0) {
            throw new AssertionError(name + ": exit " + exit + ":\n" + Files.readString(console));
        }
        int steps = Files.readAllLines(out.resolve("capacity/bare.csv")).size() - 1;
        List<Double> gaps = new ArrayList<>();
        long previousEnd = -1;
        for (int i = 1; i <= steps; i++) {
            long[] firstAndEnd = {Long.MAX_VALUE, Long.MIN_VALUE};
            JtlReader.read(out.resolve("capacity/bare-step" + i + ".jtl.gz"), s -> {
                firstAndEnd[0] = Math.min(firstAndEnd[0], s.startMs());
                firstAndEnd[1] = Math.max(firstAndEnd[1], s.startMs() + s.elapsedMs());
            });
            if (previousEnd >= 0) {
                gaps.add((double) (firstAndEnd[0] - previousEnd));
            }
            previousEnd = firstAndEnd[1];
        }
        System.out.printf(Locale.ROOT, "%s: %d steps, gaps %s ms%n", name, steps, gaps);
        return gaps.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
