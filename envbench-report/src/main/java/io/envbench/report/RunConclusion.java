package io.envbench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.envbench.base.container.ContainerEngine;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.units.CpuSet;
import io.envbench.measure.hints.GeneratorLoad;
import io.envbench.measure.hints.Hint;
import io.envbench.measure.hints.Hints;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.Figure;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.report.header.RunHeader;
import io.envbench.study.analysis.CostPerRequest;
import io.envbench.study.analysis.HostDescription;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.analysis.RunResults;
import io.envbench.study.experiment.CapacitySpec;
import io.envbench.study.experiment.Criterion;
import io.envbench.study.experiment.EnvironmentPlan;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.LoadPlan;
import io.envbench.study.runner.ExperimentRunner;

/**
 * What a run directory comes to: its figures, the criteria's verdicts, the notices (partial, interrupted) and
 * the hints, and the comparison report over them. One reading for {@code envbench run} and the controller, so
 * both say the same about the same runs.
 *
 * @param experiment the experiment as run
 * @param results    the figures of the completed runs
 * @param verdicts   one per criterion, on the medians of the runs
 * @param metrics    the completed runs' metrics after their warm-up, or empty when none were recorded
 * @param notices    what the reader must know first (data that ends early because the disk filled, partial,
 *                   interrupted, why each run that ended badly did); empty for a complete run
 * @param hints      what the metrics suggest (e.g. the load generator saturating the machine)
 * @param generatorBound the environments whose comparisons get no verdict: the load generator set their pace (empty
 *                   when the experiment allows generator-bound verdicts)
 * @param cost       what each environment spent per request, per run
 * @param complete   every planned run is there and ok
 * @param cancelled  the run was interrupted
 */
public record RunConclusion(
        RunDirectory directory,
        Experiment experiment,
        RunResults results,
        List<Criterion.Result> verdicts,
        Optional<MetricsFile> metrics,
        List<String> notices,
        List<Hint> hints,
        boolean complete,
        boolean cancelled,
        Set<String> generatorBound,
        CostPerRequest cost) {

    /** Concludes the runs just made (or read back), and writes {@code junit.xml}. */
    public static RunConclusion of(
            RunDirectory dir, Experiment e, List<RunRecord> runs, boolean complete, boolean cancelled)
            throws IOException {
        return of(dir, e, runs, complete, cancelled, List.of());
    }

    /** The runner's outcome concluded, and {@code junit.xml} written. */
    public static RunConclusion of(ExperimentRunner.Outcome o) throws IOException {
        return of(o.directory(), o.experiment(), o.runs(), o.complete(), o.cancelled(), o.dataEndsEarly());
    }

    /**
     * Concludes the runs just made (or read back), and writes {@code junit.xml} (when the disk lets it: else a notice
     * says so, and no half-written one is left).
     *
     * @param dataEndsEarly what the runner could not write (disk full), each naming its file; the first notices
     */
    public static RunConclusion of(
            RunDirectory dir,
            Experiment e,
            List<RunRecord> runs,
            boolean complete,
            boolean cancelled,
            List<String> dataEndsEarly)
            throws IOException {
        return of(dir, e, runs, complete, cancelled, dataEndsEarly, RunResults.read(dir, e, runs), true);
    }

    /**
     * As above, with the figures of {@code runs} read already.
     *
     * @param writeJUnit whether to (re)write {@code junit.xml} and {@code summary.json}: when the runs are just made;
     *                   never when a finished run is only viewed, since it is the CI's record of that run
     */
    private static RunConclusion of(
            RunDirectory dir,
            Experiment e,
            List<RunRecord> runs,
            boolean complete,
            boolean cancelled,
            List<String> dataEndsEarly,
            RunResults results,
            boolean writeJUnit)
            throws IOException {
        List<Criterion.Result> verdicts = results.evaluate();
        List<String> notices = new ArrayList<>();
        dataEndsEarly.forEach(d -> notices.add("DATA ENDS EARLY: " + d));
        results.cutFiles(dir).forEach(d -> notices.add("DATA ENDS EARLY: " + d));
        if (writeJUnit) {
            try {
                results.writeJUnit(dir.junit(), verdicts);
            } catch (IOException ex) {
                notices.add("junit.xml not written: " + ex.getMessage());
            }
            try {
                results.writeSummary(dir); // what opening the run later reads instead of every JTL
            } catch (IOException ex) {
                notices.add("summary.json not written (opening the run reads its JTLs): " + ex.getMessage());
            }
        }
        MetricsFile metrics = results.metrics(dir);
        List<Hint> hints = metrics == null ? List.of() : Hints.of(metrics, env -> jmeterOwnCpus(env, runs));
        results.autoStop()
                .ifPresent(stop -> notices.add("Repetitions (auto): " + stop.round() + " rounds of at most "
                        + e.repetitions().max() + ", as " + stop.why() + " (rounds.csv)"));
        rateNotKept(e, results).forEach(notices::add);
        Map<String, String> generatorBound = metrics == null ? Map.of() : generatorBound(e, runs, metrics);
        generatorBound.forEach((env, why) -> notices.add(
                e.allowGeneratorBound()
                        ? "GENERATOR-BOUND on " + env + " (verdicts given, as allowGeneratorBound: true asks): " + why
                        : "NO VERDICT on " + env
                                + (env.equals(e.baseline()) ? " (the baseline: on no environment)" : "")
                                + ": " + why
                                + "; give JMeter more CPUs, fewer threads or a fixed rate below capacity (or"
                                + " allowGeneratorBound: true)"));
        long notOk = results.missingRuns();
        if (!complete) {
            notices.add("PARTIAL: " + (cancelled ? "interrupted; " : "") + notOk + " of " + results.plannedRuns()
                    + " planned run(s) not ok or not run (runs.csv); the figures cover the completed runs only");
        }
        dockerDaemonSettings(dir).ifPresent(notices::add);
        // why each run that ended badly did: a dead target, a failed start, JMeter's exit code
        runs.stream()
                .filter(r -> !r.ok())
                .forEach(r ->
                        notices.add(r.run().environment() + " run " + r.run().repetition() + ": " + r.status()));
        return new RunConclusion(
                dir,
                e,
                results,
                verdicts,
                Optional.ofNullable(metrics),
                List.copyOf(notices),
                hints,
                complete,
                cancelled,
                e.allowGeneratorBound() ? Set.of() : generatorBound.keySet(),
                CostPerRequest.read(dir, e, runs, results.comparison()));
    }

    /**
     * The environments whose load generator set the pace, and why: judged by the CPUs JMeter had to itself where the
     * runs were isolated (its CPUs and the target's, as runs.csv recorded them, apart), else by its share of a
     * saturated machine.
     */
    private static Map<String, String> generatorBound(Experiment e, List<RunRecord> runs, MetricsFile metrics) {
        Map<String, String> bound = new LinkedHashMap<>();
        for (String env : e.environmentNames()) {
            if (!metrics.environments().contains(env)) {
                continue;
            }
            GeneratorLoad.bound(metrics, env, jmeterOwnCpus(env, runs)).ifPresent(b -> bound.put(env, b.text()));
        }
        return bound;
    }

    /** The CPUs JMeter had to itself in every ok run of {@code env} (the fewest), 0 when it shared them in any. */
    private static int jmeterOwnCpus(String env, List<RunRecord> runs) {
        return runs.stream()
                .filter(r -> r.ok() && r.run().environment().equals(env))
                .mapToInt(r -> ownCpus(r.cpus()))
                .min()
                .orElse(0);
    }

    /**
     * For a fixed rate, each environment whose runs did not keep it within {@link CapacitySpec#KEPT} either way (median
     * of runs): the load was not the one asked. The built-in HTTP load's rate counts every request; a plan's rate
     * property ({@link LoadPlan#RATE_PROPERTY}) counts iterations, so the request its timer paces
     * ({@code capacity.rateLabel}) is what is counted; without that label the rate is not checked, and the notice says
     * how to have it checked.
     */
    private static List<String> rateNotKept(Experiment e, RunResults results) {
        OptionalDouble rate = e.load().fixedRatePerSecond();
        if (rate.isEmpty()) {
            return List.of();
        }
        double asked = rate.getAsDouble();
        String counted = Comparison.TOTAL;
        if (e.load().http().isEmpty()) {
            if (!e.capacity().ratedByLabel()) {
                return List.of(String.format(
                        Locale.ROOT,
                        "RATE NOT CHECKED: %s asks %.1f iterations/s of the plan; name the request its timer paces"
                                + " (capacity: rateLabel:) to have each environment's rate checked against it",
                        LoadPlan.RATE_PROPERTY,
                        asked));
            }
            counted = e.capacity().rateLabel();
        }
        Duration window = e.load().duration().minus(e.load().warmup());
        List<String> out = new ArrayList<>();
        for (String env : results.comparison().environments()) {
            RunStatistics runs = results.comparison().acrossRuns(env, counted, Figure.THROUGHPUT);
            if (runs.runs() == 0) {
                out.add(String.format(
                        Locale.ROOT,
                        "RATE NOT KEPT on %s: no sample labelled '%s' (capacity.rateLabel); name the request the"
                                + " plan's timer paces",
                        env,
                        counted));
                continue;
            }
            double achieved = runs.median();
            if (!CapacitySpec.kept(achieved, asked, window)) {
                out.add(String.format(
                        Locale.ROOT,
                        "RATE NOT KEPT on %s: %.1f/s achieved of %.1f/s asked (median of runs%s): %s; lower the rate"
                                + " (./envbench capacity finds what it keeps)",
                        env,
                        achieved,
                        asked,
                        counted.equals(Comparison.TOTAL) ? "" : ", of '" + counted + "'",
                        achieved < asked
                                ? "the generator or the target fell behind"
                                : "the generator was behind its schedule and caught up in bursts"));
            }
        }
        return out;
    }

    /** How many CPUs JMeter had to itself in a run: 0 when it shared them with the target (or they were not read). */
    private static int ownCpus(RunRecord.Cpus cpus) {
        if (cpus.jmeter().isEmpty() || cpus.target().isEmpty()) {
            return 0;
        }
        Set<String> jmeter = Set.of(expand(cpus.jmeter()));
        for (String c : expand(cpus.target())) {
            if (jmeter.contains(c)) {
                return 0;
            }
        }
        return jmeter.size();
    }

    private static String[] expand(String lists) {
        return Arrays.stream(lists.split(" "))
                .flatMap(l -> CpuSet.parseList("cpus", l).cpus().stream())
                .map(String::valueOf)
                .distinct()
                .toArray(String[]::new);
    }

    /**
     * Reads a run directory written earlier (its {@code experiment.yaml} and {@code runs.csv}), e.g. to reopen it. Writes
     * nothing into it: viewing a run leaves its files (junit.xml, a CI artefact, among them) as the run left them.
     *
     * @param targetsDir the recipes the experiment names
     * @throws ExperimentException when the directory holds no readable experiment
     */
    public static RunConclusion read(RunDirectory dir, Path targetsDir) throws IOException, ExperimentException {
        if (!Files.isRegularFile(dir.experiment())) {
            throw new IOException(
                    dir.root() + " is not a run directory: it has no experiment.yaml (envbench run writes one)");
        }
        Experiment e = ExperimentFile.read(dir.experiment(), targetsDir);
        List<RunRecord> runs = dir.runs().read();
        RunResults results = RunResults.read(dir, e, runs);
        boolean complete = results.missingRuns() == 0 && !dir.partial();
        boolean cancelled = runs.stream().anyMatch(r -> RunRecord.INTERRUPTED.equals(r.status()));
        return of(dir, e, runs, complete, cancelled, List.of(), results, false); // the figures are read once
    }

    /** Planned runs that are missing or not ok. */
    public long missingRuns() {
        return results.missingRuns();
    }

    /** Whether there is anything to compare (at least one completed run). */
    public boolean hasFigures() {
        return !results.comparison().environments().isEmpty();
    }

    /**
     * Which Docker daemon settings each environment's runs ran with, when its experiment changed them
     * ({@code docker-daemon.csv}, written by the runner as it set them): e.g. {@code Docker daemon settings the runs ran with:
     * default: userland-proxy=true; proxy-off: userland-proxy=false}.
     */
    static Optional<String> dockerDaemonSettings(RunDirectory dir) throws IOException {
        if (!Files.exists(dir.dockerDaemon())) {
            return Optional.empty();
        }
        Map<String, Set<String>> byEnvironment = new LinkedHashMap<>();
        for (String line :
                Files.readAllLines(dir.dockerDaemon()).stream().skip(1).toList()) {
            String[] f = line.split(",", 3);
            if (f.length == 3) {
                byEnvironment.computeIfAbsent(f[1], k -> new TreeSet<>()).add(f[2]);
            }
        }
        return Optional.of("Docker daemon settings the runs ran with (docker-daemon.csv): "
                + byEnvironment.entrySet().stream()
                        .map(en -> en.getKey() + ": " + String.join(" and ", en.getValue()))
                        .collect(Collectors.joining("; ")));
    }

    /** The comparison report over the completed runs, with the notices and hints; only when {@link #hasFigures()}. */
    public ComparisonReport report() {
        if (!hasFigures()) {
            throw new IllegalStateException("no completed run in " + directory.root() + ": nothing to compare");
        }
        return new ComparisonReport(results.comparison(), experiment.baseline(), metrics.orElse(null))
                .withNotes(notices, hints.stream().map(Hint::toString).toList())
                .withPalette(
                        EnvironmentPalette.of(experiment.environmentNames())) // as the run's live view coloured them
                .withErrors(results.errors().rows())
                .withCorrection(experiment.correction())
                .withCalibration(experiment.calibration().copyOf(experiment.baseline()))
                .withGeneratorBound(generatorBound)
                .withJudged(fixedRate(experiment) ? List.of(Figure.P90) : AcrossRuns.JUDGED)
                .withCost(cost)
                .withHeader(header());
    }

    /**
     * Whether the load runs at a fixed rate (the built-in HTTP load's, or a plan's rate property), which then sets the
     * throughput: judging it would test the rate asked, and {@link #rateNotKept} checks that it was kept.
     */
    private static boolean fixedRate(Experiment e) {
        return e.load().fixedRatePerSecond().isPresent();
    }

    /** In a word: {@code passed}, {@code criteria failed}, {@code partial} or {@code cancelled}. */
    public String outcome() {
        return cancelled ? "cancelled" : passed() ? "passed" : complete ? "criteria failed" : "partial";
    }

    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

    /**
     * What the report says before its figures: the experiment's name, the outcome, when the runs ran (from runs.csv),
     * the host ({@code host.json}, or "unknown" for a run directory from before it), each environment's options and
     * each criterion's verdict.
     */
    public RunHeader header() {
        List<RunRecord> runs = results.runs();
        String when = runs.isEmpty()
                ? "no run recorded"
                : WHEN.format(runs.stream()
                                .map(RunRecord::start)
                                .min(Instant::compareTo)
                                .orElseThrow()) + " to "
                        + WHEN.format(runs.stream()
                                .map(RunRecord::end)
                                .max(Instant::compareTo)
                                .orElseThrow())
                        + " UTC";
        String host;
        try {
            host = RunHeader.host(HostDescription.read(directory.host()));
        } catch (IOException | RuntimeException e) {
            host = "unknown (" + directory.host().getFileName() + " unreadable: " + e.getMessage() + ")";
        }
        RunHeader.Facts facts = new RunHeader.Facts()
                .add("outcome", outcome() + (verdicts.isEmpty() ? "" : criteriaCount()))
                .add(
                        "runs",
                        (results.plannedRuns() - missingRuns()) + " of " + results.plannedRuns() + " ok, "
                                + experiment.order().name().toLowerCase(Locale.ROOT) + " order, seed "
                                + experiment.seed())
                .add("when", when)
                .add("host", host)
                .add("baseline", experiment.baseline())
                .add("run directory", directory.root().toString());
        if (experiment.description() != null && !experiment.description().isBlank()) {
            facts.add("description", experiment.description());
        }
        List<String[]> environments = experiment.environments().stream()
                .map(p -> new String[] {p.name(), runsOn(p), options(p)})
                .toList();
        List<String[]> criteria = verdicts.stream()
                .map(v -> new String[] {
                    v.criterion().text(), v.passed() ? RunHeader.PASS : RunHeader.FAIL, v.explanation()
                })
                .toList();
        return new RunHeader(experiment.name(), facts.list(), environments, criteria);
    }

    private String criteriaCount() {
        long held = verdicts.stream().filter(Criterion.Result::passed).count();
        return " (" + held + " of " + verdicts.size() + " criteria held)";
    }

    private static String runsOn(EnvironmentPlan p) {
        EnvironmentDefinition d = p.definition();
        return d.placement().engine().map(ContainerEngine::displayName).orElse("bare metal") + ", target " + d.target();
    }

    /** A container's options as Docker takes them (network, volume, cpuset, CPUs, memory); the client and daemon too. */
    private static String options(EnvironmentPlan p) {
        EnvironmentDefinition d = p.definition();
        List<String> o = new ArrayList<>();
        if (d.placement() != EnvironmentDefinition.Placement.BARE) {
            o.add(d.options().toString());
        }
        d.services().forEach((service, where) -> o.add(service + " " + where));
        o.add("client " + p.client().name().toLowerCase(Locale.ROOT));
        p.dockerDaemon().ifPresent(daemon -> o.add("dockerd " + daemon.describe()));
        return String.join("; ", o);
    }

    /** Whether the experiment passed: complete, not interrupted, and every criterion held. */
    public boolean passed() {
        return complete && !cancelled && verdicts.stream().allMatch(Criterion.Result::passed);
    }
}
