package io.envbench.tenants;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.envbench.metrics.Metrics;
import io.envbench.metrics.MetricsCollector;

/**
 * The {@link TenantMetrics} a control reads during a run: CPU from the run's metrics collector (its latest tick: the
 * host and each tenant's container columns), requests from the JTL as JMeter writes it, over the time since the
 * previous call. One caller at a time.
 */
public final class TenantMetricsSource implements Supplier<TenantMetrics> {
    private static final Logger log = LoggerFactory.getLogger(TenantMetricsSource.class);
    private final List<String> tenants;
    private final Supplier<MetricsCollector.Tick> ticks;
    private final LiveTenantFigures requests;
    private final Clock clock;
    private Instant previous;

    /**
     * @param tenants the tenants' names
     * @param ticks   the run's collector's latest tick ({@link MetricsCollector#latest})
     * @param jtl     the run's JTL, as JMeter writes it (each row's {@code envbench.env} names its tenant)
     */
    public TenantMetricsSource(List<String> tenants, Supplier<MetricsCollector.Tick> ticks, Path jtl, Clock clock) {
        this.tenants = List.copyOf(tenants);
        this.ticks = ticks;
        this.requests = new LiveTenantFigures(jtl);
        this.clock = clock;
        this.previous = Instant.now(clock);
    }

    @Override
    public synchronized TenantMetrics get() {
        Instant now = Instant.now(clock);
        double window = Math.max(0, (now.toEpochMilli() - previous.toEpochMilli()) / 1000.0);
        previous = now;
        Map<String, LiveTenantFigures.Window> drained;
        try {
            drained = requests.drain();
        } catch (IOException e) {
            log.warn("live tenant figures: {}", e.toString());
            drained = Map.of();
        }
        MetricsCollector.Tick tick = ticks.get();
        Map<String, TenantMetrics.Tenant> out = new LinkedHashMap<>();
        for (String t : tenants) {
            Metrics.ContainerColumns c = Metrics.containerColumns(t);
            LiveTenantFigures.Window w = drained.get(t);
            long n = w == null ? 0 : w.requests();
            out.put(t, new TenantMetrics.Tenant(tick == null ? Double.NaN : tick.get(c.cpuPct()), tick == null ? Double.NaN : tick.get(c.cpuCpusetPct()),
                    window, n, w == null ? 0 : w.errors(), n == 0 ? OptionalDouble.empty() : OptionalDouble.of(w.elapsed().mean()),
                    n == 0 ? OptionalDouble.empty() : OptionalDouble.of(w.elapsed().nearestRank(0.9))));
        }
        return new TenantMetrics(now, tick == null ? Double.NaN : tick.get("host.cpu.pct"), out);
    }
}
