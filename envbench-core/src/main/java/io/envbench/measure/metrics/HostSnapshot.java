package io.envbench.measure.metrics;

import java.util.Map;

/**
 * One reading of the host's cumulative counters (OSHI). Immutable by contract: the arrays and maps are
 * copies owned by the snapshot, not to be changed. Rates come from two readings ({@link Metrics#host}).
 *
 * @param atNanos    System.nanoTime() of the reading
 * @param cpuTicks   system CPU ticks by OSHI's {@code TickType} order (user, nice, system, idle, iowait, irq, softirq, steal)
 * @param coreTicks  the same per logical CPU
 * @param loadAverage 1, 5 and 15 minute load averages
 * @param memTotalBytes     physical memory
 * @param memAvailableBytes available memory
 * @param swapTotalBytes    swap
 * @param swapUsedBytes     swap in use
 * @param disks      disk name -> {read bytes, write bytes, busy (transfer) ms}
 * @param nets       interface -> {rx bytes, tx bytes, rx packets, tx packets}
 * @param processes  role (e.g. dockerd, docker-proxy, an environment name) -> PID -> {CPU ms (user + kernel), RSS bytes}
 * @param processesAtNanos when {@code processes} were read: they are read less often than the rest
 *                   ({@link HostProbe#PROCESSES_EVERY}), and a snapshot between two such readings carries the last one
 */
public record HostSnapshot(
        long atNanos,
        long[] cpuTicks,
        long[][] coreTicks,
        double[] loadAverage,
        long memTotalBytes,
        long memAvailableBytes,
        long swapTotalBytes,
        long swapUsedBytes,
        Map<String, long[]> disks,
        Map<String, long[]> nets,
        Map<String, Map<Integer, long[]>> processes,
        long processesAtNanos) {
    /** USER_HZ: procfs counts CPU time in 1/100 s on Linux. */
    private static final long NS_PER_PROCFS_TICK = 10_000_000L;

    /**
     * The host's CPU time so far, all CPUs (user to steal), when {@code cpuTicks} came from procfs (clock ticks of
     * 1/100 s), as Docker's stats and {@link CgroupProbe} count it.
     */
    public long systemCpuNsFromProcFs() {
        long sum = 0;
        for (long t : cpuTicks) {
            sum += t;
        }
        return sum * NS_PER_PROCFS_TICK;
    }
}
