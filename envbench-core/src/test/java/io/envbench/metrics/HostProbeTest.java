package io.envbench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The real host through OSHI: invariants that hold on any machine. */
class HostProbeTest {
    @Test
    void figuresStayWithinTheirBounds() throws Exception {
        HostProbe probe = new HostProbe();
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
}
