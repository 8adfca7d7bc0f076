package io.envbench.controller.run;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.results.JtlTail;
import io.envbench.measure.results.Sample;
import io.envbench.report.RunConclusion;
import io.envbench.report.capacity.CapacityReport;
import io.envbench.report.run.RunReports;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.runner.CapacitySearch;
import io.envbench.study.runner.ExperimentRun;
import io.envbench.study.runner.ExperimentRunner;
import io.envbench.study.runner.LiveFigures;
import io.envbench.study.runner.RunProgress;

/**
 * One experiment run from the controller, off the event thread: the same runner as {@code envbench run}, the same
 * run directory and report, with its progress, metrics and the running JTL fed to a {@link LiveBoard}. Cancel
 * keeps what was recorded, as the runner does.
 */
public final class ExperimentExecution {
    private static final Duration JTL_POLL = Duration.ofSeconds(1);

    private final Experiment experiment;
    private final RunDirectory directory;
    private final ExperimentRun run;
    private final LiveBoard board;
    private final CompletableFuture<RunConclusion> conclusion = new CompletableFuture<>();
    private final ScheduledExecutorService jtlPoller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "envbench-controller-jtl");
        t.setDaemon(true);
        return t;
    });
    private volatile Tail tail;

    private record Tail(PlannedRun run, JtlTail jtl) {}

    /**
     * @param settings how runs are made (the root folder, JMeter, the daemon, whether the daemon may restart)
     * @throws io.envbench.base.settings.InvalidSettingException when the experiment cannot run here as written (a port
     *                                                          taken, too few CPUs for its tenants, no daemon), naming
     *                                                          the file's field and the fix; nothing is started
     */
    public ExperimentExecution(Experiment experiment, RunDirectory directory, ExperimentRun.Settings settings) {
        this.experiment = experiment;
        this.directory = directory;
        this.run = ExperimentRun.prepare(experiment, directory, settings);
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
        jtlPoller.scheduleWithFixedDelay(
                this::pollJtl, JTL_POLL.toMillis(), JTL_POLL.toMillis(), TimeUnit.MILLISECONDS);
        Thread t = new Thread(this::runAll, "envbench-controller-run");
        t.setDaemon(true);
        t.start();
        return this;
    }

    /** Stops the load and the environment of the running run; the runs not started are not started. */
    public void cancel() {
        board.log("cancelling: stopping the load and the environment; what was recorded is kept");
        run.cancel();
    }

    public boolean cancelled() {
        return run.cancelled();
    }

    private void runAll() {
        try {
            board.log("run directory " + directory.root());
            ExperimentRunner.Outcome o = run.run(new RunProgress() {
                @Override
                public void runStarting(PlannedRun run, int index, int total, Duration timeLeft) {
                    pollJtl(); // the previous run's last lines
                    tail = new Tail(run, new JtlTail(directory.jmeterJtl(run)));
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
                    pollJtl(); // its last lines, before the runner compresses the file
                    board.runEnded(record);
                    board.log("run " + index + " of " + total + " "
                            + record.run().environment() + " #" + record.run().repetition() + ": " + record.status()
                            + (record.ok() ? ", " + record.samples() + " samples" : ""));
                }

                @Override
                public void capacitySearched(CapacitySearch.Result result, Path dir) {
                    board.log(CapacityReport.writeAndSay(result, dir));
                }

                @Override
                public void log(String line) {
                    board.log(line);
                }
            });
            jtlPoller.shutdownNow();
            RunConclusion c = RunConclusion.of(o);
            RunReports.write(c).problems().forEach(board::log); // the files envbench run leaves
            board.log(
                    c.passed()
                            ? "passed"
                            : c.cancelled() ? "cancelled: " + c.missingRuns() + " run(s) missing" : "not passed");
            conclusion.complete(c);
        } catch (IOException | RuntimeException | Error e) {
            // whatever went wrong, the view hears of it: a run never stays "running" for ever
            board.log("could not run: " + e);
            conclusion.completeExceptionally(e);
        } finally {
            jtlPoller.shutdownNow();
            run.close();
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
