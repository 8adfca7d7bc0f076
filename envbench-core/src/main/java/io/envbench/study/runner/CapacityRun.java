package io.envbench.study.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.control.registry.EnvBench;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.results.ResultFiles;
import io.envbench.measure.stats.SampleStatistics;
import io.envbench.study.experiment.CapacitySpec;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.LoadPlan;

/**
 * A capacity search on the machine: the environment started once and confined as the runs are
 * ({@link RunIsolation}), then one JMeter run of the built-in HTTP load per step at a fixed rate, JMeter's CPU read over
 * the step after its warm-up. Each step's JTL and JMeter log stay in the output folder; {@code ENV.csv} has a row per
 * step, with the search it belongs to when the spec asks for several.
 */
final class CapacityRun {
    /** How long a step's JMeter takes to start and compile its hot code, left out of its CPU reading. */
    private static final long JMETER_STARTUP_MS = 3000;
    /** Beyond a step's length, how long its JMeter may take to start and stop. */
    private static final Duration STEP_GRACE = Duration.ofSeconds(60);

    private final EnvBench envbench;
    private final JMeterInstall jmeter;
    private final Path builtinHttpPlan;
    private final RunIsolation isolation;
    private final AtomicReference<RunningJMeter> load;
    private final BooleanSupplier cancelled;

    CapacityRun(
            EnvBench envbench,
            JMeterInstall jmeter,
            Path builtinHttpPlan,
            RunIsolation isolation,
            AtomicReference<RunningJMeter> load,
            BooleanSupplier cancelled) {
        this.envbench = envbench;
        this.jmeter = jmeter;
        this.builtinHttpPlan = builtinHttpPlan;
        this.isolation = isolation;
        this.load = load;
        this.cancelled = cancelled;
    }

    /**
     * Whether a capacity search can raise the experiment's load: the built-in HTTP load, or a plan (its timer reading
     * {@link LoadPlan#RATE_PROPERTY}); a command has no rate.
     *
     * @throws InvalidSettingException naming the field and the fix
     */
    static void checkLoad(Experiment e) {
        LoadPlan l = e.load();
        if (l.command().isPresent()) {
            throw new InvalidSettingException(
                    "load",
                    "a capacity search raises the rate of the built-in HTTP load (load: http:) or of a plan that paces"
                            + " itself by " + LoadPlan.RATE_PROPERTY + " (load: plan:); a command has no rate");
        }
        if (l.http().isPresent() && e.capacity().ratedByLabel()) {
            throw new InvalidSettingException(
                    "capacity.rateLabel",
                    "the built-in HTTP load sends one request, and each counts; remove rateLabel (it picks the paced"
                            + " request of a plan)");
        }
    }

    /**
     * @throws InvalidSettingException naming the field, when the experiment's load is not the built-in HTTP load or the
     *     environment is not one of it
     */
    CapacitySearch.Result search(Experiment e, String environment, Path out, RunProgress progress) throws IOException {
        checkLoad(e);
        LoadPlan l = e.load();
        if (!e.environmentNames().contains(environment)) {
            throw new InvalidSettingException(
                    "environment",
                    "'" + environment + "' is not an environment of " + e.name() + "; use one of "
                            + String.join(", ", e.environmentNames()));
        }
        Files.createDirectories(out);
        progress.log(isolation.decision().describe());
        EnvironmentDefinition def = e.environment(environment).definition();
        RunningTarget target;
        try {
            target = envbench.environments().start(def);
        } catch (TargetStartException ex) {
            throw new IOException(environment + " did not start: " + ex.getMessage(), ex);
        }
        try (RunIsolation.RunnerCpus runnerCpus = isolation.runnerOnGeneratorCpus()) {
            RunIsolation.Run confined = isolation.run();
            confined.targetReady(target);
            int ownCpus =
                    isolation.decision().split().map(s -> s.generator().size()).orElse(0);
            CapacitySpec spec = e.capacity();
            StartedAhead<Integer> ahead = new StartedAhead<>();
            try {
                CapacitySearch.Result result = CapacitySearch.search(
                        environment,
                        spec,
                        (index, rate) -> step(
                                spec, l, target, out, environment, index, rate, ownCpus, e.results(), progress, ahead),
                        s -> progress.log(describe(s)));
                writeSteps(out.resolve(environment + ".csv"), result);
                return result;
            } finally {
                ahead.close(); // the search ended before the step it was started for
            }
        } finally {
            envbench.environments().stop(def.name());
        }
    }

    private CapacitySearch.Step step(
            CapacitySpec spec,
            LoadPlan l,
            RunningTarget target,
            Path out,
            String environment,
            int index,
            double rate,
            int ownCpus,
            ResultColumns columns,
            RunProgress progress,
            StartedAhead<Integer> ahead)
            throws IOException {
        if (cancelled.getAsBoolean()) {
            throw new IOException("the capacity search was cancelled");
        }
        Path plan = l.plan().orElse(builtinHttpPlan);
        Map<String, String> each = new LinkedHashMap<>(); // what every step of the search sets; the rest is the step's
        // a plan gets its own properties first; what the step sets wins
        l.plan().ifPresent(x -> each.putAll(l.properties()));
        each.put("envbench.run.environment", environment);
        l.http().ifPresent(http -> {
            each.put("envbench.path", http.path());
            each.put("envbench.threads", Integer.toString(http.threads()));
            each.put("envbench.closed.loop", "false");
            each.put("envbench.fixed.rate", "true");
        });
        each.put("envbench.rampup.seconds", "0");
        each.put(
                "envbench.duration.seconds",
                Long.toString(Math.max(1, spec.step().toSeconds())));
        Map<String, String> step = new LinkedHashMap<>();
        target.endpoint().ifPresent(ep -> {
            step.put("envbench.host", ep.host());
            step.put("envbench.port", Integer.toString(ep.port()));
        });
        step.put(LoadPlan.RATE_PROPERTY, Double.toString(rate * 60));

        RunningJMeter j = ahead.take(index);
        if (j != null) {
            try {
                j.open(step);
            } catch (IOException gone) { // it could not start; this step starts its own, whose log says why
                StartedAhead.discard(j, () -> clearStep(out, environment, index));
                j = null;
            }
        }
        boolean atGate = j != null;
        if (j == null) {
            clearStep(out, environment, index);
            Map<String, String> props = new LinkedHashMap<>(each);
            props.putAll(step);
            j = RunningJMeter.start(command(plan, out, environment, index, props), out);
        }
        load.set(j);
        Process p = j.process();
        Runnable next = () -> {
            if (!JMeterStartGate.in(plan) || cancelled.getAsBoolean()) {
                return;
            }
            Map<String, String> props = new LinkedHashMap<>(each);
            props.put(JMeterStartGate.ENABLED_PROPERTY, "true");
            ahead.start(
                    index + 1,
                    () -> {
                        clearStep(out, environment, index + 1);
                        return RunningJMeter.start(command(plan, out, environment, index + 1, props), out);
                    },
                    () -> clearStep(out, environment, index + 1),
                    why -> progress.log("step " + (index + 1) + ": JMeter did not start ahead: " + why));
        };
        Thread drain = new Thread(() -> readToEnd(p.getInputStream(), next), "envbench-capacity-output");
        drain.setDaemon(true);
        drain.start();
        Path jtl = out.resolve(stepName(environment, index) + ".jtl");
        double cpuPct = Double.NaN;
        try {
            // JMeter's CPU over the second half of the step after its warm-up: its first seconds compile code, which
            // would read as a saturated generator. One taken at its gate has had part of them already: it was started
            // as the step before ended its test, and may still be starting
            long startup = atGate ? Math.max(0, JMETER_STARTUP_MS - ageMs(p)) : JMETER_STARTUP_MS;
            long measured = spec.step().minus(spec.warmup()).toMillis();
            sleep(startup + spec.warmup().toMillis() + measured / 2);
            Optional<Duration> c0 = cpu(p);
            long t0 = System.nanoTime();
            sleep(Math.max(500, measured / 2 - 1000));
            Optional<Duration> c1 = cpu(p);
            long t1 = System.nanoTime();
            if (c0.isPresent() && c1.isPresent()) {
                cpuPct = 100.0 * c1.get().minus(c0.get()).toNanos() / (t1 - t0);
            }
            if (!p.waitFor(spec.step().plus(STEP_GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
                j.stop("the step did not end in time");
                p.waitFor(
                        RunningJMeter.STOP_GRACE.plus(RunningJMeter.KILL_AFTER).toSeconds() + 5, TimeUnit.SECONDS);
            }
            // its output read to the end: a next step's JMeter is started by now, or never (a late start is refused
            // once the next step is taken or the search closed)
            drain.join(2000);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            j.stop("interrupted");
            throw new IOException("interrupted", ex);
        } finally {
            load.set(null);
        }
        SampleStatistics s = new SampleStatistics();
        SampleStatistics paced = spec.ratedByLabel() ? new SampleStatistics() : s;
        long[] first = {Long.MAX_VALUE};
        if (Files.exists(jtl)) {
            JtlReader.read(jtl, x -> first[0] = Math.min(first[0], x.startMs()));
            long cutoff = first[0] + spec.warmup().toMillis();
            JtlReader.read(jtl, x -> {
                if (x.startMs() >= cutoff) {
                    s.add(x);
                    if (paced != s && x.label().equals(spec.rateLabel())) {
                        paced.add(x);
                    }
                }
            });
        }
        if (Files.exists(jtl)) { // kept as a run's is, once read
            try {
                ResultFiles.compress(jtl, columns);
            } catch (IOException ex) {
                progress.log(stepName(environment, index) + ": " + ex.getMessage());
            }
        }
        return CapacitySearch.Step.judge(spec, index, rate, s, paced, cpuPct, ownCpus);
    }

    /** How long a process has run, in ms; 0 when the system does not say. */
    private static long ageMs(Process p) {
        return p.info()
                .startInstant()
                .map(t -> Math.max(0, Duration.between(t, Instant.now()).toMillis()))
                .orElse(0L);
    }

    private static Optional<Duration> cpu(Process p) {
        return p.toHandle().info().totalCpuDuration();
    }

    private static void sleep(long ms) throws InterruptedException {
        Thread.sleep(Math.max(0, ms));
    }

    /** Reads a step's JMeter output to its end, calling {@code testEnded} once at the end of its test. */
    private static void readToEnd(InputStream in, Runnable testEnded) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            boolean ended = false;
            while ((line = r.readLine()) != null) {
                if (!ended && line.startsWith(JMeterLoadStep.TEST_ENDED)) {
                    ended = true;
                    testEnded.run();
                }
            }
        } catch (IOException ignored) {
            // JMeter ended
        }
    }

    private static String stepName(String environment, int index) {
        return environment + "-step" + index;
    }

    /** A step's JMeter command: its JTL and log named by the step. */
    private List<String> command(Path plan, Path out, String environment, int index, Map<String, String> props) {
        String name = stepName(environment, index);
        return isolation.jmeterCommand(
                jmeter.headless(plan, out.resolve(name + ".jtl"), out.resolve(name + ".jmeter.log"), props, List.of()));
    }

    /** What an earlier search left of a step, or an abandoned JMeter's start wrote. */
    private static void clearStep(Path out, String environment, int index) throws IOException {
        String name = stepName(environment, index);
        ResultFiles.deleteAll(out.resolve(name + ".jtl"));
        Files.deleteIfExists(out.resolve(name + ".jmeter.log"));
    }

    static String describe(CapacitySearch.Step s) {
        return String.format(
                Locale.ROOT,
                "step %d: %.0f/s asked, %.1f/s achieved, 90%% %.1f ms, errors %.2f%%, JMeter CPU %.0f%%%s: %s",
                s.index(),
                s.askedPerSec(),
                s.stats().count() == 0 ? 0 : s.achievedPerSec(),
                s.stats().count() == 0 ? Double.NaN : s.stats().percentileMs(90),
                s.stats().count() == 0 ? Double.NaN : s.stats().errorPct(),
                s.jmeterCpuPct(),
                s.jmeterCpus() > 0 ? " of " + s.jmeterCpus() + " CPU(s) of its own" : "",
                s.holds() ? "holds" : "does not hold (" + String.join("; ", s.broken()) + ")");
    }

    /** One row per step: what was asked, what came, and whether it held. */
    static void writeSteps(Path file, CapacitySearch.Result r) throws IOException {
        StringBuilder b = new StringBuilder(
                "step,askedPerSec,achievedPerSec,meanMs,p90Ms,p99Ms,errorPct,samples,jmeterCpuPct,jmeterCpus,holds,broken,"
                        + "search\n");
        for (CapacitySearch.Step s : r.steps()) {
            boolean any = s.stats().count() > 0;
            b.append(String.join(
                            ",",
                            Integer.toString(s.index()),
                            num(s.askedPerSec()),
                            num(any ? s.achievedPerSec() : 0),
                            num(any ? s.stats().meanMs() : Double.NaN),
                            num(any ? s.stats().percentileMs(90) : Double.NaN),
                            num(any ? s.stats().percentileMs(99) : Double.NaN),
                            num(any ? s.stats().errorPct() : Double.NaN),
                            Long.toString(s.stats().count()),
                            num(s.jmeterCpuPct()),
                            Integer.toString(s.jmeterCpus()),
                            Boolean.toString(s.holds()),
                            "\"" + String.join("; ", s.broken()).replace("\"", "'") + "\"",
                            Integer.toString(CapacitySearch.searchOf(r, s))))
                    .append('\n');
        }
        Path part = file.resolveSibling(file.getFileName() + ".part");
        Files.writeString(part, b);
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
