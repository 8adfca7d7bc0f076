package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.envbench.control.registry.EnvBench;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.measure.results.JtlReader;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.runner.ExperimentRunner;
import io.envbench.study.runner.JMeterInstall;
import io.envbench.study.runner.RunProgress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Not in the suite ({@code ./envbench bench}): JMeter's saturation throughput on bare nginx with two remote engines
 * against one (and the runner's own local JMeter as a reference), the same 8 closed-loop threads in all (8 on one
 * engine, 4 on each of two), rounds interleaved (local, one engine, two engines, local, ...), throughput after the
 * warm-up per run, and the median of the per-round ratios. Engines and the target share this machine's cores, so the
 * figure says what distributing the load generator costs or gains here, not on separate machines.
 */
@Isolated
class RemoteEnginesBenchmark {
    static final int THREADS = 8;
    static final int WARMUP_SECONDS = 2;
    static final int DURATION_SECONDS = 10;

    @TempDir
    Path dir;

    @Test
    void throughputWithTwoEnginesAgainstOne() throws Exception {
        int rounds = Integer.getInteger("bench.rounds", 3);
        int port = JmeterEngines.freePort();
        Map<String, List<Double>> perSecond = new LinkedHashMap<>();
        try (JmeterEngines engines = JmeterEngines.start(dir, 2);
                EnvBench envbench = new EnvBench(Jmeter.ROOT.resolve("targets"), DockerDaemon.fromEnvironment())) {
            Map<String, Experiment> configs = new LinkedHashMap<>();
            configs.put("local JMeter", experiment("local", port, THREADS, ""));
            configs.put(
                    "one engine",
                    experiment(
                            "one",
                            port,
                            THREADS,
                            "  engines: [" + engines.engines.get(0) + "]\n  rmiKeystore: " + engines.keystore + "\n"));
            configs.put("two engines", experiment("two", port, THREADS / 2, engines.yaml()));
            ExperimentRunner runner = new ExperimentRunner(
                    envbench,
                    new JMeterInstall(Jmeter.HOME),
                    Jmeter.ROOT.resolve("testplans/http-load.jmx"),
                    Duration.ofSeconds(1));
            for (int round = 0;
                    round <= rounds;
                    round++) { // round 0 warms the engines' JVMs and the target's caches: not counted
                for (Map.Entry<String, Experiment> c : configs.entrySet()) {
                    RunDirectory run = new RunDirectory(dir.resolve(c.getValue().name() + "-" + round));
                    ExperimentRunner.Outcome o = runner.run(c.getValue(), run, new RunProgress() {});
                    RunRecord rec = o.runs().get(0);
                    assertTrue(rec.ok(), c.getKey() + " round " + round + ": " + rec);
                    double tput = throughputAfterWarmup(run.jtl(rec.run()));
                    System.out.printf("round %d %-12s %,10.0f samples/s%n", round, c.getKey(), tput);
                    if (round > 0) {
                        perSecond
                                .computeIfAbsent(c.getKey(), k -> new ArrayList<>())
                                .add(tput);
                    }
                }
            }
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            ratios.add(perSecond.get("two engines").get(i)
                    / perSecond.get("one engine").get(i));
        }
        System.out.printf(
                "%nJMeter saturation throughput on bare nginx, %d closed-loop threads in all, %d s runs (%d s warm-up left out), "
                        + "%d interleaved rounds, this %d-core machine:%n",
                THREADS,
                DURATION_SECONDS,
                WARMUP_SECONDS,
                rounds,
                Runtime.getRuntime().availableProcessors());
        System.out.printf("%-14s %-40s %s%n", "", "per round (samples/s)", "median");
        perSecond.forEach((k, v) -> System.out.printf(
                "%-14s %-40s %,.0f%n",
                k, v.stream().map(x -> String.format("%,.0f", x)).toList(), median(v)));
        System.out.printf(
                "two engines / one engine: per round %s, median %.3f%n",
                ratios.stream().map(x -> String.format("%.3f", x)).toList(), median(ratios));
        List<Double> local = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            local.add(perSecond.get("one engine").get(i)
                    / perSecond.get("local JMeter").get(i));
        }
        System.out.printf("one engine / local JMeter: median %.3f%n", median(local));
    }

    private Experiment experiment(String name, int port, int threads, String engines) throws Exception {
        return JmeterEngines.bareNginx(
                dir,
                name,
                port,
                "threads: " + threads + "\nwarmupSeconds: " + WARMUP_SECONDS + "\ndurationSeconds: " + DURATION_SECONDS,
                engines);
    }

    /** Samples per second between the end of the warm-up and the last sample's end (JMeter's throughput rule). */
    static double throughputAfterWarmup(Path jtl) throws Exception {
        long[] first = {Long.MAX_VALUE};
        JtlReader.read(jtl, s -> first[0] = Math.min(first[0], s.startMs()));
        long from = first[0] + WARMUP_SECONDS * 1000L;
        long[] n = {0};
        long[] start = {Long.MAX_VALUE};
        long[] end = {0};
        JtlReader.read(jtl, s -> {
            if (s.startMs() >= from) {
                n[0]++;
                start[0] = Math.min(start[0], s.startMs());
                end[0] = Math.max(end[0], s.startMs() + s.elapsedMs());
            }
        });
        return n[0] * 1000.0 / Math.max(1, end[0] - start[0]);
    }

    static double median(List<Double> v) {
        List<Double> s = v.stream().sorted().toList();
        return s.size() % 2 == 1 ? s.get(s.size() / 2) : (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2;
    }
}
