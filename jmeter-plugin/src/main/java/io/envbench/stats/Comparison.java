package io.envbench.stats;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Statistics per environment x label, plus a Total per environment, from one or more JTLs. */
public final class Comparison {
    public static final String TOTAL = "TOTAL";

    private final Map<String, Map<String, SampleStatistics>> byEnv = new LinkedHashMap<>();
    private final Set<String> labels = new LinkedHashSet<>();

    public static Comparison of(Iterable<Path> jtls) throws IOException {
        Comparison c = new Comparison();
        for (Path p : jtls) {
            JtlReader.read(p, c::add);
        }
        return c;
    }

    public void add(Sample s) {
        labels.add(s.label());
        Map<String, SampleStatistics> m = byEnv.computeIfAbsent(s.environment(), e -> new LinkedHashMap<>());
        m.computeIfAbsent(s.label(), l -> new SampleStatistics()).add(s);
        m.computeIfAbsent(TOTAL, l -> new SampleStatistics()).add(s);
    }

    public Set<String> environments() {
        return byEnv.keySet();
    }

    public Set<String> labels() {
        return labels;
    }

    public SampleStatistics get(String environment, String label) {
        return byEnv.getOrDefault(environment, Map.of()).get(label);
    }

    /** The table JMeter users know, environments side by side under each label. */
    public void printTable(PrintStream out) {
        String head = String.format(Locale.ROOT, "%-32s %-14s %8s %8s %8s %8s %6s %7s %7s %9s %9s",
                "label", "environment", "count", "avg ms", "median", "90% ms", "min", "max", "error%", "req/s", "KB/s");
        out.println(head);
        out.println("-".repeat(head.length()));
        Set<String> rows = new LinkedHashSet<>(labels);
        rows.add(TOTAL);
        for (String label : rows) {
            for (String env : byEnv.keySet()) {
                SampleStatistics s = get(env, label);
                if (s == null) {
                    continue;
                }
                out.println(String.format(Locale.ROOT, "%-32s %-14s %8d %8.2f %8.1f %8.1f %6d %7d %6.2f%% %9.1f %9.1f",
                        abbreviate(label, 32), abbreviate(env, 14), s.count(), s.meanMs(), s.medianMs(), s.percentileMs(90),
                        s.minMs(), s.maxMs(), s.errorPct(), s.throughputPerSec(), s.receivedKBytesPerSec()));
            }
        }
        out.println();
        out.println("avg, median and 90% follow JMeter's HTML report (mean; commons-math Percentile, LEGACY estimation);");
        out.println("req/s = count / (last sample end - first sample start); KB/s = received bytes / 1024 over the same time.");
    }

    private static String abbreviate(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "~";
    }
}
