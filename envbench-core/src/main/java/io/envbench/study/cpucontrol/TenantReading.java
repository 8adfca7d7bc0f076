package io.envbench.study.cpucontrol;

import java.time.Duration;
import java.util.Optional;

/**
 * What a tenant did over the last control interval. Immutable.
 *
 * @param tenant         the tenant's name
 * @param cpuNs          CPU time its container used in the interval (all its processes, all CPUs)
 * @param interval       the interval's length
 * @param responseTime90 its 90% line over the recent window (nearest rank, as JMeter's Aggregate Report); empty when
 *                       no sample ended in it, or nobody reports response times
 */
public record TenantReading(String tenant, long cpuNs, Duration interval, Optional<Duration> responseTime90) {
    public TenantReading {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException(
                    "a reading of " + tenant + " over " + interval + ": the interval must be positive");
        }
        cpuNs = Math.max(0, cpuNs);
    }

    /** CPUs kept busy on average: 1.0 is one CPU all the time. */
    public double cpuCores() {
        return cpuNs / (double) interval.toNanos();
    }

    /** A reading of {@code cores} CPUs busy over {@code interval}, without a response time. */
    public static TenantReading ofCores(String tenant, double cores, Duration interval) {
        return new TenantReading(tenant, Math.round(cores * interval.toNanos()), interval, Optional.empty());
    }

    /** The same reading with a 90% line. */
    public TenantReading withResponseTime90(Duration responseTime90) {
        return new TenantReading(tenant, cpuNs, interval, Optional.of(responseTime90));
    }
}
