package io.envbench.measure.stats;

import java.util.TreeMap;
import java.util.function.ObjLongConsumer;

import net.jcip.annotations.NotThreadSafe;

/**
 * Exact distribution of whole-millisecond values (elapsed times), kept as value -> count, so memory
 * grows with distinct values, not with samples (values below 65,536 ms in a dense array, the rest in a
 * sorted map). Percentiles as JMeter computes them: {@link #percentileLegacy} as its HTML report
 * (commons-math {@code Percentile}, LEGACY estimation) and {@link #nearestRank} as its Aggregate
 * Report's "90% line". Not thread-safe.
 */
@NotThreadSafe
public final class ElapsedDistribution {
    private static final int DENSE = 1 << 16;

    private long[] dense; // made on first use: many distributions hold few values
    private final TreeMap<Long, long[]> sparse = new TreeMap<>();
    private long count;
    private double sum;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    public void add(long value) {
        add(value, 1);
    }

    private void add(long value, long n) {
        if (value >= 0 && value < DENSE) {
            if (dense == null) {
                dense = new long[DENSE];
            }
            dense[(int) value] += n;
        } else {
            sparse.computeIfAbsent(value, v -> new long[1])[0] += n;
        }
        count += n;
        sum += (double) value * n;
        min = Math.min(min, value);
        max = Math.max(max, value);
    }

    public void addAll(ElapsedDistribution other) {
        other.forEach(this::add);
    }

    public long count() {
        return count;
    }

    /** Each distinct value with its count, in ascending order of value. */
    public void forEach(ObjLongConsumer<Long> valueAndCount) {
        sparse.headMap(0L).forEach((v, c) -> valueAndCount.accept(v, c[0]));
        if (dense != null) {
            for (int v = (int) Math.max(0, min); v < DENSE && v <= max; v++) {
                if (dense[v] != 0) {
                    valueAndCount.accept((long) v, dense[v]);
                }
            }
        }
        sparse.tailMap((long) DENSE).forEach((v, c) -> valueAndCount.accept(v, c[0]));
    }

    /**
     * The distribution as its distinct values and their counts, ascending: what a run's {@code summary.json} keeps, so
     * its percentiles are the exact ones again when read back ({@link #of(Counts)}).
     *
     * @param valuesMs the distinct values, ascending
     * @param counts   how many times each occurred
     */
    public record Counts(long[] valuesMs, long[] counts) {}

    public Counts counts() {
        int n = distinctValues();
        long[] values = new long[n];
        long[] counts = new long[n];
        int[] i = {0};
        forEach((v, c) -> {
            values[i[0]] = v;
            counts[i[0]++] = c;
        });
        return new Counts(values, counts);
    }

    /** The distribution that {@link #counts()} gave. */
    public static ElapsedDistribution of(Counts c) {
        if (c.valuesMs().length != c.counts().length) {
            throw new IllegalArgumentException(
                    "values and counts differ in length: " + c.valuesMs().length + " and " + c.counts().length);
        }
        ElapsedDistribution d = new ElapsedDistribution();
        for (int i = 0; i < c.valuesMs().length; i++) {
            d.add(c.valuesMs()[i], c.counts()[i]);
        }
        return d;
    }

    public int distinctValues() {
        int[] n = {0};
        forEach((v, c) -> n[0]++);
        return n[0];
    }

    public double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    public long min() {
        return count == 0 ? 0 : min;
    }

    public long max() {
        return count == 0 ? 0 : max;
    }

    /**
     * commons-math {@code Percentile} with {@code EstimationType.LEGACY} over the sorted values:
     * pos = p (n + 1) / 100; below 1 gives the minimum, at or above n the maximum, else interpolate
     * between the values at ranks floor(pos) and floor(pos) + 1.
     *
     * @param p percentile in (0, 100]
     */
    public double percentileLegacy(double p) {
        if (count == 0) {
            return Double.NaN;
        }
        if (count == 1) {
            return min;
        }
        double pos = p * (count + 1) / 100.0;
        if (pos < 1) {
            return min();
        }
        if (pos >= count) {
            return max();
        }
        long fpos = (long) Math.floor(pos);
        double d = pos - fpos;
        double lower = valueAtRank(fpos);
        double upper = valueAtRank(fpos + 1);
        return lower + d * (upper - lower);
    }

    /**
     * JMeter's Aggregate Report percentile ({@code StatCalculator.getPercentPoint}): the smallest value
     * whose cumulative count reaches round(n x fraction).
     *
     * @param fraction e.g. 0.9 for the "90% line"
     */
    public long nearestRank(double fraction) {
        if (count == 0) {
            return 0;
        }
        if (fraction >= 1.0) {
            return max();
        }
        return valueAtRank(Math.round(count * fraction));
    }

    /** Value at 1-based rank in sorted order (rank 0 gives the minimum). */
    private long valueAtRank(long rank) {
        long[] found = {max, 0}; // value, cumulative
        boolean[] done = {false};
        forEach((v, c) -> {
            if (!done[0]) {
                found[1] += c;
                if (found[1] >= rank) {
                    found[0] = v;
                    done[0] = true;
                }
            }
        });
        return found[0];
    }
}
