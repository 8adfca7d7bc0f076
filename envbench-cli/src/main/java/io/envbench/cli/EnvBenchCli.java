package io.envbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import io.envbench.base.output.OutputFolder;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.Correction;
import io.envbench.report.ComparisonReport;
import io.envbench.study.experiment.Experiment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** EnvBench's command line, run by {@code ./envbench} with the plugin jar on the class path. */
@Command(
        name = "envbench",
        mixinStandardHelpOptions = true,
        subcommands = {
            RunCommand.class,
            CapacityCommand.class,
            CleanCommand.class,
            TargetsCommand.class,
            EnvBenchCli.Summary.class,
            EnvBenchCli.Report.class
        },
        description = "EnvBench command line tools.")
public final class EnvBenchCli {
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new EnvBenchCli());
        // a failure of EnvBench itself is neither a failed criterion (1) nor bad input (2)
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("envbench " + cmd.getCommandName() + ": " + e);
            e.printStackTrace(cmd.getErr());
            return RunCommand.CANNOT_RUN;
        });
        System.exit(cli.execute(args));
    }

    /** What summary and report both read: result files, an optional metrics file, labels to leave out, the baseline. */
    static final class Inputs {
        @Parameters(
                arity = "1..*",
                paramLabel = "JTL",
                description =
                        "CSV result files (plain, or gzip-compressed as a run directory keeps them: .jtl.gz), one per run"
                                + " (repetition), split by their envbench.env column; files of the"
                                + " same name are named by their folders, never pooled")
        List<Path> jtls;

        @Option(
                names = "--baseline",
                paramLabel = "ENV",
                description = "environment all others are compared with (default: bare, else the first)")
        String baseline;

        @Option(
                names = "--metrics",
                paramLabel = "CSV",
                description = "metrics file of the Resource Monitor (envbench.metrics.file): resources next to latency")
        Path metrics;

        @Option(
                names = "--correction",
                paramLabel = "bh|holm",
                description =
                        "how all verdicts' p-values are adjusted together: bh (Benjamini-Hochberg, default) or holm")
        String correction;

        @Option(
                names = "--exclude",
                paramLabel = "REGEX",
                description = "leave out labels matching this regular expression, e.g. '^EnvBench start$'")
        String exclude;

        /** A file to read, or a message naming the option, what is wrong with the path and the fix. */
        private static void requireFile(String option, Path file, String fix) {
            if (Files.isDirectory(file)) {
                throw new IllegalArgumentException(option + ": " + file + " is a folder, not a file; " + fix);
            }
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException(option + ": " + file + " does not exist; " + fix);
            }
            if (!Files.isReadable(file)) {
                throw new IllegalArgumentException(
                        option + ": " + file + " cannot be read (permissions); make it readable, or give a copy");
            }
        }

        /** @throws IOException or IllegalArgumentException (a bad regular expression, baseline or file) with a message for the user */
        ComparisonReport read() throws IOException {
            for (Path jtl : jtls) {
                requireFile(
                        "JTL", jtl, "give CSV result files (plain or .gz), one per run, e.g. results/RUN/jtl/*.jtl.gz");
            }
            if (metrics != null) {
                requireFile(
                        "--metrics",
                        metrics,
                        "give the Resource Monitor's CSV (envbench.metrics.file, or a run's metrics/ENV-rN.csv),"
                                + " or leave out --metrics");
            }
            Predicate<String> keep = label -> true;
            if (exclude != null && !exclude.isBlank()) {
                Pattern p = Pattern.compile(exclude);
                keep = label -> !p.matcher(label).find();
            }
            Comparison c = Comparison.of(jtls, keep);
            if (c.environments().isEmpty()) {
                throw new IOException("no samples in " + jtls);
            }
            return new ComparisonReport(c, baseline, metrics == null ? null : MetricsFile.read(metrics))
                    .withCorrection(correction == null ? Experiment.DEFAULT_CORRECTION : Correction.byWord(correction))
                    .judgedAsItsLoadWas();
        }
    }

    @Command(
            name = "report",
            mixinStandardHelpOptions = true,
            description =
                    "Writes the comparison report (index.html, comparison.csv, comparison.md, charts as PNG, SVG and PDF).")
    static final class Report implements Callable<Integer> {
        @Mixin
        Inputs inputs;

        @Option(
                names = {"-o", "--output"},
                required = true,
                paramLabel = "DIR",
                description = "output folder (made if missing)")
        Path output;

        @Override
        public Integer call() {
            try {
                ComparisonReport r = inputs.read();
                OutputFolder.requireWritable(output, "report folder (-o)");
                r.write(output);
                System.out.print(r.text());
                System.out.println();
                System.out.println("Report (baseline " + r.baseline() + "): "
                        + output.toAbsolutePath().resolve("index.html"));
                return 0;
            } catch (IOException | IllegalArgumentException e) { // PatternSyntaxException is one
                System.err.println("envbench report: " + e.getMessage());
                return 2;
            }
        }
    }

    @Command(
            name = "summary",
            mixinStandardHelpOptions = true,
            description = "Prints the side-by-side table (and, with --metrics, the resources) of CSV JTLs.")
    static final class Summary implements Callable<Integer> {
        @Mixin
        Inputs inputs;

        @Override
        public Integer call() {
            try {
                System.out.print(inputs.read().text());
                return 0;
            } catch (IOException | IllegalArgumentException e) {
                System.err.println("envbench summary: " + e.getMessage());
                return 2;
            }
        }
    }
}
