package io.envbench.measure.hints;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricsFile;

/**
 * Whether the load generator, not the target, set an environment's pace: then its throughput and latency measure
 * JMeter, and no verdict should be drawn from them. Two rules, from the runs' metrics after the warm-up:
 * <ul>
 * <li>JMeter on CPUs of its own: it used {@value #OWN_CPUS_SATURATED_PCT}% or more of them on average, or in at
 * least {@value #SATURATED_SECONDS_SHARE} of the seconds (a closed loop's generator sets the pace in every second it is
 * saturated; averaged over a run those seconds hide among others, e.g. its own JIT warm-up going on past the
 * warm-up left out, then headroom);</li>
 * <li>JMeter sharing the CPUs with the target: the machine was saturated ({@value Hints#HOST_SATURATED_PCT}% or more)
 * and JMeter used {@value Hints#JMETER_SHARE} or more of the busy CPU.</li>
 * </ul>
 */
public final class GeneratorLoad {
    /** Share of its own CPUs (one core = 100 each) from which JMeter is saturated. */
    public static final double OWN_CPUS_SATURATED_PCT = 90;
    /** Share of the seconds after the warm-up in which JMeter saturated on its own CPUs makes it the pace setter. */
    public static final double SATURATED_SECONDS_SHARE = 0.5;

    private static final Pattern PER_CORE = MetricName.Family.CORE.any("pct");

    private GeneratorLoad() {}

    /**
     * @param figures the metrics that show it, e.g. "process.jmeter.cpu.pct avg 97%"
     * @param why     what it means
     */
    public record Bound(String figures, String why) {
        /** One line: why, then the figures in parentheses. */
        public String text() {
            return why + " (" + figures + ")";
        }
    }

    /**
     * Why JMeter bounded this environment's figures, if it did.
     *
     * @param jmeterCpus the CPUs JMeter had to itself (isolated), or 0 when it shared every CPU with the target
     */
    public static Optional<Bound> bound(MetricsFile metrics, String env, int jmeterCpus) {
        MetricsFile.Summary jmeter = metrics.summary(env, MetricName.JMETER_CPU);
        if (Double.isNaN(jmeter.average())) {
            return Optional.empty();
        }
        if (jmeterCpus > 0) {
            double used = jmeter.average() / jmeterCpus;
            double saturatedShare = saturatedShare(metrics.over(env, MetricName.JMETER_CPU), jmeterCpus);
            String figures = fmt(
                    "%s avg %.0f%% of %d CPU%s, at %.0f%% or more in %.0f%% of the seconds",
                    MetricName.JMETER_CPU,
                    jmeter.average(),
                    jmeterCpus,
                    jmeterCpus == 1 ? "" : "s",
                    OWN_CPUS_SATURATED_PCT,
                    100 * saturatedShare);
            if (used >= OWN_CPUS_SATURATED_PCT) {
                return Optional.of(new Bound(
                        figures,
                        fmt(
                                "JMeter used %.0f%% of the CPUs it had to itself: the load generator, not the target,"
                                        + " set the pace",
                                used)));
            }
            return saturatedShare >= SATURATED_SECONDS_SHARE
                    ? Optional.of(new Bound(
                            figures,
                            fmt(
                                    "JMeter was saturated on the CPUs it had to itself in %.0f%% of the seconds after"
                                            + " the warm-up: in those the load generator, not the target, set the pace",
                                    100 * saturatedShare)))
                    : Optional.empty();
        }
        MetricsFile.Summary host = metrics.summary(env, MetricName.HOST_CPU.column());
        int cores = cores(metrics, env);
        if (host.average() < Hints.HOST_SATURATED_PCT || cores == 0) {
            return Optional.empty();
        }
        double share = jmeter.average() / (host.average() * cores);
        return share >= Hints.JMETER_SHARE
                ? Optional.of(new Bound(
                        fmt(
                                "%s avg %.0f%%, %s avg %.0f%% of %d cores",
                                MetricName.HOST_CPU.column(),
                                host.average(),
                                MetricName.JMETER_CPU,
                                jmeter.average(),
                                cores),
                        "JMeter used " + Math.round(share * 100) + "% of a saturated machine's CPU: the figures"
                                + " measure the load generator as much as the target"))
                : Optional.empty();
    }

    /** The share of (time, value) points at or above {@link #OWN_CPUS_SATURATED_PCT} of {@code cpus} CPUs. */
    private static double saturatedShare(List<double[]> points, int cpus) {
        if (points.isEmpty()) {
            return 0;
        }
        long saturated = points.stream()
                .filter(p -> p[1] / cpus >= OWN_CPUS_SATURATED_PCT)
                .count();
        return (double) saturated / points.size();
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }

    /** The host's CPUs, counted from the per-core columns of the metrics. */
    static int cores(MetricsFile metrics, String env) {
        return (int) metrics.metrics(env).stream()
                .filter(m -> PER_CORE.matcher(m).matches())
                .count();
    }
}
