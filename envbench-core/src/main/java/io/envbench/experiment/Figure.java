package io.envbench.experiment;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The figures a {@link Criterion} can test, by the names criteria and {@link FigureSource} use (the same as the
 * columns of the report's {@code comparison.csv}).
 */
public enum Figure {
    THROUGHPUT("throughput", "/s"),
    MEAN("mean", " ms"),
    MEDIAN("median", " ms"),
    P90("p90", " ms"),
    P95("p95", " ms"),
    P99("p99", " ms"),
    /** Failed samples as a percentage of all samples (0 to 100). */
    ERROR_PCT("errorPct", " %");

    private final String key;
    private final String unit;

    Figure(String key, String unit) {
        this.key = key;
        this.unit = unit;
    }

    /** As written in a criterion and asked of a {@link FigureSource}: {@code p90}, {@code errorPct}, ... */
    public String key() {
        return key;
    }

    /** Appended to a value in explanations: {@code " ms"}, {@code "/s"}, {@code " %"}. */
    public String unit() {
        return unit;
    }

    public static Optional<Figure> forKey(String key) {
        return Arrays.stream(values()).filter(f -> f.key.equals(key)).findFirst();
    }

    /** {@code throughput, mean, median, p90, p95, p99 or errorPct}, for messages. */
    static String choices() {
        String all = Arrays.stream(values()).map(Figure::key).collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }
}
