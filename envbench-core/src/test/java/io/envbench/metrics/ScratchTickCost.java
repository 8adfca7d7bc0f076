package io.envbench.metrics;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScratchTickCost {
    @Test
    void hostOnly() throws Exception {
        var envs = new io.envbench.environment.EnvironmentRegistry(Path.of("/work/wt/collector/targets"), "");
        var mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        MetricsCollector c = new MetricsCollector(envs, Duration.ofMillis(100), Path.of("/tmp/scratch/m.csv"), ProcessHandle.current().pid());
        for (int i = 0; i < 3000; i++) c.tick();
        HostProbe h = new HostProbe();
        for (int round = 0; round < 3; round++) {
            long cpu0 = mx.getCurrentThreadCpuTime(), a0 = mx.getCurrentThreadAllocatedBytes();
            int n = 2000;
            for (int i = 0; i < n; i++) c.tick();
            System.out.printf("tick (no containers): %.1f us CPU, %d bytes%n", (mx.getCurrentThreadCpuTime() - cpu0) / 1e3 / n, (mx.getCurrentThreadAllocatedBytes() - a0) / n);
            cpu0 = mx.getCurrentThreadCpuTime(); a0 = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) h.read(java.util.Map.of());
            System.out.printf("host read: %.1f us CPU, %d bytes%n", (mx.getCurrentThreadCpuTime() - cpu0) / 1e3 / n, (mx.getCurrentThreadAllocatedBytes() - a0) / n);
        }
        c.close();
    }
}
