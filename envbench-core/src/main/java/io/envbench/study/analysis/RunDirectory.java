package io.envbench.study.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

import io.envbench.base.output.OutputFolder;
import io.envbench.base.process.ProcessFileLock;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.dockerdaemon.DaemonSettings;
import io.envbench.measure.engines.RemoteEngine;
import io.envbench.measure.results.ResultFiles;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;

/**
 * The folder of one experiment run: {@code experiment.yaml} (the experiment as run, resolved),
 * {@code runs.csv}, {@code host.json}, {@code jtl/} (each run's results, compressed once it has ended), {@code metrics/} (the runner's, and with remote engines one file per engine), {@code logs/}, {@code report/}, {@code junit.xml}, {@code summary.json},
 * and {@code PARTIAL} while (or when) not every run completed.
 */
public record RunDirectory(Path root) {
    /** A new folder {@code <parent>/<name>-<yyyyMMdd-HHmmss>}. */
    /** {@code parent/NAME-yyyyMMdd-HHmmss}, with {@code -2}, {@code -3}, ... when a run of the same second has that name. */
    public static RunDirectory timestamped(Path parent, String name) {
        String base = name + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path dir = parent.resolve(base);
        for (int n = 2; Files.exists(dir); n++) {
            dir = parent.resolve(base + "-" + n);
        }
        return new RunDirectory(dir);
    }

    /**
     * Makes the folder and its {@code jtl/}, {@code metrics/}, {@code logs/} and {@code output/}, and checks each can be written.
     *
     * @throws IOException naming the path that cannot be written and why (read-only, a file where a folder should be)
     */
    public void create() throws IOException {
        OutputFolder.requireWritable(root, "run directory");
        for (String d : new String[] {"jtl", "metrics", "logs", "output"}) {
            OutputFolder.requireWritable(root.resolve(d), "run directory's folder");
        }
    }

    /**
     * Holds the run directory for this process until closed (the kernel lets it go however the process ends): two
     * runners writing into one folder would mix their runs' rows and samples.
     *
     * @throws InvalidSettingException naming the run directory and who holds it (PID, since when), when another
     *     process (or another run in this one) holds it
     */
    public ProcessFileLock lock() throws IOException {
        ProcessFileLock.Attempt a = ProcessFileLock.tryLock(root.resolve(LOCK_FILE));
        if (a.lock().isEmpty()) {
            throw new InvalidSettingException(
                    "run directory",
                    root + " is in use by another run ("
                            + (a.busy().orElseThrow() == ProcessFileLock.Busy.IN_THIS_PROCESS
                                    ? "in this process"
                                    : a.holder().isEmpty() ? "another process" : a.holder())
                            + "); wait for it to end, or give another run directory (-o)");
        }
        ProcessFileLock lock = a.lock().get();
        lock.describeHolder("envbench run PID " + ProcessHandle.current().pid() + " since " + Instant.now());
        return lock;
    }

    /** The lock file of {@link #lock()}: kept after the run, empty of meaning when nobody holds it. */
    public static final String LOCK_FILE = ".envbench-run.lock";

    public Path experiment() {
        return root.resolve("experiment.yaml");
    }

    /**
     * The warm-up the runner left out of {@code jtl}'s figures, when it is a run's result file in a run directory
     * ({@code DIR/jtl/NAME.jtl} or {@code NAME.jtl.gz} beside {@code DIR/experiment.yaml}, read with the targets of {@code targetsDir}); empty
     * for any other file, or an experiment file that does not read.
     */
    public static Optional<Duration> warmupOf(Path jtl, Path targetsDir) {
        Path folder = jtl.toAbsolutePath().normalize().getParent();
        if (folder == null || !folder.getFileName().toString().equals("jtl") || folder.getParent() == null) {
            return Optional.empty();
        }
        Path experiment = new RunDirectory(folder.getParent()).experiment();
        if (!Files.isRegularFile(experiment)) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    ExperimentFile.read(experiment, targetsDir).load().warmup());
        } catch (ExperimentException | RuntimeException e) { // not ours to judge here: the file then counts whole
            return Optional.empty();
        }
    }

    public RunsFile runs() {
        return new RunsFile(root.resolve("runs.csv"));
    }

    /**
     * A run's result file as kept: {@code jtl/ENV-rN.jtl.gz} once the run has ended, {@code jtl/ENV-rN.jtl} while it
     * runs (and in run directories of older runners, or when it could not be compressed). Read it with {@link
     * io.envbench.measure.results.ResultFiles#open} (every reader of results does), which takes either.
     */
    public Path jtl(PlannedRun r) {
        return ResultFiles.kept(jmeterJtl(r));
    }

    /** Where JMeter writes a run's results: {@code jtl/ENV-rN.jtl}, compressed by the runner once the run has ended. */
    public Path jmeterJtl(PlannedRun r) {
        return root.resolve("jtl").resolve(r.id() + ".jtl");
    }

    public Path metrics(PlannedRun r) {
        return root.resolve("metrics").resolve(r.id() + ".csv");
    }
    /**
     * A remote engine's metrics of a run: {@code metrics/ENV-rN.engine-127.0.0.1_1099.csv} for the engine JMeter calls
     * {@code 127.0.0.1:1099}; {@code local} for carriers from a JMeter that is no engine.
     */
    public Path engineMetrics(PlannedRun r, String engine) {
        String tag = engine == null || engine.isEmpty() ? "local" : RemoteEngine.tagOf(engine);
        return root.resolve("metrics").resolve(r.id() + ".engine-" + tag + ".csv");
    }

    /** Every engine metrics file of a run (a rerun removes them first). */
    public List<Path> engineMetricsFiles(PlannedRun r) throws IOException {
        Path folder = root.resolve("metrics");
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        String prefix = r.id() + ".engine-";
        try (var files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                            && f.getFileName().toString().endsWith(".csv"))
                    .sorted()
                    .toList();
        }
    }

    public Path jmeterLog(PlannedRun r) {
        return root.resolve("logs").resolve(r.id() + ".jmeter.log");
    }

    public Path jmeterOutput(PlannedRun r) {
        return root.resolve("logs").resolve(r.id() + ".jmeter.out");
    }

    public Path targetLog(PlannedRun r) {
        return root.resolve("logs").resolve(r.id() + ".target.log");
    }
    /** A command load's standard output: the run's result. */
    public Path output(PlannedRun r) {
        return root.resolve("output").resolve(r.id() + ".out");
    }
    /** A command load's standard error. */
    public Path outputErrors(PlannedRun r) {
        return root.resolve("logs").resolve(r.id() + ".command.err");
    }
    /** A multi-tenant run's control actions: {@code timeline/ENV-rN.csv} (time, seconds, tenant, kind, action, reason: {@link io.envbench.study.cpucontrol.TimelineCsv}). */
    public Path timeline(PlannedRun r) {
        return root.resolve("timeline").resolve(r.id() + ".csv");
    }
    /** A multi-tenant run's database rebuilds: {@code databases/ENV-rN.csv} (tenant, database, orders before and after, ms). */
    public Path databases(PlannedRun r) {
        return root.resolve("databases").resolve(r.id() + ".csv");
    }
    /** A tenant's output in a multi-tenant run: {@code logs/ENV-rN.tenant-K.target.log}. */
    public Path tenantTargetLog(PlannedRun r, String tenant) {
        return root.resolve("logs").resolve(r.id() + "." + tenant + ".target.log");
    }
    /** The JMeter plan of a multi-tenant experiment's runs: a thread group per tenant ({@code io.envbench.study.tenants.TenantsPlan}). */
    public Path tenantsPlan() {
        return root.resolve("tenants.jmx");
    }

    public Path report() {
        return root.resolve("report");
    }
    /** Which Docker daemon settings each run ran with ({@code dockerDaemon:} in the experiment): {@code run,environment,settings}. */
    public Path dockerDaemon() {
        return root.resolve("docker-daemon.csv");
    }

    /** Appends run {@code r}'s daemon settings to {@link #dockerDaemon()} (a header first). */
    public void appendDockerDaemon(PlannedRun r, DaemonSettings settings) throws IOException {
        Path f = dockerDaemon();
        String line = r.id() + "," + r.environment() + "," + settings.describe() + "\n";
        if (!Files.exists(f)) {
            line = "run,environment,dockerDaemon\n" + line;
        }
        Files.writeString(f, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** With {@code repetitions: auto}, what each round from the minimum on showed, and where the runs ended ({@link AutoRepetitions}). */
    public Path rounds() {
        return root.resolve("rounds.csv");
    }

    /** The machine the runs ran on ({@link HostDescription}); absent in run directories of older runners. */
    public Path host() {
        return root.resolve(HostDescription.FILE);
    }

    /** The runs' figures without their samples, written when the runs end ({@link RunSummary}). */
    public Path summary() {
        return root.resolve(RunSummary.FILE);
    }

    public Path junit() {
        return root.resolve("junit.xml");
    }
    /** Present while runs are missing: the report of such a folder is marked partial. */
    public Path partialMarker() {
        return root.resolve("PARTIAL");
    }

    public boolean partial() {
        return Files.exists(partialMarker());
    }
}
