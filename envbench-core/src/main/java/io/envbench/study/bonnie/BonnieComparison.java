package io.envbench.study.bonnie;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.Verdict;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import net.jcip.annotations.Immutable;

/**
 * The bonnie++ results of an experiment's completed runs, one {@link BonnieCsv} per run, compared across runs as
 * the JMeter figures are: per place and figure the median of runs with its 95% interval, and against the baseline
 * the change of medians with the exact Mann-Whitney verdict ({@link Verdict#ofRuns}). Immutable.
 */
@Immutable
public final class BonnieComparison {
    private final List<String> environments;
    private final String baseline;
    private final Map<String, List<BonnieCsv>> byEnvironment;

    public BonnieComparison(List<String> environments, String baseline, Map<String, List<BonnieCsv>> byEnvironment) {
        this.environments = List.copyOf(environments);
        this.baseline = baseline;
        Map<String, List<BonnieCsv>> copy = new LinkedHashMap<>();
        environments.forEach(env -> copy.put(env, List.copyOf(byEnvironment.getOrDefault(env, List.of()))));
        this.byEnvironment = copy;
    }

    /** Reads the output of every run {@code runs.csv} records as ok. */
    public static BonnieComparison read(RunDirectory dir, Experiment e) throws IOException {
        Map<String, List<BonnieCsv>> results = new LinkedHashMap<>();
        for (RunRecord r : dir.runs().read()) {
            if (r.ok() && Files.exists(dir.output(r.run()))) {
                try {
                    results.computeIfAbsent(r.run().environment(), k -> new ArrayList<>())
                            .add(BonnieCsv.find(Files.readString(dir.output(r.run()))));
                } catch (IllegalArgumentException ex) {
                    throw new IOException(dir.output(r.run()) + ": " + ex.getMessage(), ex);
                }
            }
        }
        return new BonnieComparison(e.environmentNames(), e.baseline(), results);
    }

    /** In the experiment's order. */
    public List<String> environments() {
        return environments;
    }

    public String baseline() {
        return baseline;
    }

    /** The results of one place, in run order. */
    public List<BonnieCsv> results(String environment) {
        return byEnvironment.getOrDefault(environment, List.of());
    }

    /** The per-run values of a figure in one place (runs where bonnie++ measured it). */
    public RunStatistics runs(String environment, BonnieFigure figure) {
        List<Double> values = new ArrayList<>();
        for (BonnieCsv c : results(environment)) {
            c.figure(figure).ifPresent(values::add);
        }
        return RunStatistics.of(values);
    }

    /** Runs of a place in which the test ran but was too quick for bonnie++ to time ({@code +++++}). */
    public long tooQuick(String environment, BonnieFigure figure) {
        return results(environment).stream()
                .filter(c -> c.unmeasured().containsKey(figure))
                .count();
    }

    /** Whether any place has a value of this figure. */
    public boolean measured(BonnieFigure figure) {
        return environments.stream().anyMatch(env -> runs(env, figure).runs() > 0);
    }

    /** This place's figure against the baseline's. */
    public Verdict versusBaseline(String environment, BonnieFigure figure) {
        return Verdict.ofRuns(
                environment,
                figure.title(),
                baseline,
                runs(environment, figure),
                runs(baseline, figure),
                AcrossRuns.ALPHA);
    }

    /** 100 x a value / the baseline's median of runs: the study's "host = 100"; NaN without a baseline median. */
    public double percentOfBaseline(BonnieFigure figure, double value) {
        double base = runs(baseline, figure).median();
        return base > 0 ? 100 * value / base : Double.NaN;
    }
}
