package io.envbench.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import io.envbench.report.capacity.CapacityReport;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.runner.CapacitySearch;
import io.envbench.study.runner.LiveFigures;
import io.envbench.study.runner.RunProgress;

/**
 * The runner's progress in a terminal: one line redrawn in place (run i of n, environment, repetition,
 * time left, live throughput and errors) on a terminal; a line per run when the output is a file or a CI log.
 */
final class ConsoleProgress implements RunProgress {
    private static final int BAR = 20;

    private final PrintStream out;
    private final boolean terminal;
    private int index;
    private int total;
    private PlannedRun current;
    private LiveFigures live = LiveFigures.NONE;
    private boolean lineOpen;

    ConsoleProgress(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    @Override
    public synchronized void runStarting(PlannedRun run, int index, int total, Duration timeLeft) {
        this.index = index;
        this.total = total;
        this.current = run;
        this.live = LiveFigures.NONE;
        if (terminal) {
            redraw(timeLeft);
        } else {
            out.printf(
                    Locale.ROOT,
                    "run %d/%d: %s, repetition %d (round %d); about %s left%n",
                    index,
                    total,
                    run.environment(),
                    run.repetition(),
                    run.round(),
                    human(timeLeft));
        }
    }

    @Override
    public synchronized void capacitySearched(CapacitySearch.Result result, Path dir) {
        log(CapacityReport.writeAndSay(result, dir));
    }

    @Override
    public synchronized void live(PlannedRun run, LiveFigures figures, Duration timeLeft) {
        this.live = figures;
        if (terminal) {
            redraw(timeLeft);
        }
    }

    @Override
    public synchronized void runEnded(RunRecord r, int index, int total) {
        if (terminal && lineOpen) {
            out.print("\r\033[K");
            lineOpen = false;
        }
        Duration took = Duration.between(r.start(), r.end());
        // an ok run without samples is a command load's (an HTTP run without samples fails): its result is its output
        String what = r.samples() == 0 && r.ok()
                ? String.format(Locale.ROOT, "%17s", "output written")
                : String.format(Locale.ROOT, "%,9d samples", r.samples());
        out.printf(
                Locale.ROOT,
                "run %d/%d: %-16s #%d %-12s %s in %5.1f s%s%n",
                index,
                total,
                r.run().environment(),
                r.run().repetition(),
                r.ok() || r.status().equals(RunRecord.INTERRUPTED) ? r.status() : "FAILED",
                what,
                took.toMillis() / 1000.0,
                live.totalSamples() > 0
                        ? String.format(
                                Locale.ROOT, ", last %,.0f/s, %d errors", live.throughputPerSec(), live.totalErrors())
                        : "");
        if (!r.ok() && !r.status().equals(RunRecord.INTERRUPTED)) {
            out.println("    " + r.status());
        }
    }

    @Override
    public synchronized void log(String line) {
        if (terminal && lineOpen) {
            out.print("\r\033[K");
            lineOpen = false;
        }
        out.println(line);
    }

    private void redraw(Duration timeLeft) {
        int filled = total == 0 ? 0 : (int) Math.round(BAR * (index - 1) / (double) total);
        String bar = "#".repeat(filled) + "-".repeat(BAR - filled);
        out.printf(
                Locale.ROOT,
                "\r\033[K[%s] %d/%d %s #%d  %s left  %,.0f/s  %d errors",
                bar,
                index,
                total,
                current == null ? "" : current.environment(),
                current == null ? 0 : current.repetition(),
                human(timeLeft),
                live.throughputPerSec(),
                live.totalErrors());
        out.flush();
        lineOpen = true;
    }

    static String human(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s >= 60 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60) : s + " s";
    }
}
