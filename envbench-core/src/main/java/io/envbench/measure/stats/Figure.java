package io.envbench.measure.stats;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * A figure of one environment x label that is measured once per run and compared across runs. Each follows
 * {@link SampleStatistics} (JMeter's rules); {@link #criterionName()} is the word pass/fail criteria use, e.g.
 * {@code p90(docker-bridge) <= 1.2 * p90(bare)}.
 */
public enum Figure {
    /** Samples per second: count / (last end - first start). */
    THROUGHPUT("throughput", "/s", SampleStatistics::throughputPerSec),
    MEAN("mean", "ms", SampleStatistics::meanMs),
    /** commons-math Percentile, LEGACY estimation, as JMeter's HTML report. */
    MEDIAN("median", "ms", SampleStatistics::medianMs),
    P90("p90", "ms", s -> s.percentileMs(90)),
    P95("p95", "ms", s -> s.percentileMs(95)),
    P99("p99", "ms", s -> s.percentileMs(99)),
    ERROR_PCT("errorPct", "%", SampleStatistics::errorPct);

    private final String criterionName;
    private final String unit;
    private final ToDoubleFunction<SampleStatistics> ofRun;

    Figure(String criterionName, String unit, ToDoubleFunction<SampleStatistics> ofRun) {
        this.criterionName = criterionName;
        this.unit = unit;
        this.ofRun = ofRun;
    }

    /** The word in criteria and CSV column names: throughput, mean, median, p90, p95, p99, errorPct. */
    public String criterionName() {
        return criterionName;
    }

    /** "/s", "ms" or "%". */
    public String unit() {
        return unit;
    }

    /** This figure of one run's statistics. */
    public double of(SampleStatistics run) {
        return ofRun.applyAsDouble(run);
    }

    /** After a value in text: "/s" right after the number, " ms" and " %" with a space. */
    public String suffix() {
        return unit.startsWith("/") ? unit : " " + unit;
    }

    /** The figure a criterion word names, if any. */
    public static Optional<Figure> forCriterionName(String word) {
        return Arrays.stream(values()).filter(f -> f.criterionName.equals(word)).findFirst();
    }

    /** {@code throughput, mean, median, p90, p95, p99 or errorPct}, for messages. */
    public static String choices() {
        String all = String.join(
                ", ", Arrays.stream(values()).map(Figure::criterionName).toList());
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }

    /** @throws IllegalArgumentException naming the word and the ones allowed */
    public static Figure byCriterionName(String word) {
        return Arrays.stream(values())
                .filter(f -> f.criterionName.equals(word))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("figure: '" + word + "' is not a figure; use one of "
                        + Arrays.stream(values()).map(Figure::criterionName).toList()));
    }
}
