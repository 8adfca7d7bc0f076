package io.envbench.study.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import io.envbench.measure.metrics.MetricsCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a control reads: each tenant's CPU averaged over the collector's readings of the window, its requests from the JTL. */
class TenantMetricsSourceTest {
    /** A clock the test moves. */
    static final class Steps extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    static MetricsCollector.Tick tick(double host, double t1, double t2) {
        return new MetricsCollector.Tick(
                0,
                "tenant-1,tenant-2",
                Map.of(
                        "host.cpu.pct",
                        host,
                        "container.tenant-1.cpu.pct",
                        t1,
                        "container.tenant-1.cpu.cpuset.pct",
                        t1 / 2,
                        "container.tenant-2.cpu.pct",
                        t2));
    }

    @Test
    void cpuIsTheWindowsAverageAndRequestsAreTheWindows(@TempDir Path dir) throws Exception {
        Steps clock = new Steps();
        Path jtl = dir.resolve("r.jtl");
        TenantMetricsSource source = new TenantMetricsSource(List.of("tenant-1", "tenant-2"), null, jtl, clock);
        TenantMetrics none = source.get();
        assertTrue(Double.isNaN(none.hostCpuPct()), "no reading yet");
        assertTrue(Double.isNaN(none.tenants().get("tenant-1").cpuPct()));

        source.reading(tick(40, 100, 10));
        source.reading(tick(60, 200, 30));
        Files.writeString(
                jtl,
                LiveTenantFiguresTest.HEADER
                        + LiveTenantFiguresTest.row(10, true, "tenant-1")
                        + LiveTenantFiguresTest.row(30, false, "tenant-1"));
        clock.now = clock.now.plus(Duration.ofSeconds(4));
        TenantMetrics m = source.get();
        assertEquals(50.0, m.hostCpuPct());
        TenantMetrics.Tenant t1 = m.tenants().get("tenant-1");
        assertEquals(150.0, t1.cpuPct());
        assertEquals(75.0, t1.cpusetPct());
        assertEquals(4.0, t1.window());
        assertEquals(2, t1.requests());
        assertEquals(1, t1.errors());
        assertEquals(0.5, t1.throughputPerSec());
        assertEquals(20.0, t1.meanMs().orElseThrow());
        assertEquals(30.0, t1.p90Ms().orElseThrow(), "nearest rank of 2: the second");
        TenantMetrics.Tenant t2 = m.tenants().get("tenant-2");
        assertEquals(20.0, t2.cpuPct());
        assertTrue(Double.isNaN(t2.cpusetPct()), "a column the collector did not have");
        assertEquals(0, t2.requests());
        assertTrue(t2.meanMs().isEmpty());

        clock.now = clock.now.plus(Duration.ofSeconds(1));
        TenantMetrics quiet = source.get();
        assertEquals(200.0, quiet.tenants().get("tenant-1").cpuPct(), "no reading in the window: the latest one's");
        assertEquals(0, quiet.tenants().get("tenant-1").requests(), "each request counted once");
    }
}
