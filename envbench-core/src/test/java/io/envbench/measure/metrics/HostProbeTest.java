package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

import com.sun.management.OperatingSystemMXBean;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;

/** The real host through OSHI: invariants that hold on any machine. */
class HostProbeTest {
    @Test
    void figuresStayWithinTheirBounds() throws Exception {
        HostProbe probe = new HostProbe(ProcessHandle.current().pid(), Duration.ZERO); // processes at every reading
        long me = ProcessHandle.current().pid();
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        HostSnapshot a = probe.read(Map.of("this-jvm", me));
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long until = t0 + 500_000_000L;
        while (System.nanoTime() < until) {
            Math.sqrt(System.nanoTime()); // some CPU for this JVM
        }
        HostSnapshot b = probe.read(Map.of("this-jvm", me));
        double jvmSelf = 100.0 * (os.getProcessCpuTime() - cpu0) / (System.nanoTime() - t0); // the JVM's own count
        Map<String, Double> m = Metrics.host(a, b);
        for (String column : m.keySet()) {
            assertTrue(MetricNameTest.catalogued(column), column + " is in no MetricName or family");
        }
        double cpu = m.get("host.cpu.pct");
        assertTrue(cpu >= 0 && cpu <= 100, "host cpu " + cpu);
        for (int i = 0; i < probe.logicalCpus(); i++) {
            double core = m.get("host.cpu" + i + ".pct");
            assertTrue(core >= 0 && core <= 100, "cpu" + i + " " + core);
            double irq = m.get("host.cpu" + i + ".irq.pct");
            assertTrue(irq >= 0 && irq <= core + 1e-9, "cpu" + i + " serves interrupts " + irq + " of " + core);
        }
        assertEquals(probe.logicalCpus(), b.coreTicks().length);
        assertTrue(b.memAvailableBytes() <= b.memTotalBytes());
        assertTrue(m.get("host.mem.used.bytes") > 0);
        double jvm = m.get("process.this-jvm.cpu.pct");
        // procfs counts in 10 ms clock ticks: over 500 ms, within a few ticks of the JVM's own count, however busy the
        // host
        assertEquals(jvmSelf, jvm, 8.0, "this JVM's CPU from procfs against its own count");
        assertTrue(jvm > 5 && jvm <= 100.0 * probe.logicalCpus() + 5, "this JVM burnt CPU: " + jvm);
        assertTrue(m.get("process.this-jvm.rss.bytes") > 10 << 20);
        m.forEach((k, v) -> assertTrue(v >= 0, k + " = " + v));
    }

    /** Hard and soft interrupt time, per core and in total: what a NIC's receive processing costs, and where. */
    @Test
    void interruptTimeIsCountedPerCoreAndInTotal() {
        // OSHI's tick order: user, nice, system, idle, iowait, irq, softirq, steal
        long[][] before = {{1000, 0, 200, 5000, 0, 10, 20, 0}, {1000, 0, 200, 5000, 0, 0, 0, 0}};
        long[][] after = {{1050, 0, 210, 5030, 0, 14, 26, 0}, {1000, 0, 200, 5100, 0, 0, 0, 0}};
        Map<String, Double> m = Metrics.host(snapshot(0, before), snapshot(1_000_000_000L, after));
        assertEquals(70.0, m.get("host.cpu0.pct"), 1e-9, "user 50 + system 10 + irq 4 + softirq 6 of 100");
        assertEquals(10.0, m.get("host.cpu0.irq.pct"), 1e-9);
        assertEquals(0.0, m.get("host.cpu1.irq.pct"), 1e-9);
        assertEquals(5.0, m.get("host.cpu.irq.pct"), 1e-9, "10 of the machine's 200 ticks");
        assertEquals(35.0, m.get("host.cpu.pct"), 1e-9);
    }

    private static HostSnapshot snapshot(long atNanos, long[][] cores) {
        long[] total = new long[cores[0].length];
        for (long[] core : cores) {
            for (int i = 0; i < total.length; i++) {
                total[i] += core[i];
            }
        }
        return new HostSnapshot(
                atNanos, total, cores, new double[] {0, 0, 0}, 1, 1, 0, 0, Map.of(), Map.of(), Map.of(), atNanos);
    }

    @Test
    void processesAreReadAgainOnlyAfterTheirIntervalAndTheFiguresBetweenCarryNone() throws Exception {
        HostProbe probe = new HostProbe(ProcessHandle.current().pid(), Duration.ofSeconds(2));
        long me = ProcessHandle.current().pid();
        HostSnapshot a = probe.read(Map.of("this-jvm", me));
        Thread.sleep(100);
        HostSnapshot b = probe.read(Map.of("this-jvm", me));
        assertEquals(
                a.processesAtNanos(),
                b.processesAtNanos(),
                "not read again within 2 s (a pause of 2 s between the reads would fail this)");
        Map<String, Double> between = Metrics.host(a, b);
        assertTrue(between.containsKey("host.cpu.pct"));
        assertTrue(
                between.keySet().stream().noneMatch(k -> k.startsWith("process.")),
                "no process figures without a new reading: " + between.keySet());
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long until = t0 + 2_100_000_000L; // past the 2 s interval since a
        while (System.nanoTime() < until) {
            Math.sqrt(System.nanoTime()); // some CPU for this JVM
        }
        HostSnapshot c = probe.read(Map.of("this-jvm", me));
        double jvmSelf = 100.0 * (os.getProcessCpuTime() - cpu0) / (System.nanoTime() - t0);
        assertTrue(c.processesAtNanos() > b.processesAtNanos(), "read again after 2 s");
        double jvm = Metrics.host(b, c).get("process.this-jvm.cpu.pct");
        // the rate spans the two process readings (a, then c: ~2.2 s), of which ~2.1 s burnt: not the 100 ms between b
        // and c
        assertTrue(
                jvm > 5 && jvm < jvmSelf * 1.6 + 8,
                "the rate over the span between the two process readings: " + jvm
                        + " (the JVM's own count over the burn: " + jvmSelf + ")");
    }

    /**
     * A target's tree carries its storage writes: this JVM (its own tree here) writes 16 MiB to a file on disk and syncs
     * it, and the rate over the two readings accounts for at least that (study 000's (docs/studies.md#study-000)
     * database write rate).
     */
    @Test
    void aTreesStorageWritesAreCounted() throws Exception {
        // a failure under CI=true (Linux: procfs is there), a skip only on a machine without procfs
        DockerRequired.require(ProcFs.available(), "procfs", "/proc/diskstats and /proc/net/dev are not readable");
        HostProbe probe = new HostProbe(ProcessHandle.current().pid(), Duration.ZERO);
        long me = ProcessHandle.current().pid();
        Path file = Files.createTempFile(Path.of("target"), "io-", ".bin"); // on disk, not tmpfs
        try {
            HostSnapshot a = probe.read(Map.of("this-jvm", me));
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ByteBuffer mib = ByteBuffer.allocate(1 << 20);
                for (int i = 0; i < 16; i++) {
                    mib.clear();
                    ch.write(mib);
                }
                ch.force(true);
            }
            HostSnapshot b = probe.read(Map.of("this-jvm", me));
            Map<String, Double> m = Metrics.host(a, b);
            double seconds = (b.processesAtNanos() - a.processesAtNanos()) / 1e9;
            double written = m.get("process.this-jvm.io.write.bytesPerSec") * seconds;
            System.out.printf(
                    "16 MiB written and synced: %.1f MiB counted over %.3f s%n", written / (1 << 20), seconds);
            assertTrue(written >= 16 * (1 << 20) * 0.99, "write_bytes of the tree: " + written);
            assertTrue(m.get("process.this-jvm.io.read.bytesPerSec") >= 0);
            assertTrue(
                    m.keySet().stream().noneMatch(k -> k.startsWith("process.jmeter.io.")),
                    "only targets' trees carry I/O: " + m.keySet());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
