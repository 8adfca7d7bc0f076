package io.envbench.study.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import io.envbench.base.environment.RunningTarget;
import io.envbench.measure.engines.EngineMetricsFiles;
import io.envbench.measure.engines.RemoteEngine;
import io.envbench.measure.engines.RemoteEngines;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.results.ResultFiles;
import io.envbench.study.analysis.HostDescription;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.PlannedRun;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's files in the run directory, around its load step: cleared before a run (a rerun starts clean), and after
 * it the target's output and each remote engine's metrics kept, and the run judged into its {@code runs.csv} record
 * from what it left (its JTL's samples, a cut last row, an output that stopped taking data). The same for every kind
 * of run, so the status a record says means the same whichever step made the load.
 */
final class RunRecorder {
    // logged under the runner's name, which log settings and readers of its lines know
    private static final Logger log = LoggerFactory.getLogger(ExperimentRunner.class);

    private final BooleanSupplier cancelled;

    /** @param cancelled whether the experiment is cancelled: a cancelled run stays interrupted though its output stopped */
    RunRecorder(BooleanSupplier cancelled) {
        this.cancelled = cancelled;
    }

    /** Deletes what an earlier try of {@code r} left, so that a rerun ({@code --resume}) starts clean. */
    static void clear(RunDirectory dir, PlannedRun r) throws IOException {
        ResultFiles.deleteAll(dir.jmeterJtl(r));
        for (Path p : List.of(
                dir.metrics(r),
                MetricsFile.sourcesFile(dir.metrics(r)),
                dir.jmeterLog(r),
                dir.jmeterOutput(r),
                dir.targetLog(r),
                dir.output(r),
                dir.outputErrors(r))) {
            Files.deleteIfExists(p);
        }
        for (Path p : dir.engineMetricsFiles(r)) {
            Files.deleteIfExists(p);
            Files.deleteIfExists(MetricsFile.sourcesFile(p));
        }
    }

    /** Removes what a run's JMeter wrote (its JTL, log and output), and nothing else of the run. */
    static void clearJMeter(RunDirectory dir, PlannedRun r) throws IOException {
        ResultFiles.deleteAll(dir.jmeterJtl(r));
        Files.deleteIfExists(dir.jmeterLog(r));
        Files.deleteIfExists(dir.jmeterOutput(r));
    }

    /** The record of a run that has ended: its samples counted, a cut JTL or a stopped output said. */
    RunRecord record(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            Instant start,
            String status,
            long startToReadyMs,
            List<String> stopped,
            String died,
            RunIsolation.Run current)
            throws IOException {
        Instant end = Instant.now();
        long samples = 0;
        long[] firstStartMs = {Long.MAX_VALUE};
        if (Files.exists(dir.jtl(r))) {
            try {
                samples = JtlReader.read(dir.jtl(r), s -> firstStartMs[0] = Math.min(firstStartMs[0], s.startMs()));
            } catch (IOException ex) {
                // no header: JMeter stopped before its first sample
            }
        }
        if (Files.exists(dir.jtl(r))
                && ResultFiles.endsWithCutRow(dir.jtl(r))
                && (status.equals(RunRecord.OK) || !stopped.isEmpty())) {
            // JMeter ended on its own (or was stopped because the disk filled) with its last row cut: it could not
            // write
            stopped.add("jtl/" + dir.jtl(r).getFileName()
                    + ": its last row is cut (left out): JMeter could not write it (" + freeSpace(dir) + ")");
        }
        if (!stopped.isEmpty() && died == null && !cancelled.getAsBoolean()) {
            status = "failed: output stopped: " + String.join("; ", stopped);
        }
        if (status.equals(RunRecord.OK)
                && samples == 0
                && e.load().command().isEmpty()) { // a command's result is its output
            status = "failed: no samples; see logs/" + dir.jmeterLog(r).getFileName();
        }
        return new RunRecord(
                r,
                start,
                end,
                status,
                samples,
                startToReadyMs,
                samples == 0 ? null : Instant.ofEpochMilli(firstStartMs[0]),
                current.cpus());
    }

    /**
     * Keeps a run's JTL compressed, with the columns the experiment's {@code results:} keeps: done once the run has
     * ended and before the next starts, rather than beside it, so that compressing (a second or two of a CPU per
     * million samples) never competes with a measured run for the machine. One that cannot be made (a full disk) is
     * said, and the plain file is kept as it was: every reader takes either.
     */
    static void compress(ResultColumns columns, PlannedRun r, RunDirectory dir, RunProgress progress) {
        Path written = dir.jmeterJtl(r);
        if (!Files.exists(written)) {
            return;
        }
        try {
            ResultFiles.compress(written, columns);
        } catch (IOException | RuntimeException ex) {
            progress.log(r.id() + ": " + ex.getMessage());
        }
    }

    /**
     * With remote engines: each engine's metrics, carried in the JTL, into {@code metrics/ENV-rN.engine-HOST_PORT.csv};
     * an engine that sent none is said in the progress log.
     */
    static void writeEngineMetrics(Experiment e, PlannedRun r, RunDirectory dir, RunProgress progress) {
        RemoteEngines engines = e.load().engines();
        if (engines.none() || !Files.exists(dir.jtl(r))) {
            return;
        }
        try {
            Map<String, Path> files = EngineMetricsFiles.split(
                    dir.jtl(r),
                    ResultFiles.reader(dir.jtl(r)),
                    r.environment(),
                    engine -> dir.engineMetrics(r, engine));
            for (RemoteEngine engine : engines.engines()) {
                if (!files.containsKey(engine.toString())) {
                    progress.log(r.id() + ": no metrics came from engine " + engine + "; see its jmeter-server log");
                }
            }
        } catch (IOException ex) {
            progress.log(r.id() + ": engine metrics: " + ex.getMessage());
        }
    }

    /**
     * Records the machine the runs run on into {@code host.json}, for reports read later elsewhere. A description that
     * cannot be written is logged, not fatal: the runs' figures do not depend on it.
     *
     * @param dockerVersion the engine's version, when the runner's connection answered
     */
    static void writeHost(RunDirectory dir, Optional<String> dockerVersion) {
        try {
            HostDescription.probe(dockerVersion).write(dir.host());
        } catch (IOException | RuntimeException e) {
            log.warn("{}: {}", dir.host(), e.toString());
        }
    }

    /** What the run directory's file system has left, for a message. */
    private static String freeSpace(RunDirectory dir) {
        try {
            long free = Files.getFileStore(dir.root()).getUsableSpace();
            return free < 64 * 1024
                    ? "no space left on device: " + free + " bytes free in " + dir.root()
                    : free / 1024 + " KiB free in " + dir.root();
        } catch (IOException ex) {
            return "free space unknown: " + ex.getMessage();
        }
    }

    /** The target's description, how it died if it did, and the last lines of its output, into {@code file}. */
    static void writeTargetLog(Path file, RunningTarget target, String diedOf) {
        try {
            Files.writeString(
                    file,
                    target.describe() + (diedOf == null ? "" : "\ndied during the run: " + diedOf)
                            + "\n--- last 500 lines of output ---\n" + target.logs(500) + "\n");
        } catch (IOException | RuntimeException e) {
            log.warn("target log of {}: {}", target.environment(), e.toString());
        }
    }
}
