package io.envbench.report.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.envbench.report.ComparisonReport;
import io.envbench.report.RunConclusion;
import io.envbench.report.command.CommandReport;
import io.envbench.report.tenants.TenantsReport;

/**
 * Every report of a run directory, written into its {@code report/} folder from the one {@link RunConclusion}: the
 * comparison report (HTML, CSV, Markdown, charts) when runs completed, the per-tenant tables and charts of a
 * multi-tenant experiment, the tables of a command load. The command line prints from it and the controller shows
 * it, so both leave the same files behind.
 *
 * <p>A report that cannot be written (a full disk, a damaged file) does not lose the others: what went wrong is in
 * {@link #problems}, each naming the folder.
 *
 * @param comparison the comparison report, written; empty for a command load or when no run completed
 * @param tenants    a multi-tenant experiment's report, written; empty otherwise or when it has no figures
 * @param command    a command load's report, written; empty otherwise or when no run completed
 * @param problems   what could not be written, for the reader
 */
public record RunReports(
        Optional<ComparisonReport> comparison,
        Optional<TenantsReport> tenants,
        Optional<CommandReport> command,
        List<String> problems) {

    /** Writes the reports {@code c} has into its run directory's {@code report/}. */
    public static RunReports write(RunConclusion c) {
        Path reportDir = c.directory().report();
        List<String> problems = new ArrayList<>();
        if (c.experiment().load().command().isPresent()) {
            Optional<CommandReport> command = Optional.empty();
            try {
                command = CommandReport.of(c.directory(), c.experiment());
                if (command.isPresent()) {
                    command.get().write(reportDir);
                }
            } catch (IOException | RuntimeException e) {
                // the results are on record (runs.csv, output/): say what is missing rather than lose the rest
                problems.add("the report in " + reportDir + " is incomplete: " + e.getMessage());
            }
            return new RunReports(Optional.empty(), Optional.empty(), command, List.copyOf(problems));
        }
        if (!c.hasFigures()) {
            return new RunReports(Optional.empty(), Optional.empty(), Optional.empty(), List.of());
        }
        ComparisonReport report = c.report();
        try {
            report.write(reportDir); // a multi-tenant experiment's: the configurations, every tenant pooled
        } catch (IOException | RuntimeException e) {
            // a full disk, a damaged file: the figures are on record (runs.csv, JTLs) and shown all the same
            problems.add("the report in " + reportDir + " is incomplete: " + e.getMessage());
        }
        Optional<TenantsReport> tenants = Optional.empty();
        if (c.experiment().tenancy().isPresent()) {
            try {
                TenantsReport t = TenantsReport.of(c); // the figures' reading of the JTLs, not a second one
                if (t.hasFigures()) {
                    t.write(reportDir);
                    tenants = Optional.of(t);
                }
            } catch (IOException | RuntimeException e) {
                problems.add("the tenants' tables in " + reportDir + " are incomplete: " + e.getMessage());
            }
        }
        return new RunReports(Optional.of(report), tenants, Optional.empty(), List.copyOf(problems));
    }
}
