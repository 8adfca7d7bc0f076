package io.envbench.measure.hints;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.Metrics;
import io.envbench.measure.metrics.MetricsFile;

/**
 * First hints from the Resource Monitor's figures: JMeter near saturation of the machine's CPUs (the
 * result then measures the load generator), {@code docker-proxy} burning CPU, CPU throttling by a quota,
 * memory near the limit. Thresholds are the constants below; each hint names the figure it came from.
 */
public final class Hints {
    /** Host CPU busy (all cores, %) from which the machine counts as saturated. */
    static final double HOST_SATURATED_PCT = 85;
    /** Share of the busy CPU time that JMeter used, from which it is the load generator that is measured. */
    static final double JMETER_SHARE = 0.30;
    /** docker-proxy CPU (% of one core) from which it is worth avoiding. */
    static final double DOCKER_PROXY_PCT = 10;
    /** % of CPU quota periods throttled from which the quota is too low. */
    static final double THROTTLED_PCT = 5;
    /** Memory use as a share of the limit from which the limit is near. */
    static final double MEMORY_NEAR_LIMIT = 0.90;

    private Hints() {}

    /**
     * @param metrics    the metrics of the environments' runs
     * @param jmeterCpus the CPUs JMeter had to itself in an environment's runs, 0 when it shared them with the target:
     *                   an isolated JMeter is judged against its own CPUs, not the machine's
     */
    public static List<Hint> of(MetricsFile metrics, ToIntFunction<String> jmeterCpus) {
        List<Hint> hints = new ArrayList<>();
        for (String env : metrics.environments()) {
            GeneratorLoad.bound(metrics, env, jmeterCpus.applyAsInt(env))
                    .ifPresent(b -> hints.add(new Hint(
                            env,
                            b.figures(),
                            b.why() + "; use fewer threads, a fixed rate, or JMeter on CPUs or a machine of its own")));
            MetricsFile.Summary proxy = metrics.summary(env, MetricName.DOCKER_PROXY_CPU);
            if (proxy.average() >= DOCKER_PROXY_PCT) {
                hints.add(new Hint(
                        env,
                        fmt("%s avg %.1f%%", MetricName.DOCKER_PROXY_CPU, proxy.average()),
                        "Docker's userland port proxy burns CPU on every connection; try host networking, or the daemon "
                                + "option userland-proxy=false (iptables NAT instead)"));
            }
            MetricsFile.Summary throttled =
                    metrics.summary(env, Metrics.containerColumns(env).throttledPct());
            if (throttled.average() >= THROTTLED_PCT) {
                hints.add(new Hint(
                        env,
                        fmt("%s avg %.1f%%", Metrics.containerColumns(env).throttledPct(), throttled.average()),
                        "the CPU quota throttled the container in " + Math.round(throttled.average())
                                + "% of its periods: the quota (cpus) is too low for this load"));
            }
            MetricsFile.Summary mem =
                    metrics.summary(env, Metrics.containerColumns(env).memBytes());
            MetricsFile.Summary limit =
                    metrics.summary(env, Metrics.containerColumns(env).memLimitBytes());
            if (limit.peak() > 0 && mem.peak() >= MEMORY_NEAR_LIMIT * limit.peak()) {
                hints.add(
                        new Hint(
                                env,
                                fmt(
                                        "%s peak %.0f MiB of a %.0f MiB limit",
                                        Metrics.containerColumns(env).memBytes(),
                                        mem.peak() / 1048576,
                                        limit.peak() / 1048576),
                                "memory reached " + Math.round(100 * mem.peak() / limit.peak())
                                        + "% of the limit: the container may swap, be slowed by reclaim or be killed; raise memory"));
            }
        }
        return hints;
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
