package io.envbench.measure.stats;

import io.envbench.measure.results.Sample;
import net.jcip.annotations.NotThreadSafe;

/**
 * The figures of one environment x label (or a Total): JMeter HTML report's statistics table plus
 * the Aggregate Report's 90% line. Streaming; not thread-safe.
 */
@NotThreadSafe
public final class SampleStatistics {
    private final ElapsedDistribution elapsed;
    /** Of the samples an open-model load scheduled: response times from their intended starts. */
    private final ElapsedDistribution fromIntended;

    private long errors;
    private long firstStartMs = Long.MAX_VALUE;
    private long lastEndMs = Long.MIN_VALUE;
    private long receivedBytes;
    private long sentBytes;

    public SampleStatistics() {
        this(new ElapsedDistribution(), new ElapsedDistribution());
    }

    private SampleStatistics(ElapsedDistribution elapsed, ElapsedDistribution fromIntended) {
        this.elapsed = elapsed;
        this.fromIntended = fromIntended;
    }

    /**
     * Everything the figures are computed from, as a run's {@code summary.json} keeps it: the exact distributions, the
     * error count, the first start and last end, the bytes.
     */
    public record Summary(
            ElapsedDistribution.Counts elapsed,
            ElapsedDistribution.Counts fromIntended,
            long errors,
            long firstStartMs,
            long lastEndMs,
            long receivedBytes,
            long sentBytes) {}

    public Summary summary() {
        return new Summary(
                elapsed.counts(), fromIntended.counts(), errors, firstStartMs, lastEndMs, receivedBytes, sentBytes);
    }

    /** The statistics {@link #summary()} described: every figure as the samples gave it. */
    public static SampleStatistics of(Summary s) {
        SampleStatistics out =
                new SampleStatistics(ElapsedDistribution.of(s.elapsed()), ElapsedDistribution.of(s.fromIntended()));
        out.errors = s.errors();
        out.firstStartMs = s.firstStartMs();
        out.lastEndMs = s.lastEndMs();
        out.receivedBytes = s.receivedBytes();
        out.sentBytes = s.sentBytes();
        return out;
    }

    public void add(Sample s) {
        elapsed.add(s.elapsedMs());
        if (s.intendedStartMs() >= 0) {
            fromIntended.add(s.fromIntendedMs());
        }
        if (!s.success()) {
            errors++;
        }
        firstStartMs = Math.min(firstStartMs, s.startMs());
        lastEndMs = Math.max(lastEndMs, s.startMs() + s.elapsedMs());
        receivedBytes += s.receivedBytes();
        sentBytes += s.sentBytes();
    }

    public void addAll(SampleStatistics o) {
        elapsed.addAll(o.elapsed);
        fromIntended.addAll(o.fromIntended);
        errors += o.errors;
        firstStartMs = Math.min(firstStartMs, o.firstStartMs);
        lastEndMs = Math.max(lastEndMs, o.lastEndMs);
        receivedBytes += o.receivedBytes;
        sentBytes += o.sentBytes;
    }

    public long count() {
        return elapsed.count();
    }
    /** The exact distribution of elapsed times (read only). */
    public ElapsedDistribution distribution() {
        return elapsed;
    }

    public long firstStartMs() {
        return firstStartMs;
    }

    public long lastEndMs() {
        return lastEndMs;
    }

    public double meanMs() {
        return elapsed.mean();
    }

    public double medianMs() {
        return elapsed.percentileLegacy(50);
    }

    public double percentileMs(double p) {
        return elapsed.percentileLegacy(p);
    }

    /** Whether every sample had an intended start (an open-model load, the EnvBench Arrivals Timer). */
    public boolean scheduled() {
        return count() > 0 && fromIntended.count() == count();
    }

    /**
     * A percentile (LEGACY, as {@link #percentileMs}) of the response times counted from each sample's intended start:
     * the wait for a free thread included (the coordinated-omission correction); NaN unless {@link #scheduled()}.
     */
    public double percentileFromIntendedMs(double p) {
        return scheduled() ? fromIntended.percentileLegacy(p) : Double.NaN;
    }

    public long minMs() {
        return elapsed.min();
    }

    public long maxMs() {
        return elapsed.max();
    }
    /** Aggregate Report's "90% line": nearest rank. */
    public long aggregateReport90Ms() {
        return elapsed.nearestRank(0.9);
    }

    public double errorPct() {
        return count() == 0 ? 0 : 100.0 * errors / count();
    }

    /** Seconds from the first sample's start to the last sample's end, as JMeter's report measures. */
    public double durationSec() {
        return count() == 0 ? 0 : (lastEndMs - firstStartMs) / 1000.0;
    }

    /** Samples per second: count / (last end - first start). */
    public double throughputPerSec() {
        double d = durationSec();
        return d > 0 ? count() / d : 0;
    }

    public double receivedKBytesPerSec() {
        double d = durationSec();
        return d > 0 ? receivedBytes / 1024.0 / d : 0;
    }

    public double sentKBytesPerSec() {
        double d = durationSec();
        return d > 0 ? sentBytes / 1024.0 / d : 0;
    }
}
