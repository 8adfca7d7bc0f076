package io.envbench.measure.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import oshi.hardware.CentralProcessor.TickType;

/**
 * Turns two readings into named figures, the names being the metrics file's columns:
 * {@code host.cpu.pct}, {@code host.disk.sda.write.bytesPerSec}, {@code process.docker-proxy.cpu.pct},
 * {@code container.docker-bridge.cpu.pct}, ... CPU percentages of processes and containers count one
 * core as 100; host CPU percentages count the whole machine as 100.
 */
public final class Metrics {
    private Metrics() {}

    public static Map<String, Double> host(HostSnapshot a, HostSnapshot b) {
        Map<String, Double> m = new LinkedHashMap<>();
        host(a, b, m);
        return m;
    }

    /** Column names built from a disk, interface, core or process name: named once, not on every tick. */
    private static final Map<String, String[]> DISK_COLUMNS = new ConcurrentHashMap<>();

    private static final Map<String, String[]> NET_COLUMNS = new ConcurrentHashMap<>();
    private static final Map<String, String[]> PROCESS_COLUMNS = new ConcurrentHashMap<>();
    private static final Map<Integer, String> CORE_COLUMNS = new ConcurrentHashMap<>();
    private static final Map<Integer, String> CORE_IRQ_COLUMNS = new ConcurrentHashMap<>();

    /**
     * Puts the host's figures between two readings into {@code m}; the processes' figures only when {@code b} read them
     * again since {@code a} ({@link HostSnapshot#processesAtNanos}), as rates over the span between those readings.
     */
    public static void host(HostSnapshot a, HostSnapshot b, Map<String, Double> m) {
        double seconds = Math.max(1e-9, (b.atNanos() - a.atNanos()) / 1e9);
        long[] d = delta(a.cpuTicks(), b.cpuTicks());
        long total = sum(d);
        m.put(
                MetricName.HOST_CPU.column(),
                pct(total - d[TickType.IDLE.getIndex()] - d[TickType.IOWAIT.getIndex()], total));
        m.put(MetricName.HOST_CPU_USER.column(), pct(d[TickType.USER.getIndex()] + d[TickType.NICE.getIndex()], total));
        m.put(
                MetricName.HOST_CPU_SYSTEM.column(),
                pct(
                        d[TickType.SYSTEM.getIndex()] + d[TickType.IRQ.getIndex()] + d[TickType.SOFTIRQ.getIndex()],
                        total));
        m.put(MetricName.HOST_CPU_IOWAIT.column(), pct(d[TickType.IOWAIT.getIndex()], total));
        m.put(MetricName.HOST_CPU_STEAL.column(), pct(d[TickType.STEAL.getIndex()], total));
        m.put(
                MetricName.HOST_CPU_IRQ.column(),
                pct(d[TickType.IRQ.getIndex()] + d[TickType.SOFTIRQ.getIndex()], total));
        for (int i = 0; i < b.coreTicks().length && i < a.coreTicks().length; i++) {
            long[] c = delta(a.coreTicks()[i], b.coreTicks()[i]);
            long t = sum(c);
            m.put(
                    CORE_COLUMNS.computeIfAbsent(i, n -> MetricName.Family.CORE.of(Integer.toString(n), "pct")),
                    pct(t - c[TickType.IDLE.getIndex()] - c[TickType.IOWAIT.getIndex()], t));
            m.put(
                    CORE_IRQ_COLUMNS.computeIfAbsent(
                            i, n -> MetricName.Family.CORE.of(Integer.toString(n), MetricName.IRQ_PCT)),
                    pct(c[TickType.IRQ.getIndex()] + c[TickType.SOFTIRQ.getIndex()], t));
        }
        m.put(MetricName.HOST_LOAD1.column(), b.loadAverage()[0]);
        m.put(MetricName.HOST_MEM_USED.column(), (double) (b.memTotalBytes() - b.memAvailableBytes()));
        m.put(MetricName.HOST_MEM_AVAILABLE.column(), (double) b.memAvailableBytes());
        m.put(MetricName.HOST_SWAP_USED.column(), (double) b.swapUsedBytes());
        b.disks().forEach((name, v) -> {
            long[] p = a.disks().get(name);
            if (p != null) {
                String[] c = DISK_COLUMNS.computeIfAbsent(name, n -> new String[] {
                    MetricName.Family.DISK.of(n, "read.bytesPerSec"),
                    MetricName.Family.DISK.of(n, "write.bytesPerSec"),
                    MetricName.Family.DISK.of(n, "busy.pct")
                });
                m.put(c[0], (v[0] - p[0]) / seconds);
                m.put(c[1], (v[1] - p[1]) / seconds);
                m.put(c[2], Math.min(100, (v[2] - p[2]) / (seconds * 10)));
            }
        });
        b.nets().forEach((name, v) -> {
            long[] p = a.nets().get(name);
            if (p != null) {
                String[] c = NET_COLUMNS.computeIfAbsent(name, n -> new String[] {
                    MetricName.Family.NET.of(n, "rx.bytesPerSec"),
                    MetricName.Family.NET.of(n, "tx.bytesPerSec"),
                    MetricName.Family.NET.of(n, "rx.packetsPerSec"),
                    MetricName.Family.NET.of(n, "tx.packetsPerSec")
                });
                m.put(c[0], (v[0] - p[0]) / seconds);
                m.put(c[1], (v[1] - p[1]) / seconds);
                m.put(c[2], (v[2] - p[2]) / seconds);
                m.put(c[3], (v[3] - p[3]) / seconds);
            }
        });
        if (b.processesAtNanos() == a.processesAtNanos()) {
            return; // the processes were not read again since: the caller keeps their last figures
        }
        double processSeconds = Math.max(1e-9, (b.processesAtNanos() - a.processesAtNanos()) / 1e9);
        b.processes().forEach((name, pids) -> {
            Map<Integer, long[]> before = a.processes().getOrDefault(name, Map.of());
            long cpuMs = 0;
            long rss = 0;
            long read = 0;
            long written = 0;
            boolean io = false;
            for (Map.Entry<Integer, long[]> e : pids.entrySet()) {
                long[] p = before.get(e.getKey());
                if (p != null) {
                    cpuMs += Math.max(0, e.getValue()[0] - p[0]);
                    if (p.length >= 4 && e.getValue().length >= 4) {
                        read += Math.max(0, e.getValue()[2] - p[2]);
                        written += Math.max(0, e.getValue()[3] - p[3]);
                        io = true;
                    }
                }
                rss += e.getValue()[1];
            }
            String[] c = PROCESS_COLUMNS.computeIfAbsent(name, n -> new String[] {
                MetricName.Family.PROCESS.of(n, MetricName.CPU_PCT),
                MetricName.Family.PROCESS.of(n, MetricName.RSS_BYTES),
                MetricName.Family.PROCESS.of(n, "io.read.bytesPerSec"),
                MetricName.Family.PROCESS.of(n, "io.write.bytesPerSec")
            });
            m.put(c[0], cpuMs / (processSeconds * 10));
            m.put(c[1], (double) rss);
            if (io) {
                m.put(c[2], read / processSeconds);
                m.put(c[3], written / processSeconds);
            }
        });
    }

    /** The metrics file's columns of one container, named once (not on every tick). */
    public record ContainerColumns(
            String pattern,
            String cpuPct,
            String cpuCpusetPct,
            String throttledPeriods,
            String throttledPct,
            String throttledMs,
            String memBytes,
            String memLimitBytes,
            String blkReadBytesPerSec,
            String blkWriteBytesPerSec,
            String netRxBytesPerSec,
            String netTxBytesPerSec,
            String pids) {
        static ContainerColumns of(String name) {
            String p = MetricName.Family.CONTAINER.prefix() + name + ".";
            return new ContainerColumns(
                    p + "*",
                    p + MetricName.CPU_PCT,
                    p + "cpu.cpuset.pct",
                    p + "cpu.throttled.periods",
                    p + MetricName.CPU_THROTTLED_PCT,
                    p + "cpu.throttled.ms",
                    p + MetricName.MEM_BYTES,
                    p + MetricName.MEM_LIMIT_BYTES,
                    p + "blk.read.bytesPerSec",
                    p + "blk.write.bytesPerSec",
                    p + "net.rx.bytesPerSec",
                    p + "net.tx.bytesPerSec",
                    p + "pids");
        }
    }

    private static final Map<String, ContainerColumns> CONTAINER_COLUMNS = new ConcurrentHashMap<>();

    /** The columns of the container of environment {@code name}. */
    public static ContainerColumns containerColumns(String name) {
        return CONTAINER_COLUMNS.computeIfAbsent(name, ContainerColumns::of);
    }

    public static Map<String, Double> container(String name, ContainerRates r) {
        Map<String, Double> m = new LinkedHashMap<>();
        container(containerColumns(name), r, m);
        return m;
    }

    /** Puts a container's figures into {@code m} under its columns. */
    public static void container(ContainerColumns c, ContainerRates r, Map<String, Double> m) {
        m.put(c.cpuPct(), r.cpuPct());
        m.put(c.cpuCpusetPct(), r.cpuPctOfCpuset());
        m.put(c.throttledPeriods(), (double) r.throttledPeriods());
        m.put(c.throttledPct(), r.throttledPct());
        m.put(c.throttledMs(), r.throttledMs());
        m.put(c.memBytes(), (double) r.memoryUsageBytes());
        m.put(c.memLimitBytes(), (double) r.memoryLimitBytes());
        m.put(c.blkReadBytesPerSec(), r.blkReadBytesPerSec());
        m.put(c.blkWriteBytesPerSec(), r.blkWriteBytesPerSec());
        m.put(c.netRxBytesPerSec(), r.netRxBytesPerSec());
        m.put(c.netTxBytesPerSec(), r.netTxBytesPerSec());
        m.put(c.pids(), (double) r.pids());
    }

    private static long[] delta(long[] a, long[] b) {
        long[] d = new long[b.length];
        for (int i = 0; i < b.length && i < a.length; i++) {
            d[i] = Math.max(0, b[i] - a[i]);
        }
        return d;
    }

    private static long sum(long[] v) {
        long s = 0;
        for (long x : v) {
            s += x;
        }
        return s;
    }

    private static double pct(long part, long total) {
        return total <= 0 ? 0 : 100.0 * part / total;
    }
}
