package io.envbench.study.runner;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

import io.envbench.measure.hints.GeneratorLoad;
import io.envbench.measure.stats.SampleStatistics;
import io.envbench.study.experiment.CapacitySpec;
import io.envbench.study.experiment.Objective;
import net.jcip.annotations.Immutable;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The highest fixed rate an environment keeps: rates of the built-in HTTP load from the spec's start, doubled while
 * a step holds (every objective kept, and the rate achieved to {@link CapacitySpec#KEPT}), then bisected between the
 * last rate that held and the first that did not until they are within {@link CapacitySpec#PRECISION}.
 *
 * <p>A knee is not a line: near it, one rate holds in one step and not in the next (a search twice on the project's
 * machine found 2,250/s and then 2,500/s, each outside the other's 10% bracket). So the ends of the bracket are tried
 * again, alternately, until each has {@link CapacitySpec#tries} tries; an end that most of its tries contradict moves
 * outward, to the next rate tried (or one {@link CapacitySpec#PRECISION} further), and is tried there. A majority, not
 * every try, decides: one outlying step (a random count of arrivals 7% short, a backlog left by an overloaded step)
 * moves nothing. The capacity is the highest rate that held in most of its tries; the interval runs from it to the
 * lowest rate that failed in most of its tries; rates in between, and each end's tally, are named. That interval
 * states what this search's tries showed, not how far the knee moves between searches: on the project's machine a
 * second search landed one step (5%) above it, the knee being the load generator's own, which drifts. So a spec may
 * ask for the whole search {@link CapacitySpec#searches} times: the capacity is then their median, and the range
 * another search is expected in comes from their spread ({@link Spread}), as a verdict's interval comes from
 * repetitions rather than from one run's samples.
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
     * @param achievedPerSec the rate it achieved: of every sample, or of the paced request's ({@code rateLabel})
     * @param jmeterCpuPct   JMeter's CPU over the step, one core = 100
     * @param jmeterCpus     the CPUs JMeter had to itself, 0 when it shared them with the target
     * @param broken         the objectives it did not keep, and "rate" when the rate was not achieved
     */
    @Immutable
    public record Step(
            int index,
            double askedPerSec,
            SampleStatistics stats,
            double achievedPerSec,
            double jmeterCpuPct,
            int jmeterCpus,
            List<String> broken) {
        public Step {
            broken = List.copyOf(broken);
        }

        public boolean holds() {
            return broken.isEmpty();
        }

        /** JMeter used 90% or more of the CPUs it had to itself: this step measured the generator. */
        public boolean generatorBound() {
            return jmeterCpus > 0 && jmeterCpuPct / jmeterCpus >= GeneratorLoad.OWN_CPUS_SATURATED_PCT;
        }

        /** The step's figures judged against the spec, every sample counted for the rate. */
        static Step judge(
                CapacitySpec spec, int index, double asked, SampleStatistics s, double jmeterCpuPct, int jmeterCpus) {
            return judge(spec, index, asked, s, s, jmeterCpuPct, jmeterCpus);
        }

        /**
         * The step's figures judged against the spec: the objectives on every sample, the rate on {@code paced}'s (the
         * samples of {@link CapacitySpec#rateLabel()}, or all).
         */
        static Step judge(
                CapacitySpec spec,
                int index,
                double asked,
                SampleStatistics s,
                SampleStatistics paced,
                double jmeterCpuPct,
                int jmeterCpus) {
            List<String> broken = new ArrayList<>();
            boolean unlabelled = spec.ratedByLabel() && paced.count() == 0 && s.count() > 0;
            if (unlabelled) {
                broken.add("rate: no sample labelled '" + spec.rateLabel() + "' (capacity.rateLabel): name the request"
                        + " the plan's timer paces");
            }
            double achieved = paced.count() == 0 ? 0 : paced.throughputPerSec();
            if (!unlabelled && !CapacitySpec.kept(achieved, asked, spec.step().minus(spec.warmup()))) {
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
            return new Step(index, asked, s, achieved, jmeterCpuPct, jmeterCpus, broken);
        }
    }

    /** Runs one step at a rate; the search's only contact with the machine. */
    @FunctionalInterface
    public interface StepRunner {
        Step run(int index, double ratePerSec) throws IOException;
    }

    /**
     * @param steps       every step, in the order run
     * @param capacity    the highest rate that held in most of its tries, NaN when none did
     * @param firstFailed the lowest rate above it that failed in most of its tries, NaN when every step up to the
     *                    spec's maximum held
     */
    @Immutable
    public record Result(
            String environment, List<Step> steps, double capacity, double firstFailed, List<Result> searches) {
        public Result {
            steps = List.copyOf(steps);
            searches = List.copyOf(searches);
        }

        /** One search's result. */
        public Result(String environment, List<Step> steps, double capacity, double firstFailed) {
            this(environment, steps, capacity, firstFailed, List.of());
        }

        /**
         * Where another search on this machine is expected, from the spread of this result's searches (two or more,
         * each with a knee found): empty for a single search, or when a search found no knee.
         */
        public Optional<Spread> spread() {
            if (searches.size() < 2
                    || searches.stream().anyMatch(r -> Double.isNaN(r.capacity()) || Double.isNaN(r.firstFailed()))) {
                return Optional.empty();
            }
            return Optional.of(Spread.of(searches));
        }

        /** Whether a step that failed at the interval's top end had JMeter saturated: then the capacity is JMeter's. */
        public boolean generatorBound() {
            return steps.stream()
                    .filter(s -> !s.holds() && s.askedPerSec() == firstFailed)
                    .anyMatch(Step::generatorBound);
        }

        /** The rates between the capacity and the first failure, each with how often it held and was tried. */
        public List<Tally> between() {
            Map<Double, Tally> byRate = tallies(steps);
            return byRate.values().stream()
                    .filter(t -> t.rate() > capacity && (Double.isNaN(firstFailed) || t.rate() < firstFailed))
                    .toList();
        }

        /** How often a rate was tried and held. */
        public Tally tally(double rate) {
            return tallies(steps).getOrDefault(rate, new Tally(rate, 0, 0));
        }

        /** One paragraph: the capacity, its interval, and what bounded it. */
        public String summary() {
            if (!searches.isEmpty()) {
                return repeatedSummary();
            }
            if (Double.isNaN(capacity) && steps.get(0).holds()) {
                return environment + ": no rate held in most of its tries ("
                        + rate(steps.get(0).askedPerSec())
                        + " held " + tally(steps.get(0).askedPerSec()).held() + " of "
                        + tally(steps.get(0).askedPerSec()).tried() + "); lower capacity.startRate";
            }
            if (Double.isNaN(capacity)) {
                Step first = steps.get(0);
                return environment + ": even the first rate (" + rate(first.askedPerSec()) + ") did not hold ("
                        + String.join("; ", first.broken()) + "); lower capacity.startRate";
            }
            if (Double.isNaN(firstFailed) && steps.stream().allMatch(Step::holds)) {
                return environment + ": capacity at least " + rate(capacity)
                        + ", every step up to capacity.maxRate held; raise maxRate to find the knee";
            }
            if (Double.isNaN(firstFailed)) {
                List<String> tied = between().stream()
                        .map(t -> rate(t.rate()) + " held " + t.held() + " of " + t.tried())
                        .toList();
                return environment + ": capacity " + rate(capacity) + " (held in most of its tries); no rate above"
                        + " it failed in most of its tries"
                        + (tied.isEmpty() ? "" : " (" + String.join(", ", tied) + ")")
                        + ": raise capacity.maxRate if the search stopped there; else the knee is not sharp here, give"
                        + " capacity.tries or stepSeconds more";
            }
            Step failed = steps.stream()
                    .filter(s -> s.askedPerSec() == firstFailed && !s.holds())
                    .reduce((a, b) -> b)
                    .orElseThrow();
            Tally held = tally(capacity);
            Tally top = tally(firstFailed);
            StringBuilder b = new StringBuilder(environment + ": capacity " + rate(capacity) + " (held"
                    + times(held.held(), held.tried()) + "; " + rate(firstFailed) + " did not"
                    + times(top.tried() - top.held(), top.tried()) + ": " + String.join("; ", failed.broken()) + ")");
            List<Tally> between = between();
            if (!between.isEmpty()) {
                b.append("; between them ")
                        .append(String.join(
                                ", ",
                                between.stream()
                                        .map(t -> rate(t.rate()) + " held " + t.held() + " of " + t.tried())
                                        .toList()));
            }
            if (held.tried() > 1 || top.tried() > 1) {
                b.append(". The knee lies in ")
                        .append(rate(capacity))
                        .append(" to ")
                        .append(rate(firstFailed))
                        .append(" in this search's tries; the knee itself can move between searches (capacity.searches:"
                                + " 3 states how far on this machine)");
            }
            if (generatorBound()) {
                b.append(". JMeter used ")
                        .append(Math.round(failed.jmeterCpuPct()))
                        .append("% of its ")
                        .append(failed.jmeterCpus())
                        .append(" CPU(s) there: this is the load generator's capacity, not the target's");
            }
            return b.toString();
        }

        private String repeatedSummary() {
            List<String> each = searches.stream()
                    .map(r -> Double.isNaN(r.capacity()) ? "none" : rate(r.capacity()))
                    .toList();
            Optional<Spread> spread = spread();
            if (spread.isEmpty()) {
                return environment + ": " + searches.size() + " searches (" + String.join(", ", each)
                        + "), not every one found a knee, so no range is stated; each search: "
                        + String.join(
                                " | ", searches.stream().map(Result::summary).toList());
            }
            Spread sp = spread.get();
            StringBuilder b = new StringBuilder(environment + ": capacity " + rate(capacity) + ", the median of "
                    + searches.size() + " searches (" + String.join(", ", each) + "); another search here is expected"
                    + " between " + rate(sp.lowPerSec()) + " and " + rate(sp.highPerSec())
                    + " (95% prediction interval from their spread, Student's t with " + (searches.size() - 1)
                    + " degree" + (searches.size() == 2 ? "" : "s") + " of freedom, at least from the lowest"
                    + " capacity to the highest rate a search saw fail)");
            if (searches.stream().anyMatch(Result::generatorBound)) {
                b.append(". In ")
                        .append(searches.stream().filter(Result::generatorBound).count())
                        .append(" of them JMeter was saturated at the knee: this is the load generator's capacity,"
                                + " not the target's");
            }
            return b.toString();
        }

        private static String times(int n, int tries) {
            return tries == 1 ? "" : " in " + n + " of " + tries + " tries";
        }

        private static String rate(double r) {
            return String.format(Locale.ROOT, "%.0f/s", r);
        }
    }

    /**
     * How far the capacity moves between whole searches on one machine: a 95% prediction interval for one more
     * search's capacity (Student's t on the searches' capacities), widened to run at least from their lowest capacity
     * to the highest rate one of them saw fail. The widening covers searches that all landed on one rate (no spread,
     * yet the next may land a step up). A search's own interval says only what its tries showed; the knee itself
     * drifts between searches (on the project's machine a second search landed one step above the first's), which
     * only repeated searches can show.
     *
     * @param capacitiesPerSec each search's capacity, in the order made
     */
    @Immutable
    public record Spread(
            List<Double> capacitiesPerSec, double meanPerSec, double sdPerSec, double lowPerSec, double highPerSec) {
        public Spread {
            capacitiesPerSec = List.copyOf(capacitiesPerSec);
        }

        /** Whether {@code ratePerSec} (another search's capacity) lies in the interval. */
        public boolean contains(double ratePerSec) {
            return ratePerSec >= lowPerSec && ratePerSec <= highPerSec;
        }

        static Spread of(List<Result> searches) {
            double[] caps = searches.stream().mapToDouble(Result::capacity).toArray();
            int n = caps.length;
            double mean = Arrays.stream(caps).average().orElseThrow();
            double ss = 0;
            for (double c : caps) {
                ss += (c - mean) * (c - mean);
            }
            double sd = Math.sqrt(ss / (n - 1));
            double t = new TDistribution(n - 1).inverseCumulativeProbability(0.975);
            double half = t * sd * Math.sqrt(1 + 1.0 / n);
            double lowest = Arrays.stream(caps).min().orElseThrow();
            double topFailed =
                    searches.stream().mapToDouble(Result::firstFailed).max().orElseThrow();
            return new Spread(
                    Arrays.stream(caps).boxed().toList(),
                    mean,
                    sd,
                    Math.max(0, Math.min(mean - half, lowest)),
                    Math.max(mean + half, topFailed));
        }
    }

    /** How often one rate was tried, and how often it held. */
    @Immutable
    public record Tally(double rate, int held, int tried) {
        /** Held in more than half its tries. */
        public boolean mostlyHeld() {
            return held * 2 > tried;
        }

        /** Failed in more than half its tries. */
        public boolean mostlyFailed() {
            return (tried - held) * 2 > tried;
        }

        /** Whether more tries, up to {@code tries} in all, could no longer turn the majority. */
        boolean decided(int tries) {
            int n = Math.max(tried, tries);
            return held * 2 > n || (tried - held) * 2 > n;
        }
    }

    private static Map<Double, Tally> tallies(List<Step> steps) {
        Map<Double, Tally> byRate = new TreeMap<>();
        for (Step s : steps) {
            Tally t = byRate.getOrDefault(s.askedPerSec(), new Tally(s.askedPerSec(), 0, 0));
            byRate.put(s.askedPerSec(), new Tally(t.rate(), t.held() + (s.holds() ? 1 : 0), t.tried() + 1));
        }
        return byRate;
    }

    /**
     * Steps up from the spec's start rate, then bisects.
     *
     * @param progress hears each step as it ends
     */
    public static Result search(String environment, CapacitySpec spec, StepRunner runner, Consumer<Step> progress)
            throws IOException {
        if (spec.searches() == 1) {
            return searchOnce(environment, spec, runner, progress);
        }
        List<Result> searches = new ArrayList<>();
        List<Step> all = new ArrayList<>();
        for (int i = 0; i < spec.searches(); i++) {
            int before = all.size(); // steps are numbered across searches: each has its own files
            Result r = searchOnce(environment, spec, (index, rate) -> runner.run(before + index, rate), progress);
            searches.add(r);
            all.addAll(r.steps());
        }
        // the median search (the lower of the two middle ones for an even count: the cautious capacity)
        List<Result> byCapacity = searches.stream()
                .sorted(Comparator.comparingDouble(
                        r -> Double.isNaN(r.capacity()) ? Double.NEGATIVE_INFINITY : r.capacity()))
                .toList();
        Result median = byCapacity.get((byCapacity.size() - 1) / 2);
        return new Result(environment, all, median.capacity(), median.firstFailed(), searches);
    }

    /** Which search (1, 2, ...) of a repeated result each step belongs to: 1 for all steps of a single search. */
    public static int searchOf(Result r, Step step) {
        for (int i = 0; i < r.searches().size(); i++) {
            if (r.searches().get(i).steps().contains(step)) {
                return i + 1;
            }
        }
        return 1;
    }

    private static Result searchOnce(String environment, CapacitySpec spec, StepRunner runner, Consumer<Step> progress)
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
        if (Double.isNaN(good) || Double.isNaN(bad) || spec.tries() == 1) {
            return new Result(environment, steps, good, bad);
        }
        return confirm(environment, spec, runner, progress, steps, good, bad);
    }

    /**
     * Tries each end of the bracket, the end with fewer tries first, until each has {@code tries} of them and most of
     * its tries agree with its side: the low end held in most, the high end failed in most. An end that most of its
     * tries contradict moves outward, to the next rate already tried on that side (or one precision step further), and
     * is tried there. A single outlying step moves nothing. Stops, with what it has, after {@link #maxConfirmations}
     * steps.
     */
    private static Result confirm(
            String environment,
            CapacitySpec spec,
            StepRunner runner,
            Consumer<Step> progress,
            List<Step> steps,
            double good,
            double bad)
            throws IOException {
        double low = good;
        double high = bad;
        int run = 0;
        // each move goes one way, by at least one rate: a bound on moves is only a guard
        for (int moves = 0; run < maxConfirmations(spec.tries()) && moves < 100; moves++) {
            Map<Double, Tally> t = tallies(steps);
            Tally l = t.getOrDefault(low, new Tally(low, 0, 0));
            Tally h = t.getOrDefault(high, new Tally(high, 0, 0));
            boolean lowDecided = l.decided(spec.tries());
            boolean highDecided = h.decided(spec.tries());
            if (lowDecided && !l.mostlyHeld()) { // the low end failed: it is the lowest known top now
                high = low;
                low = lowerEnd(t, low, spec);
                if (Double.isNaN(low)) {
                    break;
                }
                continue;
            }
            if (highDecided && h.mostlyHeld()) { // the top held: the capacity is at least there
                low = high;
                high = upperEnd(t, high, spec);
                if (Double.isNaN(high)) {
                    break;
                }
                continue;
            }
            if (lowDecided && highDecided) {
                break;
            }
            double next = !highDecided && (lowDecided || h.tried() < l.tried()) ? high : low;
            Step s = runner.run(steps.size() + 1, next);
            steps.add(s);
            progress.accept(s);
            run++;
        }
        return settled(environment, steps);
    }

    /**
     * The result from every try, whatever the moves came to when the steps ran out: the top end the lowest rate that
     * failed in most of its tries, the capacity the highest rate below it that held in most of its.
     */
    private static Result settled(String environment, List<Step> steps) {
        Map<Double, Tally> t = tallies(steps);
        double top = t.values().stream()
                .filter(Tally::mostlyFailed)
                .mapToDouble(Tally::rate)
                .min()
                .orElse(Double.NaN);
        double capacity = t.values().stream()
                .filter(x -> x.mostlyHeld() && (Double.isNaN(top) || x.rate() < top))
                .mapToDouble(Tally::rate)
                .max()
                .orElse(Double.NaN);
        return new Result(environment, steps, capacity, top);
    }

    /** Confirming steps at most: enough for the ends to agree and move a few times, more with more tries. */
    static int maxConfirmations(int tries) {
        return 4 * tries;
    }

    /**
     * Below a low end that failed in most tries: one precision step down, or a rate already tried near it (within half
     * a step further) rather than a new one a hair away; none below half the start rate.
     */
    private static double lowerEnd(Map<Double, Tally> t, double low, CapacitySpec spec) {
        double down = Math.round(low / (1 + CapacitySpec.PRECISION));
        double near = down / (1 + CapacitySpec.PRECISION / 2);
        double moved = t.keySet().stream()
                .filter(r -> r < low && r >= near)
                .max(Double::compare)
                .orElse(down);
        return moved < low && moved >= spec.startRate() / 2 && moved > 0 ? moved : Double.NaN;
    }

    /**
     * Above a high end that held in most tries: one precision step up, or a rate already tried near it (within half a
     * step further) rather than a new one a hair away; none above maxRate.
     */
    private static double upperEnd(Map<Double, Tally> t, double high, CapacitySpec spec) {
        double up = Math.round(high * (1 + CapacitySpec.PRECISION));
        double near = up * (1 + CapacitySpec.PRECISION / 2);
        double moved = Math.min(
                spec.maxRate(),
                t.keySet().stream()
                        .filter(r -> r > high && r <= near)
                        .min(Double::compare)
                        .orElse(up));
        return moved > high ? moved : Double.NaN;
    }
}
