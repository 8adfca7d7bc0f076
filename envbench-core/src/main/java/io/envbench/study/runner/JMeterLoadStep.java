package io.envbench.study.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.envbench.base.environment.RunningTarget;
import io.envbench.control.registry.EnvBench;
import io.envbench.measure.engines.RemoteEngines;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.HttpLoad;
import io.envbench.study.experiment.LoadPlan;
import io.envbench.study.experiment.PlannedRun;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load step of one run when JMeter makes the load: the run's JMeter properties (the built-in HTTP load's, or a
 * plan's own), the command (the runner's JMeter headless, or the controlling JMeter of remote engines), then JMeter
 * as a child process confined as the run's isolation says, with the run's metrics recorded beside it, its console kept
 * and read for the live figures, and a deadline past which it is stopped. The status it returns is the one
 * {@code runs.csv} records. {@link CommandLoadStep} is the other load step; the runner's own steps (start, stop,
 * records) are the same for both. The running JMeter is published in the runner's {@code load} so that a cancel or a
 * target's death can stop it.
 */
final class JMeterLoadStep {
    // logged under the runner's name, which log settings and readers of its lines know
    private static final Logger log = LoggerFactory.getLogger(ExperimentRunner.class);
    /** Seconds between JMeter's {@code summary +} lines: the live figures. */
    static final int SUMMARY_INTERVAL_SECONDS = 2;
    /** Beyond its expected length, how long a run may take before JMeter is stopped (start-up, slow targets). */
    static final Duration RUN_GRACE = Duration.ofSeconds(120);
    /** How JMeter's console line at the end of its test starts ({@code Tidying up ...    @ DATE}, or {@code remote}). */
    static final String TEST_ENDED = "Tidying up ";

    private final EnvBench envbench;
    private final JMeterInstall jmeter;
    private final Path builtinHttpPlan;
    private final Duration metricsInterval;
    private final AtomicReference<RunningJMeter> load;
    private final BooleanSupplier cancelled;

    /**
     * @param load      where the running JMeter is published while it runs (the runner's cancel stops it from there)
     * @param cancelled whether the experiment is cancelled: no JMeter is started then, a started one is stopped
     */
    JMeterLoadStep(
            EnvBench envbench,
            JMeterInstall jmeter,
            Path builtinHttpPlan,
            Duration metricsInterval,
            AtomicReference<RunningJMeter> load,
            BooleanSupplier cancelled) {
        this.envbench = envbench;
        this.jmeter = jmeter;
        this.builtinHttpPlan = builtinHttpPlan;
        this.metricsInterval = metricsInterval;
        this.load = load;
        this.cancelled = cancelled;
    }

    /**
     * The run's JMeter started ahead, waiting at its {@link JMeterStartGate} for the environment's endpoint, or null
     * when it can only start once its environment is up: a plan without the gate, remote engines (they take their
     * properties at their start), tenants (each tenant's endpoint is in the plan's properties).
     */
    RunningJMeter startAhead(
            Experiment e, PlannedRun r, RunDirectory dir, RunIsolation isolation, StartedAhead.Files clearRun)
            throws IOException {
        if (!e.load().engines().none()
                || e.load().command().isPresent()
                || e.tenancy().isPresent()
                || !JMeterStartGate.in(plan(e))) {
            return null;
        }
        Map<String, String> props = properties(e, r);
        props.put("summariser.interval", Integer.toString(SUMMARY_INTERVAL_SECONDS));
        props.put(JMeterStartGate.ENABLED_PROPERTY, "true");
        clearRun.clear(); // what an earlier attempt at this run left
        return RunningJMeter.start(
                isolation.jmeterCommand(
                        command(e.load().engines(), plan(e), dir.jmeterJtl(r), dir.jmeterLog(r), props)),
                dir.root());
    }

    /**
     * Runs JMeter against the started target; returns the run's status.
     *
     * @param ahead   this run's JMeter from {@link #startAhead}, or null to start it now
     * @param testEnd told once JMeter's test has ended, while JMeter itself exits (the next run's JMeter may start)
     */
    String run(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            RunningTarget target,
            RunProgress progress,
            Duration timeLeft,
            AtomicReference<String> died,
            List<String> stopped,
            RunIsolation isolation,
            RunIsolation.Run current,
            RunningJMeter ahead,
            Runnable testEnd)
            throws IOException {
        Map<String, String> endpoint = new LinkedHashMap<>();
        target.endpoint().ifPresent(ep -> {
            endpoint.put("envbench.host", ep.host());
            endpoint.put("envbench.port", Integer.toString(ep.port()));
        });
        LoadHooks hooks = new LoadHooks() {
            @Override
            public void testEnded() {
                testEnd.run();
            }
        };
        if (ahead != null) {
            return run(e, r, dir, ahead, endpoint, progress, timeLeft, died, stopped, hooks, current);
        }
        Map<String, String> props = properties(e, r);
        props.putAll(endpoint);
        return run(e, r, dir, plan(e), props, progress, timeLeft, died, stopped, hooks, isolation, current);
    }

    private Path plan(Experiment e) {
        return e.load().http().isPresent() ? builtinHttpPlan : e.load().plan().orElseThrow();
    }

    /** The run's JMeter properties but its target's endpoint: the built-in HTTP load's, or a plan's own. */
    private static Map<String, String> properties(Experiment e, PlannedRun r) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("envbench.run.environment", r.environment());
        if (e.load().http().isPresent()) {
            HttpLoad h = e.load().http().get();
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
            props.putAll(e.load().jmeterProperties());
        }
        return props;
    }

    /**
     * What the load tells its caller: JMeter started (with the run's metrics collector, null when it could not be made),
     * and the load ended (also when it failed). Both on the runner's thread.
     */
    interface LoadHooks {
        LoadHooks NONE = new LoadHooks() {};

        default void started(MetricsCollector metrics, Path jtl) {}

        /** JMeter's test has ended (its "Tidying up" line), on JMeter's output thread; JMeter itself still exits. */
        default void testEnded() {}

        default void ended() {}
    }

    /** Runs {@code plan} in JMeter with {@code props}, the run's metrics collected; returns the run's status. */
    String run(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            Path plan,
            Map<String, String> props,
            RunProgress progress,
            Duration timeLeft,
            AtomicReference<String> died,
            List<String> stopped,
            LoadHooks hooks,
            RunIsolation isolation,
            RunIsolation.Run current)
            throws IOException {
        props.put("summariser.interval", Integer.toString(SUMMARY_INTERVAL_SECONDS));
        if (cancelled.getAsBoolean()) {
            return RunRecord.INTERRUPTED;
        }
        if (died.get() != null) {
            return "failed: target died";
        }
        List<String> cmd =
                isolation.jmeterCommand(command(e.load().engines(), plan, dir.jmeterJtl(r), dir.jmeterLog(r), props));
        return run(
                e,
                r,
                dir,
                RunningJMeter.start(cmd, dir.root()),
                null,
                progress,
                timeLeft,
                died,
                stopped,
                hooks,
                current);
    }

    /**
     * Sees a started JMeter's test through; one started ahead waits at its start gate, which {@code gate}'s
     * properties open (null: it was started for this run with all of them).
     */
    private String run(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            RunningJMeter jmeterRun,
            Map<String, String> gate,
            RunProgress progress,
            Duration timeLeft,
            AtomicReference<String> died,
            List<String> stopped,
            LoadHooks hooks,
            RunIsolation.Run current)
            throws IOException {
        if (cancelled.getAsBoolean() || died.get() != null) {
            jmeterRun.abandon();
            return cancelled.getAsBoolean() ? RunRecord.INTERRUPTED : "failed: target died";
        }
        Process p = jmeterRun.process();
        current.jmeterStarted(p.pid());
        load.set(jmeterRun);
        if (cancelled.getAsBoolean() || died.get() != null) { // either came while JMeter started
            jmeterRun.stop(cancelled.getAsBoolean() ? "the experiment is cancelled" : "the target died");
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
        if (gate != null) { // the run's metrics are running: its load may start
            if (cancelled.getAsBoolean() || died.get() != null) {
                jmeterRun.abandon(); // it ends without a sample
            } else {
                try {
                    jmeterRun.open(gate);
                } catch (IOException ex) {
                    // gone before its test: its console and log say why; its exit status makes the run's below
                }
            }
        }
        MetricsCollector runMetrics = metrics;
        Runnable testEnded = () -> {
            if (runMetrics != null) { // the run's metrics cover its load, not JMeter's exit or the next JMeter's start
                runMetrics.close();
            }
            hooks.testEnded();
        };
        Thread output = new Thread(
                () -> copyOutput(p, dir.jmeterOutput(r), r, progress, timeLeft, testEnded), "envbench-jmeter-output");
        output.setDaemon(true);
        output.start();
        Duration deadline = ExperimentRunner.expectedLength(e).plus(RUN_GRACE);
        try {
            hooks.started(metrics, dir.jmeterJtl(r));
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
        if (cancelled.getAsBoolean() || p.exitValue() == 130 || p.exitValue() == 143) {
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

    /** JMeter's console into a file, and its {@code summary +} lines as live figures. */
    private static void copyOutput(
            Process p, Path file, PlannedRun r, RunProgress progress, Duration timeLeft, Runnable testEnded) {
        long t0 = System.nanoTime();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(
                        file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            LiveFigures live = LiveFigures.NONE;
            String line;
            boolean ended = false;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
                if (!ended && line.startsWith(TEST_ENDED)) {
                    ended = true;
                    out.flush();
                    testEnded.run();
                }
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
}
