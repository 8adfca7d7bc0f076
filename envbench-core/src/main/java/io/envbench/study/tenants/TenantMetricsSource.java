package io.envbench.study.tenants;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Supplier;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.Metrics;
import io.envbench.measure.metrics.MetricsCollector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TenantMetrics} a control reads during a run: CPU from the run's metrics collector (the host and each
 * tenant's container columns, averaged over the collector's readings since the previous call), requests from the JTL as
 * JMeter writes it, over the same time. {@link #get} from one caller at a time; the collector's thread feeds it.
 */
public final class TenantMetricsSource implements Supplier<TenantMetrics> {
    private static final Logger log = LoggerFactory.getLogger(TenantMetricsSource.class);
    private static final String HOST_CPU = MetricName.HOST_CPU.column();
    private final List<String> tenants;
    private final List<String> columns = new ArrayList<>();
    private final LiveTenantFigures requests;
    private final Clock clock;
    private Instant previous;
    /** Column -> {sum, readings} since the previous call; guarded by this. */
    private final Map<String, double[]> sums = new HashMap<>();

    private MetricsCollector.Tick latest;

    /**
     * @param tenants   the tenants' names
     * @param collector the run's metrics collector, whose readings are averaged (null: no CPU figures, NaN)
     * @param jtl       the run's JTL, as JMeter writes it (each row's {@code envbench.env} names its tenant)
     */
    public TenantMetricsSource(List<String> tenants, MetricsCollector collector, Path jtl, Clock clock) {
        this.tenants = List.copyOf(tenants);
        for (String t : this.tenants) {
            columns.add(Metrics.containerColumns(t).cpuPct());
            columns.add(Metrics.containerColumns(t).cpuCpusetPct());
        }
        columns.add(HOST_CPU);
        this.requests = new LiveTenantFigures(jtl);
        this.clock = clock;
        this.previous = Instant.now(clock);
        if (collector != null) {
            collector.addListener(this::reading);
        }
    }

    /** A reading of the collector: added to the averages of the current window. */
    synchronized void reading(MetricsCollector.Tick tick) {
        latest = tick;
        for (String c : columns) {
            double v = tick.get(c);
            if (!Double.isNaN(v)) {
                double[] s = sums.computeIfAbsent(c, k -> new double[2]);
                s[0] += v;
                s[1]++;
            }
        }
    }

    @Override
    public TenantMetrics get() {
        Instant now = Instant.now(clock);
        double window;
        synchronized (this) {
            window = Math.max(0, (now.toEpochMilli() - previous.toEpochMilli()) / 1000.0);
            previous = now;
        }
        Map<String, LiveTenantFigures.Window> drained;
        try {
            drained = requests.drain();
        } catch (IOException e) {
            log.warn("live tenant figures: {}", e.toString());
            drained = Map.of();
        }
        Map<String, Double> cpu = averages();
        Map<String, TenantMetrics.Tenant> out = new LinkedHashMap<>();
        for (String t : tenants) {
            Metrics.ContainerColumns c = Metrics.containerColumns(t);
            LiveTenantFigures.Window w = drained.get(t);
            long n = w == null ? 0 : w.requests();
            out.put(
                    t,
                    new TenantMetrics.Tenant(
                            cpu.getOrDefault(c.cpuPct(), Double.NaN),
                            cpu.getOrDefault(c.cpuCpusetPct(), Double.NaN),
                            window,
                            n,
                            w == null ? 0 : w.errors(),
                            n == 0
                                    ? OptionalDouble.empty()
                                    : OptionalDouble.of(w.elapsed().mean()),
                            n == 0
                                    ? OptionalDouble.empty()
                                    : OptionalDouble.of(w.elapsed().nearestRank(0.9))));
        }
        return new TenantMetrics(now, cpu.getOrDefault(HOST_CPU, Double.NaN), out);
    }

    /** The averages since the previous call, then a new window; without a reading in it, the latest reading's values. */
    private synchronized Map<String, Double> averages() {
        Map<String, Double> m = new HashMap<>();
        for (String c : columns) {
            double[] s = sums.get(c);
            if (s != null && s[1] > 0) {
                m.put(c, s[0] / s[1]);
            } else if (latest != null && !Double.isNaN(latest.get(c))) {
                m.put(c, latest.get(c));
            }
        }
        sums.clear();
        return m;
    }
}
