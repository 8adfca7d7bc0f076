package io.envbench.study.cpucontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.envbench.measure.stats.ElapsedDistribution;
import org.junit.jupiter.api.Test;

/** The response times pushed by the caller: a sliding window and JMeter's Aggregate Report 90% line over it. */
class TenantReadingsTest {
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final TenantReadings readings = new TenantReadings(
            null,
            false,
            Map.of(Tenant.of("tenant-1", "c1"), -1L, Tenant.of("tenant-2", "c2"), -1L),
            Duration.ofSeconds(10),
            nanos::get);

    @Test
    void theNinetyPercentLineIsNearestRankOverTheWindow() {
        assertEquals(Optional.empty(), readings.responseTime90("tenant-1"), "no sample yet");
        for (long ms = 1; ms <= 10; ms++) {
            readings.recordResponse("tenant-1", ms);
        }
        assertEquals(
                Optional.of(Duration.ofMillis(9)), readings.responseTime90("tenant-1"), "round(10 x 0.9) = rank 9");
        for (long ms = 1; ms <= 2500; ms++) { // grows the ring past its first size
            readings.recordResponse("tenant-2", (ms * 7919) % 1000);
        }
        ElapsedDistribution d = new ElapsedDistribution();
        for (long ms = 1; ms <= 2500; ms++) {
            d.add((ms * 7919) % 1000);
        }
        assertEquals(Optional.of(Duration.ofMillis(d.nearestRank(0.9))), readings.responseTime90("tenant-2"));
    }

    @Test
    void samplesOlderThanTheWindowAreDropped() {
        for (int i = 0; i < 100; i++) {
            readings.recordResponse("tenant-1", 500);
        }
        nanos.addAndGet(Duration.ofSeconds(6).toNanos());
        for (int i = 0; i < 20; i++) {
            readings.recordResponse("tenant-1", 5);
        }
        assertEquals(Optional.of(Duration.ofMillis(500)), readings.responseTime90("tenant-1"), "both in the window");
        nanos.addAndGet(Duration.ofSeconds(5).toNanos());
        assertEquals(
                Optional.of(Duration.ofMillis(5)), readings.responseTime90("tenant-1"), "the 500 ms ones are 11 s old");
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertEquals(Optional.empty(), readings.responseTime90("tenant-1"));
    }

    @Test
    void anUnknownTenantIsNamedWithTheKnownOnes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> readings.recordResponse("tenant-9", 1));
        assertTrue(e.getMessage().startsWith("no tenant 'tenant-9'; the tenants are"), e.getMessage());
    }
}
