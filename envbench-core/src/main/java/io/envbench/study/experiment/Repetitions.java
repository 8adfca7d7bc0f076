package io.envbench.study.experiment;

import java.util.Locale;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.stats.RunStatistics;
import net.jcip.annotations.Immutable;

/**
 * How many rounds an experiment runs: a fixed number, or {@code auto}: at least {@code min} and at most {@code max},
 * stopping after the first round from {@code min} on where the 95% interval of the median of every judged figure
 * (throughput and 90% of every label of every environment) is at most {@code intervalWidthPct} of that median, end to
 * end. Immutable.
 *
 * @param min              rounds always run
 * @param max              rounds at most: what is planned
 * @param intervalWidthPct the widest interval, in % of its median, that stops an automatic experiment; NaN when fixed
 */
@Immutable
public record Repetitions(int min, int max, double intervalWidthPct) {
    /** The fewest runs with a 95% interval of the median: before it, no interval can be narrow enough. */
    public static final int AUTO_MIN = RunStatistics.runsNeededForMedianInterval();

    public static final int AUTO_MAX = 20;
    /** End to end, so a median known within about +-5%. */
    public static final double AUTO_WIDTH_PCT = 10;

    public Repetitions {
        if (Double.isNaN(intervalWidthPct)) {
            Experiment.checkRepetitions(max);
            if (min != max) {
                throw new IllegalArgumentException(
                        "a fixed number of repetitions has min = max, not " + min + ", " + max);
            }
        } else {
            if (min < AUTO_MIN) {
                throw new InvalidSettingException(
                        YamlFields.MIN_REPETITIONS,
                        min + " is below " + AUTO_MIN + ", the fewest runs with a 95% interval of the median that"
                                + " repetitions: auto waits for; give at least " + AUTO_MIN);
            }
            if (max < min) {
                throw new InvalidSettingException(
                        YamlFields.MAX_REPETITIONS,
                        max + " is below minRepetitions (" + min + "); give at least " + min);
            }
            if (max > Experiment.MAX_REPETITIONS) {
                throw new InvalidSettingException(
                        YamlFields.MAX_REPETITIONS,
                        max + " is above " + Experiment.MAX_REPETITIONS + "; give the most rounds to run, at most "
                                + Experiment.MAX_REPETITIONS + " (e.g. " + AUTO_MAX + ")");
            }
            if (!(intervalWidthPct > 0)) {
                throw new InvalidSettingException(
                        YamlFields.INTERVAL_WIDTH,
                        intervalWidthPct + "% is not above 0; give the widest interval that stops the runs, e.g. "
                                + AUTO_WIDTH_PCT + "%");
            }
        }
    }

    /** Exactly {@code n} rounds. */
    public static Repetitions fixed(int n) {
        return new Repetitions(n, n, Double.NaN);
    }

    /** {@code repetitions: auto} with its defaults. */
    public static Repetitions auto() {
        return new Repetitions(AUTO_MIN, AUTO_MAX, AUTO_WIDTH_PCT);
    }

    public boolean isAuto() {
        return !Double.isNaN(intervalWidthPct);
    }

    /** The rounds planned: all of them when fixed, the most an automatic experiment may run. */
    public int planned() {
        return max;
    }

    /** For the console and reports: "4" or "auto: 6 to 20, until every interval is within 10%". */
    public String describe() {
        return isAuto()
                ? String.format(
                        Locale.ROOT,
                        "auto (%d to %d, until every 95%% interval of a median is within %s%% of it)",
                        min,
                        max,
                        number(intervalWidthPct))
                : Integer.toString(max);
    }

    /**
     * {@code intervalWidth} as written: a percentage such as {@code 10%} (the sign may be left out).
     *
     * @throws InvalidSettingException naming the field
     */
    public static double parseWidthPct(String field, String text) {
        String t = text == null ? "" : text.strip();
        String number = t.endsWith("%") ? t.substring(0, t.length() - 1).strip() : t;
        try {
            double pct = Double.parseDouble(number);
            if (!Double.isFinite(pct)) {
                throw new NumberFormatException(number);
            }
            return pct;
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(
                    field,
                    "'" + text + "' is not a percentage; give the widest 95% interval of a median, in % of it, that"
                            + " stops the runs, e.g. 10%");
        }
    }

    /** A width as the file writes it: {@code 10%}, {@code 2.5%}. */
    public static String widthText(double pct) {
        return number(pct) + "%";
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
