package io.envbench.study.psql;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.measure.stats.RatioOfRuns;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.ClientPlace;
import io.envbench.study.experiment.EnvironmentPlan;
import io.envbench.study.experiment.Experiment;
import net.jcip.annotations.Immutable;

/**
 * The psql times of an experiment's completed runs (study 002 (docs/studies.md#study-002)), compared across runs: per
 * place, phase and time the median of runs with its 95% interval, and the overhead against two references, each a
 * {@link RatioOfRuns}: the baseline (the client on the host against PostgreSQL on the host) and the first container
 * whose client runs inside it (the study's "same container"). Immutable.
 */
@Immutable
public final class PsqlComparison {
    private final List<String> environments;
    private final String baseline;
    private final Optional<String> sameContainer;
    private final Map<String, List<PsqlTimes>> byEnvironment;

    public PsqlComparison(
            List<String> environments,
            String baseline,
            Optional<String> sameContainer,
            Map<String, List<PsqlTimes>> byEnvironment) {
        this.environments = List.copyOf(environments);
        this.baseline = baseline;
        this.sameContainer = sameContainer;
        Map<String, List<PsqlTimes>> copy = new LinkedHashMap<>();
        environments.forEach(env -> copy.put(env, List.copyOf(byEnvironment.getOrDefault(env, List.of()))));
        this.byEnvironment = copy;
    }

    /** Reads the output of every run {@code runs.csv} records as ok. */
    public static PsqlComparison read(RunDirectory dir, Experiment e) throws IOException {
        Map<String, List<PsqlTimes>> results = new LinkedHashMap<>();
        for (RunRecord r : dir.runs().read()) {
            if (r.ok() && Files.exists(dir.output(r.run()))) {
                try {
                    results.computeIfAbsent(r.run().environment(), k -> new ArrayList<>())
                            .add(PsqlTimes.find(Files.readString(dir.output(r.run()))));
                } catch (IllegalArgumentException ex) {
                    throw new IOException(dir.output(r.run()) + ": " + ex.getMessage(), ex);
                }
            }
        }
        Optional<String> same = e.environments().stream()
                .filter(p -> p.definition().placement() == EnvironmentDefinition.Placement.DOCKER
                        && p.client() == ClientPlace.INSIDE)
                .map(EnvironmentPlan::name)
                .findFirst();
        return new PsqlComparison(e.environmentNames(), e.baseline(), same, results);
    }

    public List<String> environments() {
        return environments;
    }

    public String baseline() {
        return baseline;
    }

    /** The place whose client runs inside its own container, the study's reference; empty when there is none. */
    public Optional<String> sameContainer() {
        return sameContainer;
    }

    public List<PsqlTimes> results(String environment) {
        return byEnvironment.getOrDefault(environment, List.of());
    }

    /** The phases seen (insert, select), in order. */
    public List<String> phases() {
        List<PsqlTimes> all = new ArrayList<>();
        byEnvironment.values().forEach(all::addAll);
        return PsqlTimes.phaseNames(all);
    }

    /** The statements of a phase, as the first run that has it says (the same file gives the same count everywhere). */
    public long statements(String phase) {
        return byEnvironment.values().stream()
                .flatMap(List::stream)
                .map(t -> t.phase(phase))
                .flatMap(Optional::stream)
                .mapToLong(PsqlTimes.Phase::statements)
                .findFirst()
                .orElse(0);
    }

    /** A time of a phase in one place, one value per run, in seconds. */
    public RunStatistics runs(String environment, String phase, PsqlTimes.Time time) {
        List<Double> values = new ArrayList<>();
        for (PsqlTimes t : results(environment)) {
            t.phase(phase).ifPresent(p -> values.add(p.seconds(time)));
        }
        return RunStatistics.of(values);
    }

    /** environment's time over reference's: 1.014 is the study's +1.4%. */
    public RatioOfRuns overhead(String environment, String reference, String phase, PsqlTimes.Time time) {
        return RatioOfRuns.of(runs(environment, phase, time), runs(reference, phase, time));
    }
}
