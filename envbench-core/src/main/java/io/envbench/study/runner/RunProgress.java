package io.envbench.study.runner;

import java.nio.file.Path;
import java.time.Duration;

import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.PlannedRun;

/** What the runner tells as it goes (the console's progress bar, the controller's run view). */
public interface RunProgress {
    /** A run begins: its place in the schedule and the expected time left for the whole experiment. */
    default void runStarting(PlannedRun run, int index, int total, Duration timeLeft) {}

    /** JMeter reported figures of the running load. */
    default void live(PlannedRun run, LiveFigures figures, Duration timeLeft) {}

    /** The metrics collector read the machine and the running environment (on the collector's thread). */
    default void metrics(PlannedRun run, MetricsCollector.Tick tick) {}

    /**
     * A run ended (ok, failed or interrupted). Its JTL is still where JMeter wrote it; the runner compresses it right
     * after this returns.
     */
    default void runEnded(RunRecord record, int index, int total) {}

    /**
     * A capacity search made before the runs (a rate written as a share of a capacity) ended; its steps are in
     * {@code dir}, where its chart belongs.
     */
    default void capacitySearched(CapacitySearch.Result result, Path dir) {}

    /** A line for the runner's log. */
    default void log(String line) {}
}
