package io.envbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.report.RunConclusion;
import io.envbench.report.run.RunReports;
import io.envbench.report.tenants.TenantsReport;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.experiment.Calibration;
import io.envbench.study.experiment.Criterion;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.runner.ExperimentRun;
import io.envbench.study.runner.ExperimentRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code envbench run FILE}: runs an experiment headless (CI), then prints the comparison with its verdicts
 * and writes the run directory. Exit 0 when every criterion passed, 1 when one failed or runs are
 * missing, 2 for bad input (the message names the field and line), 3 when EnvBench itself could not go
 * on (a folder it cannot write), 130 when interrupted (Ctrl-C or SIGTERM: the load is stopped,
 * everything torn down, and what was recorded kept, with the report marked partial).
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description =
                "Runs an experiment file: every environment, repeated in interleaved order, then the comparison and the verdict.")
final class RunCommand implements Callable<Integer> {
    static final int PASSED = 0;
    static final int FAILED = 1;
    static final int BAD_INPUT = 2;
    static final int CANNOT_RUN = 3;
    static final int INTERRUPTED = 130;

    @Parameters(
            arity = "0..1",
            paramLabel = "FILE",
            description = "experiment file (YAML), e.g. testplans/experiments/static-web.yaml")
    Path file;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "DIR",
            description = "run directory (default: results/NAME-TIME)")
    Path output;

    @Option(names = "--repetitions", paramLabel = "N", description = "runs per environment, instead of the file's")
    Integer repetitions;

    @Option(
            names = "--calibrate",
            description = "also run the baseline against itself (as calibration: aa in the file): the report then says"
                    + " what chance alone gives here")
    boolean calibrate;

    @Option(
            names = "--configurations",
            paramLabel = "LIST",
            split = ",",
            description = "a multi-tenant experiment's configurations to "
                    + "run, e.g. none,static (default: all of the file's)")
    List<String> configurations;

    @Option(names = "--quick", description = "the shortest durations that still give figures (smoke tests, CI)")
    boolean quick;

    @Option(
            names = "--allow-docker-restart",
            description =
                    "let environments' dockerDaemon: settings (e.g. userlandProxy: false) restart "
                            + "this host's Docker daemon, which stops every container on it; its configuration is put back after the experiment")
    boolean allowDockerRestart;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "complete an interrupted run directory: runs only what is missing")
    Path resume;

    @Mixin
    MachineOptions machine;

    @Mixin
    PublishOptions publish;

    @Option(
            names = "--metrics-interval-ms",
            paramLabel = "MS",
            defaultValue = "1000",
            description = "metrics interval, at least 100 (default 1000)")
    long metricsIntervalMs;

    private final PrintStream out;
    private final PrintStream err;

    RunCommand() {
        this(System.out, System.err);
    }

    RunCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Path base = machine.base();
        Experiment experiment;
        RunDirectory dir;
        ExperimentRun run;
        try {
            if ((file == null) == (resume == null)) {
                throw new InvalidSettingException(
                        "FILE", "give an experiment file, or --resume DIR to complete a run directory (not both)");
            }
            // checked here, before any run, not once per run by each collector
            ExperimentRun.Settings.checkMetricsInterval("--metrics-interval-ms", metricsIntervalMs);
            Path targets = base.resolve("targets");
            if (resume != null) {
                if (repetitions != null || quick || output != null || configurations != null || calibrate) {
                    throw new InvalidSettingException(
                            "--resume",
                            "completes a run directory as it was planned; --repetitions, --quick, -o, --configurations"
                                    + " and --calibrate do not go with it (its experiment.yaml says how it runs)");
                }
                dir = new RunDirectory(resume.toAbsolutePath());
                if (!Files.isRegularFile(dir.experiment())) {
                    throw new InvalidSettingException(
                            "--resume",
                            "'" + resume + "' has no experiment.yaml; give a folder written by envbench run");
                }
                experiment = ExperimentFile.read(dir.experiment(), targets);
            } else {
                experiment = ExperimentFile.read(file.toAbsolutePath(), targets);
                if (repetitions != null) {
                    try {
                        experiment = experiment.withRepetitions(repetitions);
                    } catch (InvalidSettingException e) {
                        throw new InvalidSettingException(
                                "--repetitions",
                                e.getMessage().substring(e.field().length() + 2));
                    }
                }
                if (calibrate) {
                    try {
                        experiment = experiment.withCalibration(Calibration.AA);
                    } catch (InvalidSettingException e) {
                        throw new InvalidSettingException(
                                "--calibrate",
                                e.getMessage().substring(e.field().length() + 2));
                    }
                }
                if (configurations != null) {
                    try {
                        experiment = experiment.withConfigurations(configurations);
                    } catch (InvalidSettingException e) {
                        throw new InvalidSettingException(
                                "--configurations",
                                e.getMessage().substring(e.field().length() + 2));
                    }
                }
                if (quick) {
                    experiment = experiment.quick();
                }
                dir = output != null
                        ? new RunDirectory(output.toAbsolutePath())
                        : RunDirectory.timestamped(base.resolve("results"), experiment.name());
                if (Files.exists(dir.runs().file())) {
                    throw new InvalidSettingException(
                            "--output",
                            "'" + dir.root() + "' already holds a run; give a new folder, " + "or --resume "
                                    + dir.root() + " to complete it");
                }
            }
            ExperimentRun.Settings settings = machine.settings(
                            Duration.ofMillis(metricsIntervalMs),
                            allowDockerRestart ? RestartPermission.GRANTED : RestartPermission.REFUSED)
                    .withPublishing(publish.publishing());
            run = ExperimentRun.prepare(experiment, dir, settings);
        } catch (ExperimentException | InvalidSettingException e) {
            err.println("envbench run: " + e.getMessage());
            return BAD_INPUT;
        }

        try (SignalStop stop = new SignalStop(run, out, err)) {
            return runAndReport(run);
        } catch (InvalidSettingException e) { // the run directory in use by another run, said before any run starts
            err.println("envbench run: " + e.getMessage());
            return BAD_INPUT;
        } catch (IOException e) {
            err.println("envbench run: " + e.getMessage());
            return CANNOT_RUN;
        }
    }

    private int runAndReport(ExperimentRun run) throws IOException {
        Experiment experiment = run.experiment();
        RunDirectory dir = run.directory();
        boolean resuming = resume != null;
        out.println("EnvBench: " + experiment.name() + " — "
                + experiment
                        .tenancy()
                        .map(t -> t.tenants().size() + " tenants under "
                                + t.configurations().size() + " configurations")
                        .orElse(experiment.environmentNames().size() + " environments")
                + " x "
                + experiment.repetitions().describe() + " repetitions, "
                + experiment.order().yamlName() + " order; run directory " + dir.root());
        experiment.tenancy().ifPresent(t -> t.threadShortfalls().forEach(w -> out.println("warning: " + w)));
        run.publisher().prometheusUri().ifPresent(u -> out.println("Prometheus: " + u + " until the experiment ends"));
        run.publisher()
                .influxDb()
                .ifPresent(i -> out.println("InfluxDB: " + i.target().base() + " database "
                        + i.target().database()));
        ConsoleProgress progress = new ConsoleProgress(out, System.console() != null);
        ExperimentRunner.Outcome o = resuming ? run.runMissing(progress) : run.run(progress);
        RunConclusion conclusion = RunConclusion.of(o);
        RunReports reports = RunReports.write(conclusion);
        List<Criterion.Result> verdicts = conclusion.verdicts();
        long notOk = conclusion.missingRuns();
        out.println();
        String nothing = "No completed run: nothing to compare. See "
                + dir.root().resolve("runs.csv") + " and " + dir.root().resolve("logs");
        if (experiment.load().command().isPresent()) {
            reports.command()
                    .ifPresentOrElse(
                            report -> {
                                out.print(report.markdown());
                                out.println("Report: " + dir.report().resolve(report.tableFile()) + ", charts in "
                                        + dir.report().resolve("charts"));
                            },
                            () -> {
                                if (reports.problems().isEmpty()) {
                                    out.println(nothing);
                                }
                            });
        } else if (reports.comparison().isEmpty()) {
            out.println(nothing);
            conclusion.notices().forEach(n -> out.println("  " + n));
        } else if (experiment.tenancy().isPresent()) {
            reports.tenants()
                    .ifPresentOrElse(
                            tenants -> {
                                out.print(tenants.results().text());
                                Path chartDir = dir.report().resolve("charts");
                                out.println("Per tenant: " + dir.report().resolve("tenants.md") + ", "
                                        + dir.report().resolve("tenants.csv") + ", charts "
                                        + chartDir.resolve(TenantsReport.THROUGHPUT_CHART + ".png") + " and "
                                        + TenantsReport.MEAN_CHART + ", each run's CPU "
                                        + "and throughput with the control's actions (" + TenantsReport.RUN_CPU_CHART
                                        + "RUN); control actions: "
                                        + dir.root().resolve("timeline"));
                            },
                            () -> {
                                if (reports.problems().isEmpty()) {
                                    out.println(nothing);
                                }
                            });
        } else {
            out.print(reports.comparison().get().text());
        }
        reports.problems().forEach(p -> err.println("envbench run: " + p));
        if (!verdicts.isEmpty()) {
            out.println("Criteria (on the medians of the runs):");
            verdicts.forEach(v -> out.println("  " + (v.passed() ? "PASS " : "FAIL ") + v.explanation()));
        }
        if (!o.complete()) {
            out.println("PARTIAL: " + (o.cancelled() ? "interrupted; " : "") + notOk
                    + " run(s) not ok or not run; complete with: " + "./envbench run --resume " + dir.root());
        }
        out.println("Run directory: " + dir.root() + " (runs.csv, jtl/, metrics/, logs/, "
                + (Files.exists(dir.report().resolve("index.html")) ? "report/index.html, " : "") + "junit.xml)");
        if (o.cancelled()) {
            return INTERRUPTED;
        }
        return conclusion.passed() ? PASSED : FAILED;
    }
}
