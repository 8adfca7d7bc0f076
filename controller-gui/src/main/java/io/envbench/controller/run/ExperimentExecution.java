package io.envbench.controller.run;

import io.envbench.launch.docker.DockerDaemon;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.envbench.control.registry.EnvBench;
import io.envbench.study.experiment.Experiment;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.report.RunConclusion;
import io.envbench.measure.results.JtlTail;
import io.envbench.measure.results.Sample;
import io.envbench.study.runner.ExperimentRunner;
import io.envbench.study.runner.JMeterInstall;
import io.envbench.study.runner.LiveFigures;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.runner.RunProgress;
import io.envbench.study.analysis.RunRecord;
import io.envbench.report.tenants.TenantsReport;
import io.envbench.study.tenants.CpuControlFactory;
import io.envbench.study.tenants.TenantControl;

/**
 * One experiment run from the controller, off the event thread: the same runner as {@code envbench run}, the same
 * run directory and report, with its progress, metrics and the running JTL fed to a {@link LiveBoard}. Cancel
 * keeps what was recorded, as the runner does.
 */
public final class ExperimentExecution {
    private static final Duration JTL_POLL = Duration.ofSeconds(1);

    private final Experiment experiment;
    private final RunDirectory directory;
    private final EnvBench envbench;
    private final ExperimentRunner runner;
    private final LiveBoard board;
    private final CompletableFuture<RunConclusion> conclusion = new CompletableFuture<>();
    private final ScheduledExecutorService jtlPoller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "envbench-controller-jtl");
        t.setDaemon(true);
        return t;
    });
    private volatile Tail tail;

    private record Tail(PlannedRun run, JtlTail jtl) {
    }

    /**
     * @param root             the EnvBench folder (targets/, testplans/, the assembled JMeter)
     * @param jmeter           the JMeter that runs the load
     * @param metricsInterval  between metrics readings
     * @throws io.envbench.base.settings.InvalidSettingException when this host cannot run a multi-tenant experiment as written
     *                                                      (naming the file's field and the fix)
     */
    public ExperimentExecution(Path root, JMeterInstall jmeter, Experiment experiment, RunDirectory directory, Duration metricsInterval) {
        this(root, jmeter, experiment, directory, metricsInterval, io.envbench.launch.dockerdaemon.RestartPermission.REFUSED);
    }

    /** @param dockerRestart whether the environments' {@code dockerDaemon:} settings may restart the Docker daemon (the user said so) */
    public ExperimentExecution(Path root, JMeterInstall jmeter, Experiment experiment, RunDirectory directory, Duration metricsInterval,
                               io.envbench.launch.dockerdaemon.RestartPermission dockerRestart) {
        this.experiment = experiment;
        this.directory = directory;
        DockerDaemon daemon = DockerDaemon.fromEnvironment();
        // study 004's controls of a multi-tenant experiment's configurations, as envbench run has them; what this host
        // cannot run (too few CPUs, interrupt steering without root) is refused here, before anything starts
        TenantControl.Factory controls = CpuControlFactory.onThisHost(daemon);
        controls.checkHost(experiment);
        this.envbench = new EnvBench(root.resolve("targets"), daemon, true);
        this.runner = new ExperimentRunner(envbench, jmeter, root.resolve("testplans/http-load.jmx"), metricsInterval, controls)
                .dockerRestart(dockerRestart);
        this.board = LiveBoard.of(experiment);
    }

    public LiveBoard board() {
        return board;
    }

    public RunDirectory directory() {
        return directory;
    }

    public Experiment experiment() {
        return experiment;
    }

    /** Completes with the runs' conclusion (the report written), or exceptionally when the runner could not run. */
    public CompletableFuture<RunConclusion> conclusion() {
        return conclusion;
    }

    /** Starts the runs on a thread of their own; returns at once. */
    public ExperimentExecution start() {
        jtlPoller.scheduleWithFixedDelay(this::pollJtl, JTL_POLL.toMillis(), JTL_POLL.toMillis(), TimeUnit.MILLISECONDS);
        Thread t = new Thread(this::runAll, "envbench-controller-run");
        t.setDaemon(true);
        t.start();
        return this;
    }

    /** Stops the load and the environment of the running run; the runs not started are not started. */
    public void cancel() {
        board.log("cancelling: stopping the load and the environment; what was recorded is kept");
        runner.cancel();
    }

    public boolean cancelled() {
        return runner.cancelled();
    }

    private void runAll() {
        try {
            board.log("run directory " + directory.root());
            ExperimentRunner.Outcome o = runner.run(experiment, directory, new RunProgress() {
                @Override
                public void runStarting(PlannedRun run, int index, int total, Duration timeLeft) {
                    pollJtl(); // the previous run's last lines
                    tail = new Tail(run, new JtlTail(directory.jtl(run)));
                    board.runStarting(run, index, total, timeLeft);
                    board.log("run " + index + " of " + total + ": " + run.environment() + " #" + run.repetition());
                }

                @Override
                public void live(PlannedRun run, LiveFigures figures, Duration timeLeft) {
                    board.timeLeft(timeLeft);
                }

                @Override
                public void metrics(PlannedRun run, MetricsCollector.Tick tick) {
                    board.metrics(run, tick);
                }

                @Override
                public void runEnded(RunRecord record, int index, int total) {
                    board.runEnded(record);
                    board.log("run " + index + " of " + total + " " + record.run().environment() + " #" + record.run().repetition() + ": "
                            + record.status() + (record.ok() ? ", " + record.samples() + " samples" : ""));
                }

                @Override
                public void log(String line) {
                    board.log(line);
                }
            });
            jtlPoller.shutdownNow();
            RunConclusion c = RunConclusion.of(o);
            if (c.hasFigures()) {
                try {
                    c.report().write(directory.report());
                    if (experiment.tenancy().isPresent()) {
                        TenantsReport.read(directory, experiment, o.runs()).write(directory.report()); // as envbench run writes it
                    }
                } catch (IOException | RuntimeException e) {
                    board.log("the report in " + directory.report() + " is incomplete: " + e);
                }
            }
            board.log(c.passed() ? "passed" : c.cancelled() ? "cancelled: " + c.missingRuns() + " run(s) missing" : "not passed");
            conclusion.complete(c);
        } catch (IOException | RuntimeException | Error e) {
            // whatever went wrong, the view hears of it: a run never stays "running" for ever
            board.log("could not run: " + e);
            conclusion.completeExceptionally(e);
        } finally {
            jtlPoller.shutdownNow();
            envbench.close();
        }
    }

    private void pollJtl() {
        Tail t = tail;
        if (t == null) {
            return;
        }
        List<Sample> got = new ArrayList<>();
        try {
            synchronized (t.jtl()) {
                t.jtl().poll(got::add);
            }
        } catch (IOException e) {
            board.log("live figures: " + e.getMessage());
            tail = null;
            return;
        }
        if (!got.isEmpty()) {
            board.samples(t.run(), got);
        }
    }
}
