package io.envbench.stats;

import java.util.Map;
import java.util.TreeMap;

/**
 * Exact distribution of whole-millisecond values (elapsed times), kept as value -> count, so memory
 * grows with distinct values, not with samples. Percentiles as JMeter computes them:
 * {@link #percentileLegacy} as its HTML report (commons-math {@code Percentile}, LEGACY estimation) and
 * {@link #nearestRank} as its Aggregate Report's "90% line". Not thread-safe.
 */
public final class ElapsedDistribution {
    private final TreeMap<Long, long[]> counts = new TreeMap<>();
    private long count;
    private double sum;

    public void add(long value) {
        counts.computeIfAbsent(value, v -> new long[1])[0]++;
        count++;
        sum += value;
    }

    public void addAll(ElapsedDistribution other) {
        other.counts.forEach((v, c) -> counts.computeIfAbsent(v, x -> new long[1])[0] += c[0]);
        count += other.count;
        sum += other.sum;
    }

    public long count() {
        return count;
    }

    /** Each distinct value with its count, in ascending order of value. */
    public void forEach(java.util.function.ObjLongConsumer<Long> valueAndCount) {
        counts.forEach((v, c) -> valueAndCount.accept(v, c[0]));
    }

    public int distinctValues() {
        return counts.size();
    }

    public double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    public long min() {
        return count == 0 ? 0 : counts.firstKey();
    }

    public long max() {
        return count == 0 ? 0 : counts.lastKey();
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
            return counts.firstKey();
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
        long cumulative = 0;
        for (Map.Entry<Long, long[]> e : counts.entrySet()) {
            cumulative += e.getValue()[0];
            if (cumulative >= rank) {
                return e.getKey();
            }
        }
        return max();
    }
}
