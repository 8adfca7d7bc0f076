package io.envbench.study.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.output.OutputFolder;
import io.envbench.base.output.WholeRowFile;
import io.envbench.base.process.ProcessFileLock;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.control.registry.EnvBench;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.ContainerDeathWatch;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.measure.engines.EngineMetricsFiles;
import io.envbench.measure.engines.RemoteEngine;
import io.envbench.measure.engines.RemoteEngines;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import io.envbench.study.analysis.AutoRepetitions;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.analysis.RunResults;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.HttpLoad;
import io.envbench.study.experiment.LoadPlan;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.experiment.Schedule;
import io.envbench.study.tenants.TenantControl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an experiment: for every planned run, in the schedule's order, it starts the environment, runs
 * the assembled JMeter headless against it as a child process (the plan only reads {@code envbench.host}
 * and {@code envbench.port}), records the host and the environment's metrics, keeps the JTL, JMeter's
 * log and the target's output, and tears the environment down. The runner owns the environments, so the same
 * experiment drives remote JMeter engines ({@code load.engines}): the environment is started here, once, and every
 * engine loads it; each engine's metrics come back in the JTL and are written per engine. {@link #cancel()} (Ctrl-C) stops the load,
 * tears everything down and keeps what was recorded. A target that dies during its run (OOM killer, crash,
 * removed from outside) ends that run at once: its JMeter is stopped, the run is recorded as
 * {@code failed: target died: <reason>}, and the next run goes on. A multi-tenant experiment's run starts every tenant
 * at once and runs one JMeter with a thread group per tenant, its configuration's {@link TenantControl} acting after the
 * warm-up ({@link TenantsRun}). One experiment at a time per runner.
 */
public final class ExperimentRunner {
    private static final Logger log = LoggerFactory.getLogger(ExperimentRunner.class);
    /** Seconds between JMeter's {@code summary +} lines: the live figures. */
    static final int SUMMARY_INTERVAL_SECONDS = 2;
    /** Beyond its expected length, how long a run may take before JMeter is stopped (start-up, slow targets). */
    static final Duration RUN_GRACE = Duration.ofSeconds(120);

    /**
     * What became of the experiment: every run's record, and whether all planned runs completed.
     *
     * @param dataEndsEarly what could not be written (the disk filled): which files end early and why; empty when
     *                      every file is whole. The runs it names are in {@code runs} all the same.
     */
    public record Outcome(
            RunDirectory directory,
            Experiment experiment,
            List<RunRecord> runs,
            boolean complete,
            boolean cancelled,
            List<String> dataEndsEarly) {}

    private final EnvBench envbench;
    private final JMeterInstall jmeter;
    private final Path builtinHttpPlan;
    private final Duration metricsInterval;
    private volatile boolean cancelled;
    private final AtomicReference<RunningJMeter> load = new AtomicReference<>();
    /** Runs command loads; JMeter runs the others. */
    private final CommandLoadStep commandStep;
    /** Runs a multi-tenant experiment's runs: every tenant at once under one configuration. */
    private final TenantsRun tenantsRun;
    /** Whether an environment's {@code dockerDaemon:} may restart the Docker daemon (never unless the user says so). */
    private volatile RestartPermission dockerRestart = RestartPermission.REFUSED;
    /** The experiment's isolation of the load generator, decided when its runs start. */
    private volatile RunIsolation isolation;
    /** What the current run's processes were allowed. */
    private volatile RunIsolation.Run current;

    /**
     * @param envbench        whose environments the runs start (it is not closed here)
     * @param jmeter          the JMeter that runs the load
     * @param builtinHttpPlan the plan of the built-in HTTP load ({@code testplans/http-load.jmx})
     * @param metricsInterval between metrics readings, at least 100 ms
     */
    public ExperimentRunner(EnvBench envbench, JMeterInstall jmeter, Path builtinHttpPlan, Duration metricsInterval) {
        this(envbench, jmeter, builtinHttpPlan, metricsInterval, TenantControl.NONE_ONLY);
    }

    /**
     * @param tenantControls makes the CPU control of each configuration of a multi-tenant experiment (the integration
     *                       point of {@code io.envbench.study.cpucontrol}); {@link TenantControl#NONE_ONLY} runs {@code none} only
     */
    public ExperimentRunner(
            EnvBench envbench,
            JMeterInstall jmeter,
            Path builtinHttpPlan,
            Duration metricsInterval,
            TenantControl.Factory tenantControls) {
        this.envbench = envbench;
        this.jmeter = jmeter;
        this.builtinHttpPlan = builtinHttpPlan;
        this.metricsInterval = metricsInterval;
        this.commandStep = new CommandLoadStep(envbench, metricsInterval, Path.of("/sys/fs/cgroup"));
        this.tenantsRun = new TenantsRun(envbench, tenantControls, () -> cancelled, load);
    }

    /**
     * Lets the environments' {@code dockerDaemon:} settings restart the Docker daemon (the CLI's
     * {@code --allow-docker-restart}, the controller's confirmation); without it an experiment that needs other settings
     * than the daemon has is refused before its first run.
     */
    public ExperimentRunner dockerRestart(RestartPermission permission) {
        this.dockerRestart = Objects.requireNonNull(permission, "permission");
        return this;
    }

    /** Runs every planned run of the experiment into a new run directory. */
    public Outcome run(Experiment e, RunDirectory dir, RunProgress progress) throws IOException {
        checkDockerDaemon(
                e, envbench.dockerDaemon(), dockerRestart); // a refused daemon change leaves no run directory behind
        dir.create();
        try (ProcessFileLock held = dir.lock()) {
            return runLocked(e, dir, progress);
        }
    }

    private Outcome runLocked(Experiment e, RunDirectory dir, RunProgress progress) throws IOException {
        e = withCapacityRate(e, dir, progress);
        Path part = dir.experiment().resolveSibling(dir.experiment().getFileName() + ".part");
        try { // whole or not at all: --resume reads it
            Files.writeString(part, e.toYaml());
            Files.move(part, dir.experiment(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ex) {
            Files.deleteIfExists(part);
            throw new IOException(
                    "cannot write " + dir.experiment() + ": " + OutputFolder.why(ex)
                            + "; give a run directory on a writable file system with free space",
                    ex);
        }
        return runMissingLocked(e, dir, progress);
    }

    /**
     * The experiment with its rate set, when the file wrote it as a share of a capacity ({@code 80% of
     * capacity(bare)}): that capacity is searched first, into {@code capacity/} of the run directory.
     *
     * @throws IOException when the search found no capacity (even its first rate failed), or was cancelled
     */
    private Experiment withCapacityRate(Experiment e, RunDirectory dir, RunProgress progress) throws IOException {
        Optional<HttpLoad> http = e.load().http().filter(HttpLoad::awaitsCapacity);
        if (http.isEmpty()) {
            return e;
        }
        HttpLoad.RateShare share = http.get().share().orElseThrow();
        progress.log("requestsPerSecond is " + share.text() + ": searching that capacity first");
        CapacitySearch.Result found =
                capacity(e, share.environment(), dir.root().resolve("capacity"), progress);
        progress.log(found.summary());
        if (Double.isNaN(found.capacity())) {
            throw new IOException(
                    "requestsPerSecond: " + share.text() + " has no capacity to take a share of: " + found.summary());
        }
        double rate = Math.round(found.capacity() * share.percent() / 100 * 10) / 10.0;
        progress.log(String.format(
                Locale.ROOT,
                "requestsPerSecond: %s = %.1f/s (capacity/%s.csv)%s",
                share.text(),
                rate,
                share.environment(),
                found.generatorBound()
                        ? "; WARNING: JMeter was saturated at the knee, so this is a share of the"
                                + " load generator's capacity"
                        : ""));
        return e.withRate(rate);
    }

    /**
     * Runs the planned runs of a run directory that have no {@code ok} record yet (after Ctrl-C, a crash,
     * a failed start), then the outcome of all.
     */
    public Outcome runMissing(Experiment e, RunDirectory dir, RunProgress progress) throws IOException {
        dir.create();
        try (ProcessFileLock held = dir.lock()) {
            return runMissingLocked(e, dir, progress);
        }
    }

    private Outcome runMissingLocked(Experiment e, RunDirectory dir, RunProgress progress) throws IOException {
        Optional<AutoRepetitions.Stop> stoppedEarlier =
                e.repetitions().isAuto() ? AutoRepetitions.stoppedAt(dir.rounds()) : Optional.empty();
        List<PlannedRun> plan =
                stoppedEarlier.map(s -> Schedule.upTo(e, s.round())).orElseGet(() -> Schedule.of(e));
        int stoppedAfter = stoppedEarlier.map(AutoRepetitions.Stop::round).orElse(Integer.MAX_VALUE);
        // a round is judged once, when it first completes: a resumed run re-running one of its runs does not judge it
        // again on later rounds' data, and a recorded stop stands
        int judgedUpTo = e.repetitions().isAuto() ? AutoRepetitions.lastRound(dir.rounds()) : 0;
        Set<String> done = new HashSet<>();
        for (RunRecord r : dir.runs().read()) {
            if (r.ok()) {
                done.add(r.run().id());
            }
        }
        Files.writeString(
                dir.partialMarker(),
                "runs are missing; complete them with: envbench run --resume " + dir.root() + "\n");
        List<RunRecord> unwritten = new ArrayList<>();
        List<String> dataEndsEarly = new ArrayList<>();
        Duration expectedRun = expectedLength(e).plus(Duration.ofSeconds(5));
        long doneMillis = 0;
        int finished = 0;
        int index = 0;
        List<PlannedRun> todo =
                plan.stream().filter(r -> !done.contains(r.id())).toList();
        isolation = RunIsolation.of(e);
        if (!todo.isEmpty()) {
            progress.log(isolation.decision().describe());
        }
        DaemonPlan daemon =
                todo.isEmpty() ? null : DaemonPlan.open(e, envbench.dockerDaemon(), dockerRestart, progress);
        try {
            for (PlannedRun r : plan) {
                index++;
                if (done.contains(r.id())) {
                    continue;
                }
                if (cancelled) {
                    break;
                }
                Optional<String> daemonFailed =
                        daemon == null ? Optional.empty() : daemon.settingsFor(e, r, dir, progress);
                int left = todo.size() - finished;
                Duration perRun = finished == 0 ? expectedRun : Duration.ofMillis(doneMillis / finished);
                progress.runStarting(r, index, plan.size(), perRun.multipliedBy(left));
                long t0 = System.nanoTime();
                List<String> stopped = new CopyOnWriteArrayList<>();
                RunRecord rec = daemonFailed.isPresent()
                        ? new RunRecord(
                                r,
                                Instant.now(),
                                Instant.now(),
                                "failed: docker daemon: " + firstLine(daemonFailed.get()),
                                0,
                                0,
                                null)
                        : runOne(e, r, dir, progress, perRun.multipliedBy(left), stopped);
                doneMillis += (System.nanoTime() - t0) / 1_000_000;
                finished++;
                try {
                    dir.runs().append(rec);
                } catch (IOException ex) {
                    unwritten.add(rec);
                    stopped.add("runs.csv: " + ex.getMessage());
                }
                progress.runEnded(rec, index, plan.size());
                if (e.repetitions().isAuto()
                        && stoppedEarlier.isEmpty()
                        && r.round() > judgedUpTo
                        && r.round() >= e.repetitions().min()
                        && stopped.isEmpty()
                        && !cancelled
                        && (index == plan.size() || plan.get(index).round() != r.round())) {
                    AutoRepetitions.Decision d = judgeRound(e, dir, r.round(), progress);
                    if (d.stop()) {
                        stoppedAfter = r.round();
                        break;
                    }
                }
                if (!stopped
                        .isEmpty()) { // the disk is full (or went read-only): runs after this one would record nothing
                    dataEndsEarly.addAll(stopped);
                    progress.log("WARNING: the run directory stopped taking data: " + String.join("; ", stopped)
                            + "; no further run is started; free space, then complete with: envbench run --resume "
                            + dir.root());
                    break;
                }
            }
        } finally {
            if (daemon != null) {
                daemon.putBack(progress);
            }
        }
        List<RunRecord> all = new ArrayList<>(dir.runs().read());
        all.addAll(unwritten);
        Set<String> ok = new HashSet<>();
        all.stream().filter(RunRecord::ok).forEach(r -> ok.add(r.run().id()));
        int rounds = stoppedAfter;
        boolean complete = plan.stream().filter(r -> r.round() <= rounds).allMatch(r -> ok.contains(r.id()));
        if (complete) {
            Files.deleteIfExists(dir.partialMarker());
        }
        return new Outcome(dir, e, all, complete && dataEndsEarly.isEmpty(), cancelled, List.copyOf(dataEndsEarly));
    }

    /**
     * {@code repetitions: auto} after a round: the figures of every completed run so far, judged and written to the run
     * directory's {@code rounds.csv}, and said.
     */
    private static AutoRepetitions.Decision judgeRound(Experiment e, RunDirectory dir, int round, RunProgress progress)
            throws IOException {
        List<RunRecord> ok = dir.runs().read().stream()
                .filter(r -> r.ok() && r.run().round() <= round)
                .toList();
        AutoRepetitions.Decision d = AutoRepetitions.judge(
                RunResults.read(dir, e, ok).comparison(), e.environmentNames(), e.repetitions(), round);
        AutoRepetitions.append(dir.rounds(), d);
        progress.log("round " + round + ": " + (d.stop() ? "the runs end here: " : "another round: ") + d.why());
        return d;
    }

    /**
     * Whether the experiment's {@code dockerDaemon:} settings can be had on {@code daemon} with {@code permission}, checked
     * before anything is made (nothing is changed here).
     *
     * @throws InvalidSettingException naming the environment's {@code dockerDaemon} and the fix, when they cannot
     */
    public static void checkDockerDaemon(Experiment e, DockerDaemon daemon, RestartPermission permission) {
        DaemonPlan.check(e, daemon, permission);
    }

    /**
     * Searches the highest fixed rate of the experiment's built-in HTTP load that {@code environment} keeps within the
     * experiment's {@code capacity:} objectives; each step's files and {@code ENVIRONMENT.csv} go to {@code out}.
     * {@link #cancel} ends it.
     *
     * @throws InvalidSettingException naming the field when the load is no built-in HTTP load or the environment is
     *     unknown
     */
    public CapacitySearch.Result capacity(Experiment e, String environment, Path out, RunProgress progress)
            throws IOException {
        return new CapacityRun(envbench, jmeter, builtinHttpPlan, RunIsolation.of(e), load, () -> cancelled)
                .search(e, environment, out, progress);
    }

    /** Stops the load and the environment of the running run; the runs not started yet are not started. */
    public void cancel() {
        cancelled = true;
        envbench.environments().cancelStarts(); // a slow start is not waited for
        RunningJMeter j = load.get();
        if (j != null) {
            j.stop("the experiment is cancelled"); // JMeter ends its test and its engines'; the JTL keeps every
            // complete line
        }
        commandStep.cancel();
    }

    public boolean cancelled() {
        return cancelled;
    }

    /** The length of one run's load (warm-up included), for progress and time left. */
    static Duration expectedLength(Experiment e) {
        return e.load().duration();
    }

    /** @param stopped gets the output files of this run that stopped taking data (disk full), each with why */
    private RunRecord runOne(
            Experiment e, PlannedRun r, RunDirectory dir, RunProgress progress, Duration timeLeft, List<String> stopped)
            throws IOException {
        Instant start = Instant.now();
        current = isolation.run();
        for (Path p : List.of(
                dir.jtl(r),
                dir.metrics(r),
                MetricsFile.sourcesFile(dir.metrics(r)),
                dir.jmeterLog(r),
                dir.jmeterOutput(r),
                dir.targetLog(r),
                dir.output(r),
                dir.outputErrors(r))) {
            Files.deleteIfExists(p); // a rerun (--resume) starts clean
        }
        for (Path p : dir.engineMetricsFiles(r)) {
            Files.deleteIfExists(p);
            Files.deleteIfExists(MetricsFile.sourcesFile(p));
        }
        if (e.tenancy().isPresent()) {
            TenantsRun.Result res;
            try {
                res = tenantsRun.run(
                        e,
                        r,
                        dir,
                        progress,
                        stopped,
                        (plan, props, died, hooks) ->
                                load(e, r, dir, plan, props, progress, timeLeft, died, stopped, hooks));
            } catch (
                    IOException
                            ex) { // JMeter, the plan or the timeline could not be started or written: this run fails,
                // the others go on
                progress.log(r.id() + ": " + ex.getMessage());
                res = new TenantsRun.Result(
                        cancelled ? RunRecord.INTERRUPTED : "failed: " + firstLine(ex.getMessage()), 0, null);
            }
            return record(e, r, dir, start, res.status(), res.startToReadyMs(), stopped, res.died());
        }
        EnvironmentDefinition def = e.environment(r.environment()).definition();
        RunningTarget target;
        try {
            target = envbench.environments().start(def);
        } catch (TargetStartException | InvalidSettingException ex) {
            String why = ex.getMessage();
            progress.log(r.id() + ": " + def.name() + " did not start: " + why);
            return new RunRecord(
                    r,
                    start,
                    Instant.now(),
                    cancelled ? RunRecord.INTERRUPTED : "failed: start: " + firstLine(why),
                    0,
                    0,
                    null);
        }
        AtomicReference<String> died = new AtomicReference<>();
        EnvironmentRegistry.Listener deathOfThisRun = new EnvironmentRegistry.Listener() {
            @Override
            public void died(String environment, String reason) {
                if (environment.equals(def.name()) && died.compareAndSet(null, reason)) {
                    progress.log(r.id() + ": "
                            + (ContainerDeathWatch.isDaemonLoss(reason) ? reason : environment + " died: " + reason)
                            + "; its load is stopped, the next run goes on");
                    RunningJMeter j = load.get();
                    if (j != null) {
                        j.stop(environment + " died"); // not left hammering a dead port for the rest of the run
                    }
                }
            }
        };
        envbench.environments().addListener(deathOfThisRun);
        // a death between the start and the listener is marked all the same
        envbench.environments().whyDown(def.name()).ifPresent(why -> deathOfThisRun.died(def.name(), why));
        String status;
        try {
            String unconfined = null;
            try {
                current.targetReady(target);
            } catch (IOException ex) {
                unconfined = ex.getMessage();
                progress.log(r.id() + ": " + unconfined);
            }
            status = unconfined != null
                    ? "failed: isolation: " + firstLine(unconfined)
                    : e.load().command().isPresent()
                            ? commandStep.run(
                                    e.load().command().get(),
                                    e.environment(r.environment()),
                                    r,
                                    dir,
                                    target,
                                    progress,
                                    died,
                                    stopped)
                            : load(e, r, dir, target, progress, timeLeft, died, stopped);
        } catch (IOException ex) { // JMeter could not be started: this run fails, the others go on
            status = "failed: JMeter did not start: " + ex.getMessage();
        } finally {
            envbench.environments().removeListener(deathOfThisRun);
            writeTargetLog(dir.targetLog(r), target, died.get());
            envbench.environments().stop(def.name());
        }
        if (died.get() != null) {
            status = ContainerDeathWatch.isDaemonLoss(died.get())
                    ? "failed: " + died.get()
                    : "failed: target died: " + died.get();
        }
        writeEngineMetrics(e, r, dir, progress);
        return record(e, r, dir, start, status, target.startToReady().toMillis(), stopped, died.get());
    }

    /** The record of a run that has ended: its samples counted, a cut JTL or a stopped output said. */
    private RunRecord record(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            Instant start,
            String status,
            long startToReadyMs,
            List<String> stopped,
            String died)
            throws IOException {
        Instant end = Instant.now();
        long samples = 0;
        long[] firstStartMs = {Long.MAX_VALUE};
        if (Files.exists(dir.jtl(r))) {
            try {
                samples = JtlReader.read(dir.jtl(r), s -> firstStartMs[0] = Math.min(firstStartMs[0], s.startMs()));
            } catch (IOException ex) {
                // no header: JMeter stopped before its first sample
            }
        }
        if (Files.exists(dir.jtl(r))
                && WholeRowFile.lengthOfWholeRows(dir.jtl(r)) < Files.size(dir.jtl(r))
                && (status.equals(RunRecord.OK) || !stopped.isEmpty())) {
            // JMeter ended on its own (or was stopped because the disk filled) with its last row cut: it could not
            // write
            stopped.add("jtl/" + dir.jtl(r).getFileName()
                    + ": its last row is cut (left out): JMeter could not write it (" + freeSpace(dir) + ")");
        }
        if (!stopped.isEmpty() && died == null && !cancelled) {
            status = "failed: output stopped: " + String.join("; ", stopped);
        }
        if (status.equals(RunRecord.OK)
                && samples == 0
                && e.load().command().isEmpty()) { // a command's result is its output
            status = "failed: no samples; see logs/" + dir.jmeterLog(r).getFileName();
        }
        return new RunRecord(
                r,
                start,
                end,
                status,
                samples,
                startToReadyMs,
                samples == 0 ? null : Instant.ofEpochMilli(firstStartMs[0]),
                current.cpus());
    }

    /** Runs JMeter against the started target; returns the run's status. */
    private String load(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            RunningTarget target,
            RunProgress progress,
            Duration timeLeft,
            AtomicReference<String> died,
            List<String> stopped)
            throws IOException {
        Map<String, String> props = new LinkedHashMap<>();
        target.endpoint().ifPresent(ep -> {
            props.put("envbench.host", ep.host());
            props.put("envbench.port", Integer.toString(ep.port()));
        });
        props.put("envbench.run.environment", r.environment());
        Path plan;
        if (e.load().http().isPresent()) {
            HttpLoad h = e.load().http().get();
            plan = builtinHttpPlan;
            props.put("envbench.path", h.path());
            props.put("envbench.threads", Integer.toString(h.threads()));
            // decided here once, not by an expression per sample in the plan
            props.put("envbench.closed.loop", Boolean.toString(h.closedLoop()));
            props.put("envbench.fixed.rate", Boolean.toString(!h.closedLoop()));
            props.put("envbench.rate.per.minute", Double.toString(h.requestsPerSecond() * 60));
            props.put("envbench.rampup.seconds", Long.toString(h.rampUp().toSeconds()));
            props.put("envbench.duration.seconds", Long.toString(Math.max(1, (long)
                    Math.ceil(h.duration().toMillis() / 1000.0))));
        } else {
            plan = e.load().plan().orElseThrow();
            props.putAll(e.load().jmeterProperties());
        }
        return load(e, r, dir, plan, props, progress, timeLeft, died, stopped, LoadHooks.NONE);
    }

    /**
     * What the load tells its caller: JMeter started (with the run's metrics collector, null when it could not be made),
     * and the load ended (also when it failed). Both on the runner's thread.
     */
    interface LoadHooks {
        LoadHooks NONE = new LoadHooks() {};

        default void started(MetricsCollector metrics, Path jtl) {}

        default void ended() {}
    }

    /** Runs {@code plan} in JMeter with {@code props}, the run's metrics collected; returns the run's status. */
    private String load(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            Path plan,
            Map<String, String> props,
            RunProgress progress,
            Duration timeLeft,
            AtomicReference<String> died,
            List<String> stopped,
            LoadHooks hooks)
            throws IOException {
        props.put("summariser.interval", Integer.toString(SUMMARY_INTERVAL_SECONDS));
        if (cancelled) {
            return RunRecord.INTERRUPTED;
        }
        if (died.get() != null) {
            return "failed: target died";
        }
        List<String> cmd =
                isolation.jmeterCommand(command(e.load().engines(), plan, dir.jtl(r), dir.jmeterLog(r), props));
        RunningJMeter jmeterRun = RunningJMeter.start(cmd, dir.root());
        Process p = jmeterRun.process();
        current.jmeterStarted(p.pid());
        load.set(jmeterRun);
        if (cancelled || died.get() != null) { // either came while JMeter started
            jmeterRun.stop(cancelled ? "the experiment is cancelled" : "the target died");
        }
        MetricsCollector metrics = null;
        try {
            metrics = new MetricsCollector(envbench.environments(), metricsInterval, dir.metrics(r), p.pid());
            metrics.addListener(tick -> progress.metrics(r, tick));
            metrics.onFileStopped(
                    why -> { // the disk filled: the run's data ends here, so its load does too
                        stopped.add("metrics/" + dir.metrics(r).getFileName() + ": " + why
                                + "; it ends at its last whole row");
                        progress.log(r.id() + ": WARNING: metrics/"
                                + dir.metrics(r).getFileName() + " stopped: " + why + "; the run's load is stopped");
                        jmeterRun.stop("the metrics file stopped");
                    });
            metrics.start();
        } catch (IOException | RuntimeException ex) {
            progress.log(r.id() + ": no metrics: " + ex.getMessage());
        }
        Thread output =
                new Thread(() -> copyOutput(p, dir.jmeterOutput(r), r, progress, timeLeft), "envbench-jmeter-output");
        output.setDaemon(true);
        output.start();
        Duration deadline = expectedLength(e).plus(RUN_GRACE);
        try {
            hooks.started(metrics, dir.jtl(r));
            boolean ended = p.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                jmeterRun.stop("it did not finish within " + deadline.toSeconds() + " s");
                p.waitFor(
                        RunningJMeter.STOP_GRACE.plus(RunningJMeter.KILL_AFTER).toSeconds() + 5, TimeUnit.SECONDS);
                return "failed: JMeter did not finish within " + deadline.toSeconds() + " s; see logs/"
                        + dir.jmeterLog(r).getFileName();
            }
            output.join(5000);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return RunRecord.INTERRUPTED;
        } finally {
            load.set(null);
            hooks.ended();
            if (metrics != null) {
                metrics.close();
            }
        }
        // JMeter runs in a session of its own (Ctrl-C reaches the runner only), but anyone may still signal it
        if (cancelled || p.exitValue() == 130 || p.exitValue() == 143) {
            return RunRecord.INTERRUPTED;
        }
        return p.exitValue() == 0
                ? RunRecord.OK
                : "failed: JMeter exited with " + p.exitValue() + "; see logs/"
                        + dir.jmeterLog(r).getFileName();
    }

    /**
     * The JMeter command of a run: the runner's own JMeter, or the controlling JMeter of remote engines. With engines,
     * the plan's properties go to the engines ({@code -G}), each engine's thread group of the Engine Metrics sampler
     * gets its one thread, and the controlling JMeter gets the RMI keystore; the runner has started the environment,
     * so the engines only load {@code envbench.host:envbench.port}.
     */
    private List<String> command(RemoteEngines engines, Path plan, Path jtl, Path log, Map<String, String> props) {
        if (engines.none()) {
            return jmeter.headless(plan, jtl, log, props, List.of());
        }
        Map<String, String> own = new LinkedHashMap<>(engines.rmiProperties(RemoteEngines.password(System.getenv())));
        Map<String, String> onEngines = new LinkedHashMap<>(props);
        own.put(
                "summariser.interval",
                onEngines.remove("summariser.interval")); // the summary is the controlling JMeter's
        onEngines.put(LoadPlan.ENGINE_METRICS_THREADS_PROPERTY, "1");
        onEngines.put("envbench.metrics.interval.ms", Long.toString(metricsInterval.toMillis()));
        // RMI calls back into the controlling JMeter (every sample comes that way): on loopback engines, on loopback
        // too
        List<String> jvm = engines.allLoopback() ? List.of("-Djava.rmi.server.hostname=127.0.0.1") : List.of();
        return jmeter.remote(plan, jtl, log, engines.remoteHosts(), own, onEngines, jvm);
    }

    /**
     * With remote engines: each engine's metrics, carried in the JTL, into {@code metrics/ENV-rN.engine-HOST_PORT.csv};
     * an engine that sent none is said in the progress log.
     */
    private static void writeEngineMetrics(Experiment e, PlannedRun r, RunDirectory dir, RunProgress progress) {
        RemoteEngines engines = e.load().engines();
        if (engines.none() || !Files.exists(dir.jtl(r))) {
            return;
        }
        try {
            Map<String, Path> files =
                    EngineMetricsFiles.split(dir.jtl(r), r.environment(), engine -> dir.engineMetrics(r, engine));
            for (RemoteEngine engine : engines.engines()) {
                if (!files.containsKey(engine.toString())) {
                    progress.log(r.id() + ": no metrics came from engine " + engine + "; see its jmeter-server log");
                }
            }
        } catch (IOException ex) {
            progress.log(r.id() + ": engine metrics: " + ex.getMessage());
        }
    }

    /** JMeter's console into a file, and its {@code summary +} lines as live figures. */
    private static void copyOutput(Process p, Path file, PlannedRun r, RunProgress progress, Duration timeLeft) {
        long t0 = System.nanoTime();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(
                        file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            LiveFigures live = LiveFigures.NONE;
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
                LiveFigures next = live.next(line);
                if (next != live) {
                    live = next;
                    out.flush();
                    Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
                    progress.live(
                            r, live, timeLeft.minus(elapsed).isNegative() ? Duration.ZERO : timeLeft.minus(elapsed));
                }
            }
        } catch (IOException e) {
            log.debug("JMeter output: {}", e.toString());
        }
    }

    /** What the run directory's file system has left, for a message. */
    private static String freeSpace(RunDirectory dir) {
        try {
            long free = Files.getFileStore(dir.root()).getUsableSpace();
            return free < 64 * 1024
                    ? "no space left on device: " + free + " bytes free in " + dir.root()
                    : free / 1024 + " KiB free in " + dir.root();
        } catch (IOException ex) {
            return "free space unknown: " + ex.getMessage();
        }
    }

    static void writeTargetLog(Path file, RunningTarget target, String diedOf) {
        try {
            Files.writeString(
                    file,
                    target.describe() + (diedOf == null ? "" : "\ndied during the run: " + diedOf)
                            + "\n--- last 500 lines of output ---\n" + target.logs(500) + "\n");
        } catch (IOException | RuntimeException e) {
            log.warn("target log of {}: {}", target.environment(), e.toString());
        }
    }

    static String firstLine(String s) {
        int nl = s == null ? -1 : s.indexOf('\n');
        return s == null ? "" : nl < 0 ? s : s.substring(0, nl);
    }
}
