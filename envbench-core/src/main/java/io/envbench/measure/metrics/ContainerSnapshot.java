package io.envbench.measure.metrics;

import net.jcip.annotations.Immutable;

/**
 * One reading of a container's counters (cumulative values, as the kernel keeps them). Immutable;
 * rates come from two readings ({@link ContainerRates#between}).
 *
 * @param atNanos          System.nanoTime() of the reading
 * @param cpuUsageNs       CPU time used by the container so far
 * @param systemCpuNs      the host's CPU time so far (all CPUs, /proc/stat), as Docker's stats use it
 * @param onlineCpus       CPUs of the host
 * @param cpusetCpus       CPUs the container may run on (its cpuset)
 * @param nrPeriods        CFS quota periods so far (0 without a quota)
 * @param nrThrottled      periods in which it was throttled
 * @param throttledNs      time it was throttled
 * @param memoryUsageBytes memory as Docker computes it: usage minus inactive file cache
 * @param memoryLimitBytes its limit, or -1 when unlimited
 * @param blkReadBytes     block device bytes read
 * @param blkWriteBytes    block device bytes written
 * @param netRxBytes       bytes received in its network namespace (all interfaces but lo)
 * @param netTxBytes       bytes sent
 * @param pids             processes and threads now
 * @param source           "cgroup v1", "cgroup v2" or "docker stats API"
 * @param blkAtNanos       System.nanoTime() of the reading of the block I/O counters: the cgroup files read them once a
 *                         second ({@link CgroupProbe#SLOW_FILES_NANOS}), a later snapshot carries them until the next
 */
@Immutable
public record ContainerSnapshot(
        long atNanos,
        long cpuUsageNs,
        long systemCpuNs,
        int onlineCpus,
        int cpusetCpus,
        long nrPeriods,
        long nrThrottled,
        long throttledNs,
        long memoryUsageBytes,
        long memoryLimitBytes,
        long blkReadBytes,
        long blkWriteBytes,
        long netRxBytes,
        long netTxBytes,
        long pids,
        String source,
        long blkAtNanos) {

    /** Every counter read at {@code atNanos} (the stats API, a test). */
    public ContainerSnapshot(
            long atNanos,
            long cpuUsageNs,
            long systemCpuNs,
            int onlineCpus,
            int cpusetCpus,
            long nrPeriods,
            long nrThrottled,
            long throttledNs,
            long memoryUsageBytes,
            long memoryLimitBytes,
            long blkReadBytes,
            long blkWriteBytes,
            long netRxBytes,
            long netTxBytes,
            long pids,
            String source) {
        this(
                atNanos,
                cpuUsageNs,
                systemCpuNs,
                onlineCpus,
                cpusetCpus,
                nrPeriods,
                nrThrottled,
                throttledNs,
                memoryUsageBytes,
                memoryLimitBytes,
                blkReadBytes,
                blkWriteBytes,
                netRxBytes,
                netTxBytes,
                pids,
                source,
                atNanos);
    }
}
