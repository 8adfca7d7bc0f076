package io.envbench.measure.metrics;

/**
 * A container's figures between two readings.
 *
 * @param cpuPct            Docker's formula: CPU delta / host CPU delta x online CPUs x 100 (100 = one core)
 * @param cpuPctOfCpuset    cpuPct over the CPUs of its cpuset (100 = all of them busy)
 * @param throttledPeriods  periods throttled between the readings
 * @param throttledPct      share of quota periods throttled, %
 * @param throttledMs       time throttled between the readings
 * @param memoryUsageBytes  at the second reading (usage minus inactive file)
 * @param memoryLimitBytes  -1 when unlimited
 * @param blkReadBytesPerSec  block reads (over the last second when read from cgroup files; NaN until known)
 * @param blkWriteBytesPerSec block writes
 * @param netRxBytesPerSec  received
 * @param netTxBytesPerSec  sent
 * @param pids              at the second reading
 * @param source            where the readings came from: "cgroup v1", "cgroup v2", "docker stats API" or "docker stats stream"
 */
public record ContainerRates(
        double cpuPct,
        double cpuPctOfCpuset,
        long throttledPeriods,
        double throttledPct,
        double throttledMs,
        long memoryUsageBytes,
        long memoryLimitBytes,
        double blkReadBytesPerSec,
        double blkWriteBytesPerSec,
        double netRxBytesPerSec,
        double netTxBytesPerSec,
        long pids,
        String source) {

    /** The figures between two readings whose block I/O counters were both read with them. */
    public static ContainerRates between(ContainerSnapshot a, ContainerSnapshot b) {
        return between(a, b, null);
    }

    /**
     * The figures between two readings. Block I/O counters read less often than the rest ({@link ContainerSnapshot#blkAtNanos})
     * give their rate over the span between their own readings; while they were not read again since {@code a}, the
     * rate of {@code last} (the previous figures of this container) stands, or NaN (not known yet) without one.
     */
    public static ContainerRates between(ContainerSnapshot a, ContainerSnapshot b, ContainerRates last) {
        double seconds = Math.max(1e-9, (b.atNanos() - a.atNanos()) / 1e9);
        long cpu = Math.max(0, b.cpuUsageNs() - a.cpuUsageNs());
        long system = b.systemCpuNs() - a.systemCpuNs();
        double cpuPct = system > 0 ? 100.0 * cpu / system * b.onlineCpus() : 100.0 * cpu / (seconds * 1e9);
        long periods = b.nrPeriods() - a.nrPeriods();
        long throttled = b.nrThrottled() - a.nrThrottled();
        double blkRead;
        double blkWrite;
        if (b.blkAtNanos() != a.blkAtNanos()) {
            double blkSeconds = Math.max(1e-9, (b.blkAtNanos() - a.blkAtNanos()) / 1e9);
            blkRead = rate(a.blkReadBytes(), b.blkReadBytes(), blkSeconds);
            blkWrite = rate(a.blkWriteBytes(), b.blkWriteBytes(), blkSeconds);
        } else {
            blkRead = last == null ? Double.NaN : last.blkReadBytesPerSec();
            blkWrite = last == null ? Double.NaN : last.blkWriteBytesPerSec();
        }
        return new ContainerRates(
                cpuPct,
                cpuPct / Math.max(1, b.cpusetCpus()),
                throttled,
                periods > 0 ? 100.0 * throttled / periods : 0,
                (b.throttledNs() - a.throttledNs()) / 1e6,
                b.memoryUsageBytes(),
                b.memoryLimitBytes(),
                blkRead,
                blkWrite,
                rate(a.netRxBytes(), b.netRxBytes(), seconds),
                rate(a.netTxBytes(), b.netTxBytes(), seconds),
                b.pids(),
                b.source());
    }

    private static double rate(long a, long b, double seconds) {
        return Math.max(0, b - a) / seconds;
    }
}
