package io.envbench.study.runner;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import io.envbench.measure.hints.GeneratorLoad;
import io.envbench.measure.stats.SampleStatistics;
import io.envbench.study.experiment.CapacitySpec;
import io.envbench.study.experiment.Objective;
import net.jcip.annotations.Immutable;

/**
 * The highest fixed rate an environment keeps: rates of the built-in HTTP load from the spec's start, doubled while
 * a step holds (every objective kept, and the rate achieved to {@link CapacitySpec#KEPT}), then bisected between the
 * last rate that held and the first that did not until they are within {@link CapacitySpec#PRECISION}. The capacity
 * is the last rate that held, with that interval: a second search on the same machine should land inside it.
 */
public final class CapacitySearch {
    /** Bisection steps at most after the first failure: from a factor of 2 to 10% takes 3. */
    static final int MAX_BISECTIONS = 6;

    private CapacitySearch() {}

    /**
     * One step's figures, after its warm-up.
     *
     * @param askedPerSec    the fixed rate asked
     * @param stats          its samples' figures (JMeter's rules)
     * @param jmeterCpuPct   JMeter's CPU over the step, one core = 100
     * @param jmeterCpus     the CPUs JMeter had to itself, 0 when it shared them with the target
     * @param broken         the objectives it did not keep, and "rate" when the rate was not achieved
     */
    @Immutable
    public record Step(
            int index,
            double askedPerSec,
            SampleStatistics stats,
            double jmeterCpuPct,
            int jmeterCpus,
            List<String> broken) {
        public Step {
            broken = List.copyOf(broken);
        }

        public double achievedPerSec() {
            return stats.throughputPerSec();
        }

        public boolean holds() {
            return broken.isEmpty();
        }

        /** JMeter used 90% or more of the CPUs it had to itself: this step measured the generator. */
        public boolean generatorBound() {
            return jmeterCpus > 0 && jmeterCpuPct / jmeterCpus >= GeneratorLoad.OWN_CPUS_SATURATED_PCT;
        }

        /** The step's figures judged against the spec. */
        static Step judge(
                CapacitySpec spec, int index, double asked, SampleStatistics s, double jmeterCpuPct, int jmeterCpus) {
            List<String> broken = new ArrayList<>();
            double achieved = s.count() == 0 ? 0 : s.throughputPerSec();
            if (!CapacitySpec.kept(achieved, asked, spec.step().minus(spec.warmup()))) {
                broken.add(String.format(
                        Locale.ROOT,
                        "rate: %.1f/s achieved of %.1f/s asked (%s)",
                        achieved,
                        asked,
                        achieved < asked
                                ? "fell behind"
                                : "caught up in bursts: the generator was behind its schedule"));
            }
            for (Objective o : spec.slo()) {
                double v = s.count() == 0 ? Double.NaN : o.figure().of(s);
                if (!o.holds(v)) {
                    broken.add(String.format(Locale.ROOT, "%s: %.2f", o.text(), v));
                }
            }
            return new Step(index, asked, s, jmeterCpuPct, jmeterCpus, broken);
        }
    }

    /** Runs one step at a rate; the search's only contact with the machine. */
    @FunctionalInterface
    public interface StepRunner {
        Step run(int index, double ratePerSec) throws IOException;
    }

    /**
     * @param steps       every step, in the order run
     * @param capacity    the last rate that held, NaN when even the first did not
     * @param firstFailed the lowest rate that did not hold, NaN when every step up to the spec's maximum held
     */
    @Immutable
    public record Result(String environment, List<Step> steps, double capacity, double firstFailed) {
        public Result {
            steps = List.copyOf(steps);
        }

        /** Whether the step that bounded the search had JMeter saturated: then the capacity found is JMeter's. */
        public boolean generatorBound() {
            return steps.stream()
                    .filter(s -> !s.holds() && s.askedPerSec() == firstFailed)
                    .anyMatch(Step::generatorBound);
        }

        /** One paragraph: the capacity, its interval, and what bounded it. */
        public String summary() {
            if (Double.isNaN(capacity)) {
                return environment + ": even the first rate ("
                        + rate(steps.get(0).askedPerSec())
                        + ") did not hold (" + String.join("; ", steps.get(0).broken())
                        + "); lower capacity.startRate";
            }
            if (Double.isNaN(firstFailed)) {
                return environment + ": capacity at least " + rate(capacity)
                        + ", every step up to capacity.maxRate held; raise maxRate to find the knee";
            }
            Step failed = steps.stream()
                    .filter(s -> s.askedPerSec() == firstFailed)
                    .findFirst()
                    .orElseThrow();
            return environment + ": capacity " + rate(capacity) + " (held; " + rate(firstFailed) + " did not: "
                    + String.join("; ", failed.broken()) + ")"
                    + (generatorBound()
                            ? ". JMeter used " + Math.round(failed.jmeterCpuPct()) + "% of its " + failed.jmeterCpus()
                                    + " CPU(s) there: this is the load generator's capacity, not the target's"
                            : "");
        }

        private static String rate(double r) {
            return String.format(Locale.ROOT, "%.0f/s", r);
        }
    }

    /**
     * Steps up from the spec's start rate, then bisects.
     *
     * @param progress hears each step as it ends
     */
    public static Result search(String environment, CapacitySpec spec, StepRunner runner, Consumer<Step> progress)
            throws IOException {
        List<Step> steps = new ArrayList<>();
        double good = Double.NaN;
        double bad = Double.NaN;
        double rate = spec.startRate();
        while (true) {
            Step s = runner.run(steps.size() + 1, rate);
            steps.add(s);
            progress.accept(s);
            if (!s.holds()) {
                bad = rate;
                break;
            }
            good = rate;
            if (rate >= spec.maxRate()) {
                break;
            }
            rate = Math.min(spec.maxRate(), rate * 2);
        }
        for (int i = 0; i < MAX_BISECTIONS && !Double.isNaN(good) && !Double.isNaN(bad); i++) {
            if ((bad - good) / good <= CapacitySpec.PRECISION) {
                break;
            }
            double mid = Math.round((good + bad) / 2);
            Step s = runner.run(steps.size() + 1, mid);
            steps.add(s);
            progress.accept(s);
            if (s.holds()) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        return new Result(environment, steps, good, bad);
    }
}
