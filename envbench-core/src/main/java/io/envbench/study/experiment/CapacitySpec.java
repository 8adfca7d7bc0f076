package io.envbench.study.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.stats.Figure;
import net.jcip.annotations.Immutable;

/**
 * How a capacity search goes ({@code capacity:} of an experiment file): fixed rates of the built-in HTTP load (or of a
 * plan that paces itself by the rate property; {@code rateLabel} then names the request its timer paces, the only one
 * the achieved rate counts), from
 * {@code startRate} doubled at each step while every objective and the rate itself hold (achieved at least
 * {@link #KEPT} of the rate asked), then bisected to within {@link #PRECISION}, then each end of the knee's interval
 * tried until most of its {@code tries} tries agree; each step a JMeter run of {@code stepSeconds}, its first
 * {@code warmupSeconds} left out. The whole search is made {@code searches} times, one after another, when the
 * capacity should come with how far it moves between searches. Immutable.
 */
@Immutable
public record CapacitySpec(
        List<Objective> slo,
        double startRate,
        double maxRate,
        Duration step,
        Duration warmup,
        int tries,
        int searches,
        String rateLabel) {
    /**
     * How close to the rate asked an achieved rate must be, either way, at the least: below, the generator or the
     * target fell behind; above, the generator was behind its schedule and caught up in a burst (its timer sends what is
     * late). Arrivals at random times add their own spread: see {@link #kept}.
     */
    public static final double KEPT = 0.98;

    /**
     * Whether an achieved rate kept the rate asked: within 2% of it either way, or within three standard deviations of
     * a Poisson count of requests over the window where that is wider (100/s over 6 s: 12%; 1000/s over 10 s: 3%).
     */
    public static boolean kept(double achieved, double asked, Duration window) {
        double expected = asked * window.toMillis() / 1000.0;
        double tolerance = Math.max(1 - KEPT, expected > 0 ? 3 / Math.sqrt(expected) : 1);
        return Math.abs(achieved - asked) <= tolerance * asked;
    }

    /** The search stops when the last rate that held and the first that did not are this close (relative). */
    public static final double PRECISION = 0.10;

    /** Above this, a search of many tries takes longer than anyone waits for it: 10 tries of 15 s at each end. */
    public static final int MAX_TRIES = 10;

    /** Above this, searches take longer than anyone waits for them: five of about 150 s each. */
    public static final int MAX_SEARCHES = 5;

    public static final CapacitySpec DEFAULT = new CapacitySpec(
            List.of(new Objective(Figure.ERROR_PCT, "<", 1)),
            100,
            50_000,
            Duration.ofSeconds(15),
            Duration.ofSeconds(5),
            3,
            1,
            "");

    /** As before, without confirming the interval's ends: one try each, the bisection's own; one search. */
    public CapacitySpec(List<Objective> slo, double startRate, double maxRate, Duration step, Duration warmup) {
        this(slo, startRate, maxRate, step, warmup, 1, 1, "");
    }

    /** One search, each end of its interval tried {@code tries} times. */
    public CapacitySpec(
            List<Objective> slo, double startRate, double maxRate, Duration step, Duration warmup, int tries) {
        this(slo, startRate, maxRate, step, warmup, tries, 1, "");
    }

    /** Whether the rate counts the samples of one label only (a plan's first request of an iteration). */
    public boolean ratedByLabel() {
        return !rateLabel.isEmpty();
    }

    /** The same search, made {@code n} times. */
    public CapacitySpec withSearches(int n) {
        return new CapacitySpec(slo, startRate, maxRate, step, warmup, tries, n, rateLabel);
    }

    public CapacitySpec {
        slo = List.copyOf(Objects.requireNonNull(slo, "slo"));
        Objects.requireNonNull(rateLabel, "rateLabel: empty for every sample");
        if (!(startRate > 0)) {
            throw new InvalidSettingException(
                    "startRate", startRate + " is not above 0; give requests per second, e.g. 100");
        }
        if (!(maxRate >= startRate) || Double.isInfinite(maxRate)) {
            throw new InvalidSettingException(
                    "maxRate", maxRate + " is below startRate (" + startRate + "); give a larger one, e.g. 50000");
        }
        if (maxRate > HttpLoad.MAX_REQUESTS_PER_SECOND) {
            throw new InvalidSettingException(
                    "maxRate", maxRate + " is above " + (long) HttpLoad.MAX_REQUESTS_PER_SECOND + "; give less");
        }
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(warmup, "warmup");
        if (warmup.isNegative()) {
            throw new InvalidSettingException("warmupSeconds", "is negative; give 0 or more seconds, e.g. 2");
        }
        if (step.toMillis() < 1000 || warmup.compareTo(step) >= 0) {
            throw new InvalidSettingException(
                    "stepSeconds",
                    LoadPlan.seconds(step) + " s leaves no second after the warm-up of " + LoadPlan.seconds(warmup)
                            + " s; give each step more, e.g. 10");
        }
        if (tries < 1 || tries > MAX_TRIES) {
            throw new InvalidSettingException(
                    "tries",
                    tries + " is not between 1 and " + MAX_TRIES
                            + "; give how often each end of the knee's interval is tried, e.g. 3");
        }
        if (searches < 1 || searches > MAX_SEARCHES) {
            throw new InvalidSettingException(
                    "searches",
                    searches + " is not between 1 and " + MAX_SEARCHES
                            + "; give how often the whole search is made, e.g. 3 (two or more state how far the"
                            + " capacity moves between searches)");
        }
    }
}
