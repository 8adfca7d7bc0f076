package io.envbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.envbench.stats.Comparison;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** EnvBench's command line, run by {@code ./envbench} with the plugin jar on the class path. */
@Command(name = "envbench", mixinStandardHelpOptions = true, subcommands = {EnvBenchCli.Summary.class, EnvBenchCli.Report.class},
        description = "EnvBench command line tools.")
public final class EnvBenchCli {
    public static void main(String[] args) {
        System.exit(new CommandLine(new EnvBenchCli()).execute(args));
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = "Writes the comparison report (index.html, comparison.csv, comparison.md, charts as PNG, SVG and PDF) "
                    + "of CSV JTLs; each file is one run, split by its envbench.env column.")
    static final class Report implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "JTL", description = "CSV result files, one per run (repetition)")
        List<Path> jtls;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "output folder (made if missing)")
        Path output;

        @Option(names = "--baseline", paramLabel = "ENV", description = "environment all others are compared with (default: bare, else the first)")
        String baseline;

        @Option(names = "--phases", paramLabel = "CSV", description = "phases file (envbench.phases.file): CPU use per environment, shown next to latency")
        Path phases;

        @Option(names = "--metrics", paramLabel = "CSV", description = "metrics file of the Resource Monitor (envbench.metrics.file): resources and CPU over time")
        Path metrics;

        @Option(names = "--exclude", paramLabel = "REGEX", description = "leave out labels matching this regular expression, e.g. '^EnvBench start$'")
        String exclude;

        @Override
        public Integer call() {
            try {
                java.util.function.Predicate<String> keep = label -> true;
                if (exclude != null && !exclude.isBlank()) {
                    java.util.regex.Pattern p = java.util.regex.Pattern.compile(exclude);
                    keep = label -> !p.matcher(label).find();
                }
                io.envbench.stats.Comparison c = io.envbench.stats.Comparison.of(jtls, keep);
                if (c.environments().isEmpty()) {
                    System.err.println("envbench report: no samples in " + jtls);
                    return 2;
                }
                io.envbench.report.ComparisonReport r = new io.envbench.report.ComparisonReport(c, baseline,
                        phases == null ? List.of() : io.envbench.target.Phase.read(phases),
                        metrics == null ? null : io.envbench.metrics.MetricsFile.read(metrics));
                r.write(output);
                c.printTable(System.out);
                System.out.println();
                System.out.println("Report (baseline " + r.baseline() + "): " + output.toAbsolutePath().resolve("index.html"));
                return 0;
            } catch (IOException | IllegalArgumentException e) { // PatternSyntaxException is one
                System.err.println("envbench report: " + e.getMessage());
                return 2;
            }
        }
    }

    @Command(name = "summary", mixinStandardHelpOptions = true,
            description = "Prints the side-by-side table of one or more CSV JTLs, split by their envbench.env column.")
    static final class Summary implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "JTL", description = "CSV result files")
        List<Path> jtls;

        @Option(names = "--phases", paramLabel = "CSV", description = "phases file written by the Target Environment Sampler (envbench.phases.file): adds CPU use per environment")
        Path phases;

        @Override
        public Integer call() throws IOException {
            Comparison c;
            try {
                c = Comparison.of(jtls);
            } catch (IOException e) {
                System.err.println("envbench summary: " + e.getMessage());
                return 2;
            }
            c.printTable(System.out);
            if (phases != null && Files.isRegularFile(phases)) {
                printPhases(phases);
            }
            return 0;
        }

        private static void printPhases(Path file) throws IOException {
            var report = new io.envbench.report.ComparisonReport(new Comparison(), "", io.envbench.target.Phase.read(file));
            System.out.println();
            System.out.println("CPU while each environment ran (% of one core; this host has "
                    + Runtime.getRuntime().availableProcessors() + " CPUs, JMeter shares them with the target):");
            String fmt = "%-14s %8s %12s %12s %18s";
            System.out.println(String.format(Locale.ROOT, fmt, (Object[]) io.envbench.report.ComparisonReport.RESOURCE_HEAD));
            for (String[] row : report.resourceRows()) {
                System.out.println(String.format(Locale.ROOT, fmt, (Object[]) row));
            }
        }
    }
}
