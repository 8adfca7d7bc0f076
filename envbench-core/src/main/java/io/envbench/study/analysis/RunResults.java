package io.envbench.study.analysis;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.envbench.base.output.OutputFolder;
import io.envbench.base.output.WholeRowFile;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.ResponseErrors;
import io.envbench.measure.results.ResultFiles;
import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.Comparison;
import io.envbench.study.experiment.Criterion;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.FigureSource;
import io.envbench.study.experiment.Schedule;

/**
 * The figures of a run directory: every completed run's JTL, its warm-up left out, each sample counted
 * under the environment the runner started for it (whatever the JTL's own column says) and under its run;
 * the criteria evaluated on the run medians; the JUnit XML a CI server reads.
 */
public final class RunResults {
    private final Experiment experiment;
    private final Comparison comparison;
    private final AcrossRuns acrossRuns;
    private final List<RunRecord> runs;
    private final boolean partial;
    /** A multi-tenant experiment's figures per tenant under each configuration, when it has criteria; else null. */
    private final FigureSource tenantFigures;
    /** A multi-tenant experiment's tenants table; null for other experiments or when it could not be read. */
    private final TenantResults tenants;
    /** Why the tenants table could not be read, when it could not; else null. */
    private final Exception tenantsUnread;
    /** Where {@code repetitions: auto} ended the runs, when it did. */
    private final Optional<AutoRepetitions.Stop> stop;

    private RunResults(
            Experiment experiment,
            Comparison comparison,
            List<RunRecord> runs,
            boolean partial,
            TenantResults tenants,
            Exception tenantsUnread,
            Optional<AutoRepetitions.Stop> stop) {
        this.experiment = experiment;
        this.stop = stop;
        this.tenants = tenants;
        this.tenantsUnread = tenantsUnread;
        // a multi-tenant experiment's criteria name a tenant under a configuration: its figures are the tenants table's
        this.tenantFigures = tenants != null && !experiment.criteria().isEmpty() ? tenants.figures() : null;
        this.comparison = comparison;
        this.runs = runs;
        this.partial = partial;
        this.acrossRuns = comparison.environments().isEmpty()
                ? null
                : new AcrossRuns(
                        comparison,
                        comparison.environments().contains(experiment.baseline()) ? experiment.baseline() : null);
    }

    /**
     * Reads the completed runs of a run directory: from its {@code summary.json} when that matches the JTLs as they are
     * ({@link RunSummary}), else from the JTLs.
     */
    public static RunResults read(RunDirectory dir, Experiment e, List<RunRecord> runs) throws IOException {
        // a multi-tenant experiment's tenants table needs every sample: its runs are read from the JTLs
        Optional<RunSummary> summary = e.tenancy().isPresent()
                ? Optional.empty()
                : RunSummary.current(dir, e.load().warmup().toMillis(), runs);
        if (summary.isPresent()) {
            RunResults results = new RunResults(
                    e,
                    Comparison.of(summary.get().comparison()),
                    runs,
                    dir.partial(),
                    null,
                    null,
                    e.repetitions().isAuto() ? AutoRepetitions.stoppedAt(dir.rounds()) : Optional.empty());
            summary.get().errors().forEach(results.errors::add);
            return results;
        }
        Comparison c = new Comparison();
        // a multi-tenant experiment's tenants table takes its samples from the same reading of each JTL
        TenantResults.Reading reading = e.tenancy().isPresent() ? new TenantResults.Reading(e) : null;
        readSamples(dir, e, runs, env -> env, c::add, r -> reading == null ? s -> {} : reading.samplesOf(r));
        TenantResults tenants = null;
        Exception tenantsUnread = null;
        if (reading != null) {
            try {
                for (RunRecord r : runs) {
                    if (TenantResults.Reading.counts(r)) {
                        reading.metricsOf(r, dir.metrics(r.run()));
                    }
                }
                tenants = reading.results();
            } catch (IOException | RuntimeException ex) {
                if (!e.criteria().isEmpty()) {
                    throw ex; // the criteria cannot be evaluated without it
                }
                tenantsUnread = ex; // only the tenants table misses it: said where it is asked for
            }
        }
        RunResults results = new RunResults(
                e,
                c,
                runs,
                dir.partial(),
                tenants,
                tenantsUnread,
                e.repetitions().isAuto() ? AutoRepetitions.stoppedAt(dir.rounds()) : Optional.empty());
        for (RunRecord r : runs) {
            if (r.ok() && r.firstSample() != null) {
                results.errors.read(
                        dir.jtl(r.run()),
                        r.run().environment(),
                        r.firstSample().toEpochMilli() + e.load().warmup().toMillis());
            }
        }
        return results;
    }

    /**
     * Writes the run directory's {@code summary.json} from these figures, so that opening the finished run later reads
     * it instead of the JTLs; a multi-tenant experiment's runs have none (its tenants table needs the samples).
     */
    public void writeSummary(RunDirectory dir) throws IOException {
        if (experiment.tenancy().isPresent()) {
            return;
        }
        new RunSummary(
                        RunSummary.VERSION,
                        experiment.load().warmup().toMillis(),
                        RunSummary.jtlBytes(dir, runs),
                        comparison.summary(),
                        errors.rows())
                .write(dir);
    }

    /**
     * A multi-tenant experiment's tenants table, from the same reading of the runs as the other figures; empty for
     * other experiments. Not thread-safe (it caches what it pools): the thread that reads the results uses it.
     *
     * @throws IOException when a run's metrics file could not be read for it
     */
    public Optional<TenantResults> tenants() throws IOException {
        if (tenantsUnread instanceof IOException io) {
            throw io;
        }
        if (tenantsUnread instanceof RuntimeException re) {
            throw re;
        }
        return Optional.ofNullable(tenants);
    }

    /** The failed samples of the completed runs after their warm-up, by environment, label and response code. */
    public ResponseErrors errors() {
        return errors;
    }

    private final ResponseErrors errors = new ResponseErrors();

    /**
     * Every sample of the completed runs after their warm-up, counted under the environment the runner
     * started for it (whatever the JTL's own column says), renamed by {@code environmentName} (e.g. to set two
     * run directories side by side), with the id of its run.
     */
    public static void readSamples(
            RunDirectory dir,
            Experiment e,
            List<RunRecord> runs,
            UnaryOperator<String> environmentName,
            BiConsumer<Sample, String> out)
            throws IOException {
        readSamples(dir, e, runs, environmentName, out, r -> s -> {});
    }

    /** As the public one, each sample of a run also given, as its JTL has it, to what {@code alsoTo} gives for the run. */
    private static void readSamples(
            RunDirectory dir,
            Experiment e,
            List<RunRecord> runs,
            UnaryOperator<String> environmentName,
            BiConsumer<Sample, String> out,
            Function<RunRecord, Consumer<Sample>> alsoTo)
            throws IOException {
        long warmupMs = e.load().warmup().toMillis();
        for (RunRecord r : runs) {
            if (!r.ok() || r.firstSample() == null) {
                continue;
            }
            long cutoff = r.firstSample().toEpochMilli() + warmupMs;
            String env = environmentName.apply(r.run().environment());
            String runId = r.run().id();
            Consumer<Sample> also = alsoTo.apply(r);
            JtlReader.read(dir.jtl(r.run()), s -> {
                also.accept(s);
                if (s.startMs() >= cutoff) {
                    // the built-in plan tags its samples already; a plan of one's own may not
                    out.accept(
                            s.environment().equals(env)
                                    ? s
                                    : new Sample(
                                            env,
                                            s.label(),
                                            s.startMs(),
                                            s.elapsedMs(),
                                            s.success(),
                                            s.receivedBytes(),
                                            s.sentBytes(),
                                            s.intendedStartMs()),
                            runId);
                }
            });
        }
    }

    public Comparison comparison() {
        return comparison;
    }

    public List<RunRecord> runs() {
        return runs;
    }

    public int plannedRuns() {
        return stop.map(s -> Schedule.upTo(experiment, s.round()))
                .orElseGet(() -> Schedule.of(experiment))
                .size();
    }

    /** Where {@code repetitions: auto} ended the runs, and why; empty while it has not, or with a fixed number. */
    public Optional<AutoRepetitions.Stop> autoStop() {
        return stop;
    }

    /** Planned runs without an ok record: failed, interrupted, or never started. */
    public long missingRuns() {
        return plannedRuns() - runs.stream().filter(RunRecord::ok).count();
    }

    /** Whether runs are missing (cancelled, failed): the report says so. */
    public boolean partial() {
        return partial;
    }

    /**
     * The metrics of the completed runs, each from the end of its warm-up (as the latency figures), for the
     * report's resources section and the hints; null when there are none.
     */
    public MetricsFile metrics(RunDirectory dir) throws IOException {
        Map<Path, Long> from = new LinkedHashMap<>();
        for (RunRecord r : runs) {
            if (r.ok() && r.firstSample() != null && Files.exists(dir.metrics(r.run()))) {
                from.put(
                        dir.metrics(r.run()),
                        r.firstSample().toEpochMilli()
                                + experiment.load().warmup().toMillis());
            }
        }
        return from.isEmpty() ? null : MetricsFile.read(from);
    }

    /**
     * The files of completed runs that end with a cut row (the disk filled, or the writer was killed mid-row): the
     * cut row is left out of every figure; one line each, for the report's notices.
     */
    public List<String> cutFiles(RunDirectory dir) throws IOException {
        List<String> cut = new ArrayList<>();
        for (RunRecord r : runs) {
            if (!r.ok()) {
                continue;
            }
            Path jtl = dir.jtl(r.run());
            if (Files.isRegularFile(jtl) && ResultFiles.endsWithCutRow(jtl)) {
                cut.add(dir.root().relativize(jtl) + " ends with a cut row (left out): its data ends early");
            }
            for (Path f : List.of(dir.metrics(r.run()))) {
                if (Files.isRegularFile(f) && WholeRowFile.lengthOfWholeRows(f) < Files.size(f)) {
                    cut.add(dir.root().relativize(f) + " ends with a cut row (left out): its data ends early");
                }
            }
        }
        return cut;
    }

    /** Every criterion of the experiment on the medians of the runs. */
    public List<Criterion.Result> evaluate() {
        if (tenantFigures != null) {
            return experiment.criteria().stream()
                    .map(c -> c.evaluate(tenantFigures))
                    .toList();
        }
        FigureSource figures = new FigureSource() {
            @Override
            public OptionalDouble value(String environment, String label, String figure) {
                if (acrossRuns == null || !comparison.environments().contains(environment)) {
                    return OptionalDouble.empty();
                }
                return acrossRuns.criterionFigure(environment, label, figure);
            }

            @Override
            public Set<String> environments() {
                return Set.copyOf(experiment.environmentNames());
            }
        };
        return experiment.criteria().stream().map(c -> c.evaluate(figures)).toList();
    }

    /**
     * JUnit XML (the format Jenkins and GitLab read): one test case per criterion, plus one that fails
     * when runs are missing, so a partial experiment never passes unnoticed.
     */
    public void writeJUnit(Path file, List<Criterion.Result> results) throws IOException {
        long failedRuns = missingRuns();
        boolean missing = partial || failedRuns > 0;
        long failures = results.stream().filter(r -> !r.passed()).count() + (missing ? 1 : 0);
        String suite = "envbench." + experiment.name();
        Path part = file.resolveSibling(file.getFileName() + ".part"); // whole or not at all: a CI server reads it
        try (Writer w = Files.newBufferedWriter(part, StandardCharsets.UTF_8)) {
            w.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            w.write("<testsuite name=\"" + xml(suite) + "\" tests=\"" + (results.size() + 1) + "\" failures=\""
                    + failures + "\" errors=\"0\" skipped=\"0\">\n");
            w.write("  <testcase classname=\"" + xml(suite) + "\" name=\"every planned run completed\">\n");
            if (missing) {
                w.write("    <failure message=\""
                        + xml((partial ? "the experiment is partial; " : "") + failedRuns + " of " + plannedRuns()
                                + " planned run(s) not ok or not run (see runs.csv)")
                        + "\"/>\n");
            }
            w.write("  </testcase>\n");
            for (Criterion.Result r : results) {
                w.write("  <testcase classname=\"" + xml(suite) + "\" name=\""
                        + xml(r.criterion().text()) + "\">\n");
                if (!r.passed()) {
                    w.write("    <failure message=\"" + xml(r.explanation()) + "\"/>\n");
                } else {
                    w.write("    <system-out>" + xml(r.explanation()) + "</system-out>\n");
                }
                w.write("  </testcase>\n");
            }
            w.write("</testsuite>\n");
        } catch (IOException e) {
            Files.deleteIfExists(part);
            throw new IOException("cannot write " + file + ": " + OutputFolder.why(e), e);
        }
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
