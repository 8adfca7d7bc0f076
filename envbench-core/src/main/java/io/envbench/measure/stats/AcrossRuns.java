package io.envbench.measure.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

import net.jcip.annotations.NotThreadSafe;

/**
 * Verdicts from repetitions, benchstat's way: each run (JTL file) gives one value of a figure per environment x label;
 * an environment is compared with the baseline by the medians of its runs and the exact Mann-Whitney U test on those
 * per-run values. Samples within a run are not independent, so they never decide a verdict.
 * <p>
 * Reads its {@link Comparison} on every call: as thread-safe as that (not), and current after more samples.
 */
@NotThreadSafe
public final class AcrossRuns {
    /** The default significance level. */
    public static final double ALPHA = 0.05;
    /**
     * The figures a report judges, the ones its tables and charts compare: every other figure is described (median,
     * interval, change, raw p) but given no verdict, so that the family of tests stays the size a handful of runs can
     * carry.
     */
    public static final List<Figure> JUDGED = List.of(Figure.THROUGHPUT, Figure.P90);

    private final Comparison comparison;
    private final String baseline;
    private final double alpha;

    /** @param baseline as {@link Comparison#baseline(String)}: null or blank picks "bare", else the first environment */
    public AcrossRuns(Comparison comparison, String baseline) {
        this(comparison, baseline, ALPHA);
    }

    public AcrossRuns(Comparison comparison, String baseline, double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException(
                    "alpha: " + alpha + " is not a significance level; use one in (0, 1), e.g. 0.05");
        }
        this.comparison = comparison;
        this.baseline = comparison.baseline(baseline);
        this.alpha = alpha;
    }

    public String baseline() {
        return baseline;
    }

    public double alpha() {
        return alpha;
    }

    /**
     * A criterion's figure (an experiment's {@code FigureSource.value}): the median over the runs, empty when
     * the environment, the label or the figure has none (never ran, no such sample, NaN).
     *
     * @param criterionName a figure as criteria write it ({@link Figure#byCriterionName})
     */
    public OptionalDouble criterionFigure(String environment, String label, String criterionName) {
        try {
            double v = medianOfRuns(environment, label, Figure.byCriterionName(criterionName));
            return Double.isNaN(v) ? OptionalDouble.empty() : OptionalDouble.of(v);
        } catch (IllegalArgumentException e) {
            return OptionalDouble.empty();
        }
    }

    /**
     * The median of the per-run values of a figure: what pass/fail criteria such as {@code p90(docker-bridge) <= 1.2 *
     * p90(bare)} compare.
     *
     * @param label a label, or {@link Comparison#TOTAL}
     * @throws IllegalArgumentException for an unknown environment or label, or one without runs of that label
     */
    public double medianOfRuns(String environment, String label, Figure figure) {
        RunStatistics runs = comparison.acrossRuns(requireEnvironment(environment), requireLabel(label), figure);
        if (runs.runs() == 0) {
            throw new IllegalArgumentException("label: '" + label + "' has no samples in environment '" + environment
                    + "'; use a label it ran, or another environment");
        }
        return runs.median();
    }

    /**
     * One figure of one environment x label against the baseline.
     *
     * @throws IllegalArgumentException for an unknown environment or label
     */
    public Verdict versusBaseline(String environment, String label, Figure figure) {
        requireEnvironment(environment);
        requireLabel(label);
        return Verdict.of(
                environment,
                label,
                figure,
                baseline,
                comparison.acrossRuns(environment, label, figure),
                comparison.acrossRuns(baseline, label, figure),
                alpha);
    }

    /** One figure of every label (then TOTAL) x environment that has runs of that label, in the report's order. */
    public List<Verdict> verdicts(Figure figure) {
        List<Verdict> out = new ArrayList<>();
        for (String label : comparison.rows()) {
            for (String env : comparison.environments()) {
                Verdict v = versusBaseline(env, label, figure);
                if (v.runs().runs() > 0) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    /**
     * The verdicts of the given figures for every label (then TOTAL) x environment that has runs of it, judged
     * together: what one report states. With one label, TOTAL holds the same samples: it is not tested twice (look
     * it up with {@link #judgedRow}).
     */
    public VerdictFamily family(List<Figure> figures, Correction correction) {
        return family(figures, correction, Set.of());
    }

    /** As {@link #family(List, Correction)}, without verdicts on the environments the load generator bounded. */
    public VerdictFamily family(List<Figure> figures, Correction correction, Set<String> generatorBound) {
        return VerdictFamily.of(judgedVerdicts(figures), correction, generatorBound);
    }

    /** Each comparison a family of these figures holds, alone (TOTAL left out where it repeats the only label). */
    public List<Verdict> judgedVerdicts(List<Figure> figures) {
        List<Verdict> all = new ArrayList<>();
        for (Figure f : figures) {
            verdicts(f).stream()
                    .filter(v -> v.label().equals(judgedRow(v.label())))
                    .forEach(all::add);
        }
        return all;
    }

    /** The row whose verdict stands for this one in a family: the only label for TOTAL, else the row itself. */
    public String judgedRow(String label) {
        return label.equals(Comparison.TOTAL) && comparison.labels().size() == 1
                ? comparison.labels().iterator().next()
                : label;
    }

    private String requireEnvironment(String environment) {
        if (!comparison.environments().contains(environment)) {
            throw new IllegalArgumentException("environment: '" + environment + "' is not in these results; use one of "
                    + comparison.environments());
        }
        return environment;
    }

    private String requireLabel(String label) {
        if (!comparison.rows().contains(label)) {
            throw new IllegalArgumentException(
                    "label: '" + label + "' is not in these results; use one of " + comparison.rows());
        }
        return label;
    }
}
