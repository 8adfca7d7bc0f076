package io.envbench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jfree.chart.JFreeChart;

import io.envbench.experiment.Experiment;
import io.envbench.runner.RunDirectory;

/**
 * The report of a command load (load: command:), chosen by its output format: bonnie++'s tables
 * ({@link io.envbench.report.bonnie.BonnieReport}) or psql's times ({@link io.envbench.report.psql.PsqlReport}).
 * The CLI and the controller show whichever it is the same way.
 */
public interface CommandReport {
    /** The tables, as markdown (also what the console prints). */
    String markdown();

    /** The charts by file name (without extension). */
    Map<String, JFreeChart> charts();

    /** Writes the tables and charts into {@code dir}; returns the files. */
    List<Path> write(Path dir) throws IOException;

    /** The markdown file {@link #write} writes, e.g. {@code bonnie.md}. */
    String tableFile();

    /**
     * The report of a command experiment's completed runs; empty when no run completed (or the load is no command).
     *
     * @throws IOException when a completed run's output cannot be read
     */
    static Optional<CommandReport> of(RunDirectory dir, Experiment e) throws IOException {
        if (e.load().command().isEmpty()) {
            return Optional.empty();
        }
        return switch (e.load().command().get().output()) {
            case BONNIE_CSV -> {
                io.envbench.bonnie.BonnieComparison b = io.envbench.bonnie.BonnieComparison.read(dir, e);
                yield b.environments().stream().allMatch(env -> b.results(env).isEmpty()) ? Optional.empty()
                        : Optional.of(new io.envbench.report.bonnie.BonnieReport(b));
            }
            case PSQL_TIME -> {
                io.envbench.psql.PsqlComparison p = io.envbench.psql.PsqlComparison.read(dir, e);
                yield p.environments().stream().allMatch(env -> p.results(env).isEmpty()) ? Optional.empty()
                        : Optional.of(new io.envbench.report.psql.PsqlReport(p));
            }
        };
    }
}
