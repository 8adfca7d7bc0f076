package io.envbench.measure.hints;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricsFile;

/**
 * Whether the load generator, not the target, set an environment's pace: then its throughput and latency measure
 * JMeter, and no verdict should be drawn from them. Two rules, from the runs' metrics after the warm-up:
 * <ul>
 * <li>JMeter on CPUs of its own: it used {@value #OWN_CPUS_SATURATED_PCT}% or more of them;</li>
 * <li>JMeter sharing the CPUs with the target: the machine was saturated ({@value Hints#HOST_SATURATED_PCT}% or more)
 * and JMeter used {@value Hints#JMETER_SHARE} or more of the busy CPU.</li>
 * </ul>
 */
public final class GeneratorLoad {
    /** Share of its own CPUs (one core = 100 each) from which JMeter is saturated. */
    public static final double OWN_CPUS_SATURATED_PCT = 90;

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
            return used >= OWN_CPUS_SATURATED_PCT
                    ? Optional.of(new Bound(
                            fmt(
                                    "%s avg %.0f%% of %d CPU%s",
                                    MetricName.JMETER_CPU, jmeter.average(), jmeterCpus, jmeterCpus == 1 ? "" : "s"),
                            fmt(
                                    "JMeter used %.0f%% of the CPUs it had to itself: the load generator, not the target,"
                                            + " set the pace",
                                    used)))
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
