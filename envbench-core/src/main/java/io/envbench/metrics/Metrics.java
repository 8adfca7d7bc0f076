package io.envbench.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

import oshi.hardware.CentralProcessor.TickType;

/**
 * Turns two readings into named figures, the names being the metrics file's columns:
 * {@code host.cpu.pct}, {@code host.disk.sda.write.bytesPerSec}, {@code process.docker-proxy.cpu.pct},
 * {@code container.docker-bridge.cpu.pct}, ... CPU percentages of processes and containers count one
 * core as 100; host CPU percentages count the whole machine as 100.
 */
public final class Metrics {
    private Metrics() {
    }

    public static Map<String, Double> host(HostSnapshot a, HostSnapshot b) {
        Map<String, Double> m = new LinkedHashMap<>();
        double seconds = Math.max(1e-9, (b.atNanos() - a.atNanos()) / 1e9);
        long[] d = delta(a.cpuTicks(), b.cpuTicks());
        long total = sum(d);
        m.put("host.cpu.pct", pct(total - d[TickType.IDLE.getIndex()] - d[TickType.IOWAIT.getIndex()], total));
        m.put("host.cpu.user.pct", pct(d[TickType.USER.getIndex()] + d[TickType.NICE.getIndex()], total));
        m.put("host.cpu.system.pct", pct(d[TickType.SYSTEM.getIndex()] + d[TickType.IRQ.getIndex()] + d[TickType.SOFTIRQ.getIndex()], total));
        m.put("host.cpu.iowait.pct", pct(d[TickType.IOWAIT.getIndex()], total));
        m.put("host.cpu.steal.pct", pct(d[TickType.STEAL.getIndex()], total));
        for (int i = 0; i < b.coreTicks().length && i < a.coreTicks().length; i++) {
            long[] c = delta(a.coreTicks()[i], b.coreTicks()[i]);
            long t = sum(c);
            m.put("host.cpu" + i + ".pct", pct(t - c[TickType.IDLE.getIndex()] - c[TickType.IOWAIT.getIndex()], t));
        }
        m.put("host.load1", b.loadAverage()[0]);
        m.put("host.mem.used.bytes", (double) (b.memTotalBytes() - b.memAvailableBytes()));
        m.put("host.mem.available.bytes", (double) b.memAvailableBytes());
        m.put("host.swap.used.bytes", (double) b.swapUsedBytes());
        b.disks().forEach((name, v) -> {
            long[] p = a.disks().get(name);
            if (p != null) {
                m.put("host.disk." + name + ".read.bytesPerSec", (v[0] - p[0]) / seconds);
                m.put("host.disk." + name + ".write.bytesPerSec", (v[1] - p[1]) / seconds);
                m.put("host.disk." + name + ".busy.pct", Math.min(100, (v[2] - p[2]) / (seconds * 10)));
            }
        });
        b.nets().forEach((name, v) -> {
            long[] p = a.nets().get(name);
            if (p != null) {
                m.put("host.net." + name + ".rx.bytesPerSec", (v[0] - p[0]) / seconds);
                m.put("host.net." + name + ".tx.bytesPerSec", (v[1] - p[1]) / seconds);
                m.put("host.net." + name + ".rx.packetsPerSec", (v[2] - p[2]) / seconds);
                m.put("host.net." + name + ".tx.packetsPerSec", (v[3] - p[3]) / seconds);
            }
        });
        b.processes().forEach((name, pids) -> {
            Map<Integer, long[]> before = a.processes().getOrDefault(name, Map.of());
            long cpuMs = 0;
            long rss = 0;
            for (Map.Entry<Integer, long[]> e : pids.entrySet()) {
                long[] p = before.get(e.getKey());
                if (p != null) {
                    cpuMs += Math.max(0, e.getValue()[0] - p[0]);
                }
                rss += e.getValue()[1];
            }
            m.put("process." + name + ".cpu.pct", cpuMs / (seconds * 10));
            m.put("process." + name + ".rss.bytes", (double) rss);
        });
        return m;
    }

    public static Map<String, Double> container(String name, ContainerRates r) {
        Map<String, Double> m = new LinkedHashMap<>();
        String p = "container." + name + ".";
        m.put(p + "cpu.pct", r.cpuPct());
        m.put(p + "cpu.cpuset.pct", r.cpuPctOfCpuset());
        m.put(p + "cpu.throttled.periods", (double) r.throttledPeriods());
        m.put(p + "cpu.throttled.pct", r.throttledPct());
        m.put(p + "cpu.throttled.ms", r.throttledMs());
        m.put(p + "mem.bytes", (double) r.memoryUsageBytes());
        m.put(p + "mem.limit.bytes", (double) r.memoryLimitBytes());
        m.put(p + "blk.read.bytesPerSec", r.blkReadBytesPerSec());
        m.put(p + "blk.write.bytesPerSec", r.blkWriteBytesPerSec());
        m.put(p + "net.rx.bytesPerSec", r.netRxBytesPerSec());
        m.put(p + "net.tx.bytesPerSec", r.netTxBytesPerSec());
        m.put(p + "pids", (double) r.pids());
        return m;
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
