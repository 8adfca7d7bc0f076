package io.envbench.e2e;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

import com.sun.management.ThreadMXBean;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.stats.RunStatistics;

/**
 * The collector thread's cost over repeated windows of a running collector: its CPU time (user + system, from the
 * thread MX bean) over wall time, CPU per tick and bytes allocated per tick, each window one repetition; the median
 * of the windows with its distribution-free 95% interval ({@link RunStatistics#medianCi95()}).
 */
record CollectorCost(
        RunStatistics pctOfOneCore,
        RunStatistics cpuUsPerTick,
        RunStatistics bytesPerTick,
        long ticks,
        int windows,
        Duration window) {

    /** Waits {@code warmUp} (JIT), then measures {@code windows} consecutive windows of the collector already started. */
    static CollectorCost measure(MetricsCollector c, Duration warmUp, int windows, Duration window)
            throws InterruptedException {
        return measure(c, warmUp, windows, window, t -> false);
    }

    /**
     * As {@link #measure(MetricsCollector, Duration, int, Duration)}, the CPU and allocations of the threads
     * {@code alsoCounted} picks (e.g. the stats streams' readers) added to the collector thread's.
     */
    static CollectorCost measure(
            MetricsCollector c, Duration warmUp, int windows, Duration window, Predicate<Thread> alsoCounted)
            throws InterruptedException {
        LongAdder ticks = new LongAdder();
        c.addListener(t -> ticks.increment());
        Thread.sleep(warmUp.toMillis());
        List<Thread> counted = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("envbench-metrics") || alsoCounted.test(t))
                .toList();
        if (counted.stream().noneMatch(t -> t.getName().equals("envbench-metrics"))) {
            throw new IllegalStateException("no collector thread");
        }
        long[] ids = counted.stream().mapToLong(Thread::getId).toArray();
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Double> pct = new ArrayList<>();
        List<Double> usPerTick = new ArrayList<>();
        List<Double> bytesPerTick = new ArrayList<>();
        long allTicks = 0;
        for (int w = 0; w < windows; w++) {
            long cpu0 = sum(mx.getThreadCpuTime(ids));
            long alloc0 = sum(mx.getThreadAllocatedBytes(ids));
            long ticks0 = ticks.sum();
            long wall0 = System.nanoTime();
            Thread.sleep(window.toMillis());
            long cpu = sum(mx.getThreadCpuTime(ids)) - cpu0;
            long alloc = sum(mx.getThreadAllocatedBytes(ids)) - alloc0;
            long wall = System.nanoTime() - wall0;
            long n = ticks.sum() - ticks0;
            allTicks += n;
            pct.add(100.0 * cpu / wall);
            usPerTick.add(n == 0 ? Double.NaN : cpu / 1e3 / n);
            bytesPerTick.add(n == 0 ? Double.NaN : (double) alloc / n);
        }
        return new CollectorCost(
                RunStatistics.of(pct),
                RunStatistics.of(usPerTick),
                RunStatistics.of(bytesPerTick),
                allTicks,
                windows,
                window);
    }

    /** The sum of the threads' figures; a thread that ended (-1) counts nothing. */
    private static long sum(long[] perThread) {
        long s = 0;
        for (long v : perThread) {
            s += Math.max(0, v);
        }
        return s;
    }

    private static String withInterval(RunStatistics s, String format) {
        RunStatistics.MedianInterval ci = s.medianCi95();
        return String.format(Locale.ROOT, format, s.median())
                + (ci.available()
                        ? String.format(Locale.ROOT, " [" + format + ", " + format + "]", ci.low(), ci.high())
                        : " [no interval]");
    }

    @Override
    public String toString() {
        return withInterval(pctOfOneCore, "%.3f") + "% of one core, " + withInterval(cpuUsPerTick, "%.0f")
                + " us CPU per tick, "
                + withInterval(bytesPerTick, "%.0f") + " bytes allocated per tick (medians of " + windows
                + " windows of "
                + window.toSeconds() + " s with their 95% intervals; " + ticks + " ticks)";
    }
}
