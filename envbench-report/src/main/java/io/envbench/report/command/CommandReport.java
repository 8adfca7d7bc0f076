package io.envbench.report.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.envbench.report.ChartFormat;
import io.envbench.report.ComparisonReport;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.bonnie.BonnieComparison;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.psql.PsqlComparison;
import org.jfree.chart.JFreeChart;

/**
 * The report of a command load (load: command:), chosen by its output format: bonnie++'s tables
 * ({@link BonnieReport}) or psql's times ({@link PsqlReport}).
 * The CLI and the controller show whichever it is the same way.
 */
public interface CommandReport {
    /** The tables, as markdown (also what the console prints). */
    String markdown();

    /** The charts by file name (without extension). */
    Map<String, JFreeChart> charts();

    /** The markdown file {@link #write} writes, e.g. {@code bonnie.md}; the CSV beside it has the same name. */
    String tableFile();

    /** The tables as CSV, one row per place and figure. */
    String csv();

    /** The charts' height in pixels: as tall as their bars need ({@link ComparisonReport#CHART_HEIGHT} at least). */
    default int chartHeight(Map<String, JFreeChart> charts) {
        return ComparisonReport.CHART_HEIGHT;
    }

    /** Writes the tables ({@link #tableFile()} and its CSV) and the charts in every {@link ChartFormat} into {@code dir}; returns the files. */
    default List<Path> write(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        written.add(Files.writeString(dir.resolve(tableFile()), markdown()));
        written.add(Files.writeString(dir.resolve(tableFile().replaceFirst("\\.md$", ".csv")), csv()));
        Path charts = Files.createDirectories(dir.resolve("charts"));
        Map<String, JFreeChart> all = charts();
        int height = chartHeight(all);
        for (Map.Entry<String, JFreeChart> e : all.entrySet()) {
            for (ChartFormat f : ChartFormat.values()) {
                Path file = charts.resolve(e.getKey() + "." + f.extension());
                f.write(e.getValue(), file, ComparisonReport.CHART_WIDTH, height);
                written.add(file);
            }
        }
        return written;
    }

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
                BonnieComparison b = BonnieComparison.read(dir, e);
                yield b.environments().stream().allMatch(env -> b.results(env).isEmpty())
                        ? Optional.empty()
                        : Optional.of(new BonnieReport(b, e.correction()));
            }
            case PSQL_TIME -> {
                PsqlComparison p = PsqlComparison.read(dir, e);
                yield p.environments().stream().allMatch(env -> p.results(env).isEmpty())
                        ? Optional.empty()
                        : Optional.of(new PsqlReport(p, e.correction()));
            }
        };
    }
}
