package io.envbench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The real host through OSHI: invariants that hold on any machine. */
class HostProbeTest {
    @Test
    void figuresStayWithinTheirBounds() throws Exception {
        HostProbe probe = new HostProbe(ProcessHandle.current().pid(), java.time.Duration.ZERO); // processes at every reading
        long me = ProcessHandle.current().pid();
        HostSnapshot a = probe.read(Map.of("this-jvm", me));
        long until = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < until) {
            Math.sqrt(System.nanoTime()); // some CPU for this JVM
        }
        HostSnapshot b = probe.read(Map.of("this-jvm", me));
        Map<String, Double> m = Metrics.host(a, b);
        double cpu = m.get("host.cpu.pct");
        assertTrue(cpu >= 0 && cpu <= 100, "host cpu " + cpu);
        for (int i = 0; i < probe.logicalCpus(); i++) {
            double core = m.get("host.cpu" + i + ".pct");
            assertTrue(core >= 0 && core <= 100, "cpu" + i + " " + core);
        }
        assertEquals(probe.logicalCpus(), b.coreTicks().length);
        assertTrue(b.memAvailableBytes() <= b.memTotalBytes());
        assertTrue(m.get("host.mem.used.bytes") > 0);
        double jvm = m.get("process.this-jvm.cpu.pct");
        assertTrue(jvm > 20 && jvm <= 100.0 * probe.logicalCpus() + 5, "this JVM burnt CPU: " + jvm);
        assertTrue(m.get("process.this-jvm.rss.bytes") > 10 << 20);
        m.forEach((k, v) -> assertTrue(v >= 0, k + " = " + v));
    }

    @Test
    void processesAreReadAgainOnlyAfterTheirIntervalAndTheFiguresBetweenCarryNone() throws Exception {
        HostProbe probe = new HostProbe(ProcessHandle.current().pid(), java.time.Duration.ofMillis(400));
        long me = ProcessHandle.current().pid();
        HostSnapshot a = probe.read(Map.of("this-jvm", me));
        Thread.sleep(100);
        HostSnapshot b = probe.read(Map.of("this-jvm", me));
        assertEquals(a.processesAtNanos(), b.processesAtNanos(), "not read again within 400 ms");
        Map<String, Double> between = Metrics.host(a, b);
        assertTrue(between.containsKey("host.cpu.pct"));
        assertTrue(between.keySet().stream().noneMatch(k -> k.startsWith("process.")), "no process figures without a new reading: " + between.keySet());
        long until = System.nanoTime() + 500_000_000L;
        while (System.nanoTime() < until) {
            Math.sqrt(System.nanoTime()); // some CPU for this JVM
        }
        HostSnapshot c = probe.read(Map.of("this-jvm", me));
        assertTrue(c.processesAtNanos() > b.processesAtNanos(), "read again after 400 ms");
        double jvm = Metrics.host(b, c).get("process.this-jvm.cpu.pct");
        assertTrue(jvm > 20, "the rate over the span between the two process readings: " + jvm);
    }
}
