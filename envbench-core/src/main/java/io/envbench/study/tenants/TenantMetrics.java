package io.envbench.study.tenants;

import java.time.Instant;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What the tenants did lately, for a controller: the host's CPU and, per tenant, its container's CPU (from the run's
 * metrics collector, cgroup files) and its requests over the last interval (from the JTL as JMeter writes it).
 * Immutable.
 *
 * @param at         when it was read
 * @param hostCpuPct the whole host's CPU, 0-100 (all CPUs = 100); NaN before the collector's second reading
 * @param tenants    by tenant name, every running tenant
 */
public record TenantMetrics(Instant at, double hostCpuPct, Map<String, Tenant> tenants) {
    public TenantMetrics {
        tenants = Map.copyOf(tenants);
    }

    /**
     * One tenant's figures.
     *
     * @param cpuPct          its container's CPU, one core = 100 (Docker's formula), the average of the collector's readings in
     *                        the window; NaN before the collector's second reading
     * @param cpusetPct       the same as a share of its cpuset's CPUs, 0-100 (a tenant pinned to 2 CPUs using both: 100)
     * @param window          the seconds the request figures cover (the time since the previous call of the supplier)
     * @param requests        requests that ended in the window
     * @param errors          of which failed
     * @param meanMs          their mean response time; empty without requests
     * @param p90Ms           their 90% line (nearest rank, as JMeter's Aggregate Report); empty without requests
     */
    public record Tenant(
            double cpuPct,
            double cpusetPct,
            double window,
            long requests,
            long errors,
            OptionalDouble meanMs,
            OptionalDouble p90Ms) {
        public double throughputPerSec() {
            return window <= 0 ? 0 : requests / window;
        }
    }
}
