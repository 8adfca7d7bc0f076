package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.envbench.base.environment.RunningTarget;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.control.registry.EnvBench;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.measure.engines.EngineMetrics;
import io.envbench.measure.engines.RemoteEngine;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.ResultFiles;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.runner.ExperimentRunner;
import io.envbench.study.runner.JMeterInstall;
import io.envbench.study.runner.RunProgress;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment on two remote JMeter engines ({@code jmeter-server}, loopback, RMI ports apart, RMI over SSL with a
 * keystore made here) against bare-metal nginx: the runner starts the environment once (no engine starts one), both
 * engines' samples are in the JTL tagged with the engine, both engines' metrics are in the run directory tagged with
 * the engine, and nothing is left: engines stopped, no target process.
 */
@BesideOthers("JMeter engines on free ports it picks, bare-metal nginx on a free port; no Docker")
class RemoteEnginesTest {
    static final int RUN_SECONDS = 6;

    @TempDir
    Path dir;

    /**
     * `isolation: cpus` with an engine on this machine: started on every CPU, the runner refuses before anything
     * starts, naming the engine and the taskset command; started on the generator's CPU 0 (as that command says), the
     * run is isolated, and its runs.csv records JMeter on CPU 0 and the target on the other.
     */
    @Test
    void anEngineOnThisMachineIsCheckedAgainstTheLoadGeneratorsCpus() throws Exception {
        DockerRequired.require(
                CpuSet.online().size() >= 2, "two CPUs", "a split needs them; this host has " + CpuSet.online());
        int port = JmeterEngines.freePort();
        try (EnvBench envbench = new EnvBench(Jmeter.ROOT.resolve("targets"), DockerDaemon.fromEnvironment())) {
            ExperimentRunner runner = new ExperimentRunner(
                    envbench,
                    new JMeterInstall(Jmeter.HOME),
                    Jmeter.ROOT.resolve("testplans/http-load.jmx"),
                    Duration.ofMillis(500));
            Path shared = Files.createDirectories(dir.resolve("shared"));
            try (JmeterEngines everywhere = JmeterEngines.start(shared, 1)) {
                Experiment e = isolated(JmeterEngines.bareNginx(
                        shared,
                        "everywhere",
                        port,
                        "threads: 2\nwarmupSeconds: 1\ndurationSeconds: 4",
                        everywhere.yaml()));
                InvalidSettingException refused = Assertions.assertThrows(
                        InvalidSettingException.class,
                        () -> runner.run(e, new RunDirectory(shared.resolve("run")), new RunProgress() {}));
                assertEquals("isolation", refused.field());
                assertTrue(
                        refused.getMessage().contains("remote engine " + everywhere.engines.get(0))
                                && refused.getMessage().contains("taskset -c 0"),
                        refused.getMessage());
                assertTrue(envbench.environments().runningTargets().isEmpty(), "nothing started");
            }
            Path own = Files.createDirectories(dir.resolve("own"));
            try (JmeterEngines onCpu0 = JmeterEngines.start(own, 1, List.of("taskset", "-c", "0"))) {
                Experiment e = isolated(JmeterEngines.bareNginx(
                        own, "own", port, "threads: 2\nwarmupSeconds: 1\ndurationSeconds: 4", onCpu0.yaml()));
                List<String> log = new CopyOnWriteArrayList<>();
                RunDirectory run = new RunDirectory(own.resolve("run"));
                runner.run(e, run, new RunProgress() {
                    @Override
                    public void log(String line) {
                        log.add(line);
                    }
                });
                assertTrue(log.stream().anyMatch(l -> l.startsWith("isolated: JMeter on CPUs 0")), log.toString());
                List<RunRecord> records = run.runs().read();
                assertEquals(1, records.size(), log.toString());
                assertTrue(records.get(0).ok(), records.get(0) + " " + log);
                assertEquals("0", records.get(0).cpus().jmeter(), records.get(0).toString());
                assertFalse(
                        records.get(0).cpus().target().contains("0"),
                        records.get(0).toString());
            }
        }
    }

    /** The experiment {@code e} was read from, with {@code isolation: cpus}. */
    private static Experiment isolated(Experiment e) throws Exception {
        Path file = e.file();
        Files.writeString(
                file, Files.readString(file).replace("repetitions: 1\n", "repetitions: 1\nisolation: cpus\n"));
        return ExperimentFile.read(file, Jmeter.ROOT.resolve("targets"));
    }

    @Test
    void twoEnginesLoadOneEnvironmentStartedOnceAndEachEnginesSamplesAndMetricsReachTheRunDirectoryTagged()
            throws Exception {
        int port = JmeterEngines.freePort();
        JmeterEngines engines = JmeterEngines.start(dir, 2);
        List<String> log = new CopyOnWriteArrayList<>();
        AtomicInteger starts = new AtomicInteger();
        // the target's process and every process below it, seen while it ran: this run's only, not another class's
        Set<ProcessHandle> targets = new CopyOnWriteArraySet<>();
        List<String> engineChildren = new CopyOnWriteArrayList<>();
        RunDirectory run = new RunDirectory(dir.resolve("run"));
        ExperimentRunner.Outcome outcome;
        try (EnvBench envbench = new EnvBench(Jmeter.ROOT.resolve("targets"), DockerDaemon.fromEnvironment())) {
            Experiment experiment = JmeterEngines.bareNginx(
                    dir,
                    "remote-engines",
                    port,
                    "threads: 2\nwarmupSeconds: 1\ndurationSeconds: " + RUN_SECONDS,
                    engines.yaml());
            envbench.environments().addListener(new EnvironmentRegistry.Listener() {
                @Override
                public void started(RunningTarget target) {
                    starts.incrementAndGet();
                    ProcessHandle.of(target.pid()).ifPresent(targets::add);
                    // while the load runs, the engines (and anything they started) are watched for a target of their
                    // own
                    Thread watch = new Thread(() -> {
                        while (envbench.environments().isRunning("bare")) {
                            engines.processes.forEach(p -> p.descendants()
                                    .forEach(d -> engineChildren.add(d.pid() + " "
                                            + d.info().commandLine().orElse("?"))));
                            List.copyOf(targets).forEach(t -> t.descendants().forEach(targets::add));
                            try {
                                Thread.sleep(250);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    });
                    watch.setDaemon(true);
                    watch.start();
                }
            });
            ExperimentRunner runner = new ExperimentRunner(
                    envbench,
                    new JMeterInstall(Jmeter.HOME),
                    Jmeter.ROOT.resolve("testplans/http-load.jmx"),
                    Duration.ofMillis(500));
            outcome = runner.run(experiment, run, new RunProgress() {
                @Override
                public void log(String line) {
                    log.add(line);
                }
            });
            assertTrue(envbench.environments().runningTargets().isEmpty(), "the runner stopped its environment");
        } finally {
            engines.close();
        }

        // one place starts each environment: the runner, once; the engines start nothing
        assertTrue(outcome.complete(), "every run ok: " + outcome.runs() + " " + log);
        RunRecord record = outcome.runs().get(0);
        assertEquals(RunRecord.OK, record.status(), record.toString());
        assertEquals(1, starts.get(), "the runner started the environment once");
        // (an engine's JVM may run a short helper of its own, e.g. OSHI asking getconf through jspawnhelper: not a
        // target)
        assertEquals(
                List.of(),
                engineChildren.stream()
                        .filter(c -> c.contains("nginx") || c.contains("run.sh"))
                        .toList(),
                "no engine started a target of its own: " + engineChildren);
        for (Path engineLog : engines.logs) {
            String text = Files.readString(engineLog);
            assertFalse(
                    text.contains("TargetEnvironment") || text.contains("BareMetalLauncher"),
                    "no engine started an environment: " + engineLog);
            assertTrue(text.contains("Running test"), "the engine ran the plan: " + engineLog);
        }

        // samples: from both engines, each tagged with the engine that took it; carriers are no load
        PlannedRun r = record.run();
        Map<String, Integer> loadByEngine = new TreeMap<>();
        Map<String, Integer> carriersByEngine = new TreeMap<>();
        try (Reader in = ResultFiles.reader(run.jtl(r))) {
            for (CSVRecord s : CSVFormat.DEFAULT
                    .builder()
                    .setHeader()
                    .setSkipHeaderRecord(true)
                    .build()
                    .parse(in)) {
                String engine = s.get(EngineMetrics.ENGINE_VARIABLE);
                assertTrue(
                        s.get("threadName").startsWith(engine + "-"), "the tag is the engine JMeter named in -R: " + s);
                (EngineMetrics.isCarrier(s.get("label")) ? carriersByEngine : loadByEngine)
                        .merge(engine, 1, Integer::sum);
                if (!EngineMetrics.isCarrier(s.get("label"))) {
                    assertEquals("true", s.get("success"), s.toString());
                    assertEquals("bare", s.get("envbench.env"), s.toString());
                }
            }
        }
        List<String> tags =
                engines.engines.stream().map(RemoteEngine::toString).sorted().toList();
        System.out.printf(
                "remote engines: load samples per engine %s, metrics samples per engine %s%n",
                loadByEngine, carriersByEngine);
        assertEquals(tags, List.copyOf(loadByEngine.keySet()), "load samples from both engines, tagged");
        assertEquals(tags, List.copyOf(carriersByEngine.keySet()), "metrics from both engines, tagged");
        loadByEngine.values().forEach(n -> assertTrue(n > 50, "each engine loaded the target: " + loadByEngine));
        long counted = Jmeter.samples(run.jtl(r)).size();
        assertEquals(
                loadByEngine.values().stream().mapToInt(Integer::intValue).sum(),
                counted,
                "readers count load samples only");
        assertEquals(counted, record.samples(), "runs.csv counts load samples only");

        // metrics: one file per engine in the run directory, its host and its own JVM, about every 500 ms of the run
        for (RemoteEngine engine : engines.engines) {
            Path metrics = run.engineMetrics(r, engine.toString());
            assertTrue(
                    Files.isRegularFile(metrics), "metrics of " + engine + " in " + metrics.getParent() + ": " + log);
            MetricsFile m = MetricsFile.read(metrics);
            assertEquals(Set.of("bare"), m.environments());
            int rows = m.summary("bare", "host.cpu.pct").samples();
            assertTrue(
                    rows >= 3 && rows <= 2 * RUN_SECONDS * 2 + 2,
                    engine + ": " + rows + " rows of host.cpu.pct in a " + RUN_SECONDS + " s run at 500 ms");
            assertEquals(rows, carriersByEngine.get(engine.toString()), "every carrier is a row");
            MetricsFile.Summary jvm = m.summary("bare", "process.jmeter.cpu.pct");
            assertTrue(
                    jvm.samples() > 0 && jvm.peak() > 0, engine + ": its own JVM's CPU is there and it worked: " + jvm);
            System.out.printf(
                    "engine %s: %d metrics rows, its JVM %.1f%% CPU avg (peak %.1f), host %.1f%% avg%n",
                    engine,
                    rows,
                    jvm.average(),
                    jvm.peak(),
                    m.summary("bare", "host.cpu.pct").average());
        }
        assertTrue(Files.isRegularFile(run.metrics(r)), "and the controlling machine's own metrics (the target's CPU)");
        assertTrue(MetricsFile.read(run.metrics(r))
                        .summary("bare", "target.cpu.pct")
                        .samples()
                > 0);

        // nothing left: engines stopped, no target process, the port free
        assertTrue(engines.allStopped(), "engines stopped");
        List<String> nginx = new ArrayList<>();
        targets.stream()
                .filter(ProcessHandle::isAlive)
                .forEach(p -> nginx.add(p.pid() + " " + p.info().commandLine().orElse("?")));
        assertTrue(targets.size() > 1, "the target and its workers were seen: " + targets);
        assertEquals(List.of(), nginx, "no target process left");
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            throw new AssertionError("something still listens on the target's port " + port);
        } catch (ConnectException expected) {
            // nothing listens
        }
    }

    /**
     * A cancel mid-run stops the remote engines' test too, long before its planned end: the runner tells the
     * controlling JMeter to stop its test (JMeter's own StopTestNow message), which stops every engine's. Before, the
     * controlling JMeter was terminated and the engines went on loading for the rest of the planned run.
     */
    @Test
    void aCancelMidRunStopsTheRemoteEnginesTestLongBeforeItsPlannedEnd() throws Exception {
        int plannedSeconds = 90;
        int port = JmeterEngines.freePort();
        JmeterEngines engines = JmeterEngines.start(dir, 2);
        RunDirectory run = new RunDirectory(dir.resolve("run"));
        ExperimentRunner.Outcome outcome;
        long cancelledAt;
        long returnedAt;
        try (EnvBench envbench = new EnvBench(Jmeter.ROOT.resolve("targets"), DockerDaemon.fromEnvironment())) {
            Experiment experiment = JmeterEngines.bareNginx(
                    dir,
                    "remote-engines-cancel",
                    port,
                    "threads: 1\nrequestsPerSecond: 50\nwarmupSeconds: 1\ndurationSeconds: " + plannedSeconds,
                    engines.yaml());
            ExperimentRunner runner = new ExperimentRunner(
                    envbench,
                    new JMeterInstall(Jmeter.HOME),
                    Jmeter.ROOT.resolve("testplans/http-load.jmx"),
                    Duration.ofMillis(500));
            CompletableFuture<ExperimentRunner.Outcome> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return runner.run(experiment, run, new RunProgress() {});
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            // both engines load: their "Running test" is in their logs, and samples reach the JTL
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline
                    && !(engines.logs.stream().allMatch(RemoteEnginesTest::running) && jtlBiggerThan(run, 2000))) {
                Thread.sleep(200);
            }
            assertTrue(engines.logs.stream().allMatch(RemoteEnginesTest::running), "both engines run the test");
            cancelledAt = System.nanoTime();
            runner.cancel();
            outcome = running.get(60, TimeUnit.SECONDS);
            returnedAt = System.nanoTime();
            assertTrue(envbench.environments().runningTargets().isEmpty(), "the runner stopped its environment");
        } finally {
            engines.close();
        }
        double seconds = (returnedAt - cancelledAt) / 1e9;
        System.out.printf(
                "remote engines: cancel to the run's end (engines' tests stopped, environment stopped) %.2f s; planned run %d s%n",
                seconds, plannedSeconds);
        String controllerLog =
                Files.readString(run.jmeterLog(outcome.runs().get(0).run()));
        assertTrue(outcome.cancelled());
        assertEquals(
                RunRecord.INTERRUPTED,
                outcome.runs().get(0).status(),
                outcome.runs().toString());
        for (Path engineLog : engines.logs) {
            String text = Files.readString(engineLog);
            assertTrue(
                    text.contains("Stopping test"),
                    "the stop reached the engine: " + engineLog + "\n" + text + "\ncontrolling JMeter's log:\n"
                            + controllerLog);
            assertTrue(text.contains("Notifying test listeners of end of test"), "its test ended: " + engineLog);
        }
        assertTrue(
                seconds < plannedSeconds / 3.0,
                "stopped long before the planned " + plannedSeconds + " s: " + seconds + " s");
    }

    private static boolean running(Path engineLog) {
        try {
            return Files.readString(engineLog).contains("Running test");
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean jtlBiggerThan(RunDirectory run, long bytes) {
        Path jtl = run.root().resolve("jtl");
        if (!Files.isDirectory(jtl)) {
            return false;
        }
        try (var files = Files.list(jtl)) {
            return files.anyMatch(j -> j.toFile().length() > bytes);
        } catch (IOException e) {
            return false;
        }
    }
}
