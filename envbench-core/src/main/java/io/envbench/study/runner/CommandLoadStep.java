package io.envbench.study.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.control.registry.EnvBench;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.command.CommandInPlace;
import io.envbench.study.command.CommandOutputCheck;
import io.envbench.study.command.CommandRun;
import io.envbench.study.experiment.CommandLoad;
import io.envbench.study.experiment.EnvironmentPlan;
import io.envbench.study.experiment.PlannedRun;

/**
 * The load step of one run when the experiment's load is a {@link CommandLoad}: the command runs once in the started
 * environment's place while the metrics are recorded, its standard output is kept as {@code output/ENV-rN.out}
 * and checked for a result its output format reads. The runner's own steps (start, stop, records) are the same as
 * for JMeter loads.
 */
final class CommandLoadStep {
    private final EnvBench envbench;
    private final Duration metricsInterval;
    private final Path cgroupRoot;
    private final AtomicReference<CommandRun> running = new AtomicReference<>();

    CommandLoadStep(EnvBench envbench, Duration metricsInterval, Path cgroupRoot) {
        this.envbench = envbench;
        this.metricsInterval = metricsInterval;
        this.cgroupRoot = cgroupRoot;
    }

    void cancel() {
        CommandRun r = running.get();
        if (r != null) {
            r.cancel();
        }
    }

    /**
     * Runs the command; returns the run's status as {@code runs.csv} records it.
     *
     * @param stopped gets the output files of this run that stopped taking data (disk full), each with why; the
     *                command is then stopped, as JMeter is for a load
     */
    String run(
            CommandLoad load,
            EnvironmentPlan plan,
            PlannedRun r,
            RunDirectory dir,
            RunningTarget target,
            RunProgress progress,
            AtomicReference<String> died,
            List<String> stopped)
            throws IOException {
        EnvironmentDefinition def = plan.definition();
        Files.createDirectories(dir.output(r).getParent());
        CommandRun command = new CommandRun(load, dir.output(r), dir.outputErrors(r));
        running.set(command);
        MetricsCollector metrics = null;
        try {
            metrics = new MetricsCollector(
                    envbench.environments(),
                    metricsInterval,
                    dir.metrics(r),
                    ProcessHandle.current().pid());
            metrics.addListener(tick -> progress.metrics(r, tick));
            metrics.onFileStopped(
                    why -> { // the disk filled: the run's data ends here, so its command does too
                        stopped.add("metrics/" + dir.metrics(r).getFileName() + ": " + why
                                + "; it ends at its last whole row");
                        progress.log(r.id() + ": WARNING: metrics/"
                                + dir.metrics(r).getFileName() + " stopped: " + why + "; the command is stopped");
                        command.cancel();
                    });
            metrics.start();
        } catch (IOException | RuntimeException ex) {
            progress.log(r.id() + ": no metrics: " + ex.getMessage());
        }
        CommandRun.Result result;
        try {
            result = CommandInPlace.run(
                    command,
                    def,
                    plan.client(),
                    target,
                    envbench.targetsDir(),
                    envbench.environments().docker(),
                    cgroupRoot,
                    line -> progress.log(r.id() + ": " + line));
        } catch (TargetStartException | RuntimeException ex) {
            return "failed: command: " + ex.getMessage();
        } finally {
            running.set(null);
            if (metrics != null) {
                metrics.close();
            }
        }
        progress.log(r.id() + ": " + load.commandLine() + " ended in "
                + result.elapsed().toSeconds() + " s with exit code " + result.exitCode());
        if (died.get() != null) {
            return "failed: target died";
        }
        if (result.cancelled()) {
            return RunRecord.INTERRUPTED;
        }
        if (result.timedOut()) {
            return "failed: the command did not finish within "
                    + load.deadline().toSeconds() + " s";
        }
        if (result.exitCode() != 0) {
            return "failed: the command exited with " + result.exitCode() + "; see logs/"
                    + dir.outputErrors(r).getFileName();
        }
        try {
            CommandOutputCheck.check(load.output(), Files.readString(dir.output(r)));
        } catch (IllegalArgumentException ex) {
            return "failed: " + ex.getMessage() + "; see logs/"
                    + dir.outputErrors(r).getFileName();
        }
        return RunRecord.OK;
    }
}
