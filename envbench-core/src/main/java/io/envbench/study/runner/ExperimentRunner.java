package io.envbench.study.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.output.OutputFolder;
import io.envbench.base.process.ProcessFileLock;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.control.registry.EnvBench;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.ContainerDeathWatch;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.study.analysis.AutoRepetitions;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.analysis.RunResults;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.HttpLoad;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.experiment.Schedule;
import io.envbench.study.tenants.TenantControl;

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
 *
 * <p>The runner holds the schedule: which runs are left (a resumed directory, {@code repetitions: auto}'s rounds), their
 * order, the Docker daemon's settings around them ({@link DaemonPlan}), and the outcome. A run's load is
 * {@link JMeterLoadStep}'s or {@link CommandLoadStep}'s; {@link RunRecorder} clears its files before and records it
 * after.
 */
public final class ExperimentRunner {
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
    /** Runs JMeter loads. */
    private final JMeterLoadStep jmeterStep;
    /** Clears a run's files before it and records it after. */
    private final RunRecorder recorder;
    /** Runs a multi-tenant experiment's runs: every tenant at once under one configuration. */
    private final TenantsRun tenantsRun;
    /** Whether an environment's {@code dockerDaemon:} may restart the Docker daemon (never unless the user says so). */
    private volatile RestartPermission dockerRestart = RestartPermission.REFUSED;
    /** The experiment's isolation of the load generator, decided when its runs start. */
    private volatile RunIsolation isolation;
    /** What the current run's processes were allowed. */
    private volatile RunIsolation.Run current;
    /**
     * The next run's JMeter, started once the run before it has ended its test (JMeter's exit, the environment's stop
     * and the next one's start then overlap its JVM's start): it waits at its start gate, on its own CPUs when
     * isolated, and measures nothing until its run opens the gate. Taken by the run it was started for, else abandoned:
     * it exits without a test and its log goes. One per call that runs runs, closed when they end, so a start that
     * comes late (a JMeter's output read after its run was given up) is refused.
     */
    private volatile StartedAhead<PlannedRun> ahead = new StartedAhead<>();

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
        this.jmeterStep = new JMeterLoadStep(envbench, jmeter, builtinHttpPlan, metricsInterval, load, () -> cancelled);
        this.recorder = new RunRecorder(() -> cancelled);
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
        Path steps = dir.root().resolve("capacity");
        CapacitySearch.Result found = capacity(e, share.environment(), steps, progress);
        progress.log(found.summary());
        progress.capacitySearched(found, steps);
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
        for (PlannedRun r : plan) {
            if (done.contains(
                    r.id())) { // a run recorded while its compression could not be made, or by an older runner
                RunRecorder.compress(e.results(), r, dir, progress);
            }
        }
        if (!todo.isEmpty()) {
            RunRecorder.writeHost(dir, dockerVersion()); // before the runs: a killed runner still leaves it
        }
        if (!todo.isEmpty()) {
            progress.log(isolation.decision().describe());
            progress.log(JMeterClassArchive.ensure(jmeter, dir.root().resolve("logs"))
                    .describe());
        }
        DaemonPlan daemon = todo.isEmpty()
                ? null
                : DaemonPlan.open(e, envbench.environments().docker(), dockerRestart, progress, envbench.targetsDir());
        StartedAhead<PlannedRun> runsAhead = new StartedAhead<>();
        ahead = runsAhead;
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
                        : runOne(e, r, nextToRun(plan, index, done), dir, progress, perRun.multipliedBy(left), stopped);
                doneMillis += (System.nanoTime() - t0) / 1_000_000;
                finished++;
                try {
                    dir.runs().append(rec);
                } catch (IOException ex) {
                    unwritten.add(rec);
                    stopped.add("runs.csv: " + ex.getMessage());
                }
                progress.runEnded(rec, index, plan.size());
                // after the progress heard of it (a live view reads the JTL's last lines then), before the next run; a
                // crash meanwhile leaves the plain file whole, which --resume compresses
                RunRecorder.compress(e.results(), r, dir, progress);
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
            runsAhead.close(); // the experiment ended before the run it was started for (auto repetitions, a full disk)
            if (daemon != null) {
                daemon.putBack(progress);
            }
        }
        if (!todo.isEmpty()) {
            // again now the runs have reached Docker (if they use it): its version is only known once connected
            RunRecorder.writeHost(dir, dockerVersion());
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

    /** The first run after position {@code index} (1-based) not recorded yet, or null. */
    private static PlannedRun nextToRun(List<PlannedRun> plan, int index, Set<String> done) {
        return plan.subList(index, plan.size()).stream()
                .filter(r -> !done.contains(r.id()))
                .findFirst()
                .orElse(null);
    }

    /** The Docker engine's version when the runner's connection has answered; never connects for it. */
    private Optional<String> dockerVersion() {
        try {
            return envbench.environments()
                    .docker()
                    .connected()
                    .map(c -> c.versionCmd().exec().getVersion());
        } catch (RuntimeException e) {
            return Optional.empty(); // the daemon went away meanwhile: the host file says Docker's version is unknown
        }
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
        progress.log(JMeterClassArchive.ensure(jmeter, out).describe());
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
        ahead.abandon();
    }

    public boolean cancelled() {
        return cancelled;
    }

    /** The length of one run's load (warm-up included), for progress and time left. */
    static Duration expectedLength(Experiment e) {
        return e.load().duration();
    }

    /**
     * @param next    the run planned after this one (null: none), whose JMeter may start once this run's test has ended
     * @param stopped gets the output files of this run that stopped taking data (disk full), each with why
     */
    private RunRecord runOne(
            Experiment e,
            PlannedRun r,
            PlannedRun next,
            RunDirectory dir,
            RunProgress progress,
            Duration timeLeft,
            List<String> stopped)
            throws IOException {
        Instant start = Instant.now();
        current = isolation.run();
        RunningJMeter started = ahead.take(r);
        if (started == null) {
            RunRecorder.clear(dir, r);
        }
        // a JMeter started ahead and not handed to the load step would wait at its gate: ended here, whatever happens
        try {
            if (e.tenancy().isPresent()) {
                TenantsRun.Result res;
                try (RunIsolation.RunnerCpus runner = isolation.runnerOnGeneratorCpus()) {
                    res = tenantsRun.run(
                            e,
                            r,
                            dir,
                            progress,
                            stopped,
                            (plan, props, died, hooks) -> jmeterStep.run(
                                    e, r, dir, plan, props, progress, timeLeft, died, stopped, hooks, isolation,
                                    current));
                } catch (IOException ex) { // JMeter, the plan or the timeline could not be started or written: this run
                    // fails,
                    // the others go on
                    progress.log(r.id() + ": " + ex.getMessage());
                    res = new TenantsRun.Result(
                            cancelled ? RunRecord.INTERRUPTED : "failed: " + firstLine(ex.getMessage()), 0, null);
                }
                return recorder.record(
                        e, r, dir, start, res.status(), res.startToReadyMs(), stopped, res.died(), current);
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
            // the runner on the generator's CPUs while the run loads, and free between runs, where its work (the
            // environments' stop and start, the JTL's compression) would otherwise queue behind the next JMeter's start
            RunIsolation.RunnerCpus runnerCpus = null;
            try {
                String unconfined = null;
                try {
                    current.targetReady(target);
                    runnerCpus = isolation.runnerOnGeneratorCpus();
                } catch (IOException ex) {
                    unconfined = ex.getMessage();
                    progress.log(r.id() + ": " + unconfined);
                }
                // the load step owns the JMeter started ahead from here on, whatever happens in it
                RunningJMeter handed = unconfined == null && e.load().command().isEmpty() ? started : null;
                if (handed != null) {
                    started = null;
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
                                : jmeterStep.run(
                                        e,
                                        r,
                                        dir,
                                        target,
                                        progress,
                                        timeLeft,
                                        died,
                                        stopped,
                                        isolation,
                                        current,
                                        handed,
                                        () -> startAhead(e, next, dir, progress));
            } catch (IOException ex) { // JMeter could not be started: this run fails, the others go on
                status = "failed: JMeter did not start: " + ex.getMessage();
            } finally {
                if (runnerCpus != null) {
                    try {
                        runnerCpus.close();
                    } catch (IOException ex) {
                        progress.log(r.id() + ": the runner's own CPUs could not be put back: " + ex.getMessage());
                    }
                }
                envbench.environments().removeListener(deathOfThisRun);
                RunRecorder.writeTargetLog(dir.targetLog(r), target, died.get());
                envbench.environments().stop(def.name());
            }
            if (died.get() != null) {
                status = ContainerDeathWatch.isDaemonLoss(died.get())
                        ? "failed: " + died.get()
                        : "failed: target died: " + died.get();
            }
            RunRecorder.writeEngineMetrics(e, r, dir, progress);
            return recorder.record(
                    e, r, dir, start, status, target.startToReady().toMillis(), stopped, died.get(), current);
        } finally {
            if (started != null) { // what it wrote only: the run's own files are on record by now
                StartedAhead.discard(started, () -> RunRecorder.clearJMeter(dir, r));
            }
        }
    }

    static String firstLine(String s) {
        int nl = s == null ? -1 : s.indexOf('\n');
        return s == null ? "" : nl < 0 ? s : s.substring(0, nl);
    }

    /** Starts {@code next}'s JMeter ahead (on JMeter's output thread); nothing when it cannot start ahead. */
    private void startAhead(Experiment e, PlannedRun next, RunDirectory dir, RunProgress progress) {
        if (next == null) {
            return;
        }
        StartedAhead.Files files = () -> RunRecorder.clear(dir, next);
        ahead.start(
                next,
                // asked under the holder's lock: a cancel abandons what waits under it too
                () -> cancelled ? null : jmeterStep.startAhead(e, next, dir, isolation, files),
                files,
                why -> progress.log(next.id() + ": JMeter did not start ahead: " + why));
    }
}
