package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** What target.cpu.pct and target.mem.bytes sum up: one tree, or every service of a multi-service target. */
class TargetFiguresTest {
    @Test
    void aTargetOfSeveralServicesCountsEveryTierNotOnlyItsFront() {
        // nginx's container is the environment's own (its front), the app and the database host processes behind it
        Map<String, Double> values = Map.of(
                "container.nginx-bridge.cpu.pct", 3.0,
                "process.nginx-bridge/web.cpu.pct", 3.5,
                "process.nginx-bridge/app.cpu.pct", 30.0,
                "process.nginx-bridge/db.cpu.pct", 5.0,
                "process.nginx-bridge/web.rss.bytes", 20e6,
                "process.nginx-bridge/app.rss.bytes", 80e6,
                "process.nginx-bridge/db.rss.bytes", 110e6,
                // another environment's service and another figure are not summed
                "process.nginx-bridge-noproxy/app.cpu.pct", 99.0,
                "process.docker-proxy.cpu.pct", 7.0);
        Map<String, Double> target = MetricsCollector.targetFigures("nginx-bridge", values);
        assertEquals(38.5, target.get(MetricName.TARGET_CPU.column()), 1e-9);
        assertEquals(210e6, target.get(MetricName.TARGET_MEM.column()), 1e-3);
    }

    @Test
    void aTargetOfOneTreeIsItsContainerOrElseItsProcessTree() {
        assertEquals(
                12.0,
                MetricsCollector.targetFigures(
                                "docker-host",
                                Map.of("container.docker-host.cpu.pct", 12.0, "process.docker-host.cpu.pct", 11.0))
                        .get(MetricName.TARGET_CPU.column()));
        assertEquals(
                4.0,
                MetricsCollector.targetFigures("bare", Map.of("process.bare.cpu.pct", 4.0))
                        .get(MetricName.TARGET_CPU.column()));
    }
}
