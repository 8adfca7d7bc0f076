package io.envbench.e2e;

import io.envbench.docker.DockerDaemon;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.envbench.metrics.CgroupProbe;
import io.envbench.metrics.DockerStatsProbe;
import io.envbench.metrics.MetricsCollector;
import io.envbench.stats.Comparison;
import io.envbench.docker.ContainerOptions;
import io.envbench.docker.DockerConnection;
import io.envbench.environment.EnvironmentDefinition;
import io.envbench.docker.NetworkMode;
import io.envbench.environment.RunningTarget;

/**
 * Benchmarks of the resource metrics (run by {@code ./envbench bench}, not by the test suite): probe
 * cost, collector cost with 8 containers at 10 Hz, and the Resource Monitor's cost to JMeter's
 * maximum throughput, each side by side in one run. Prints figures; asserts nothing.
 */
class MetricsBenchmark {
    @TempDir
    Path dir;

    @Test
    void probeAndCollectorCost() throws Exception {
        Jmeter.docker();
        Path targets = Jmeter.ROOT.resolve("targets");
        List<RunningTarget> started = new ArrayList<>();
        io.envbench.environment.EnvironmentRegistry envs = new io.envbench.environment.EnvironmentRegistry(targets, io.envbench.docker.DockerDaemon.fromEnvironment());
        try {
            for (int i = 0; i < 8; i++) {
                started.add(envs.start(new EnvironmentDefinition("bench-" + i, "nginx-static", EnvironmentDefinition.Placement.DOCKER,
                        ContainerOptions.builder().networkMode(NetworkMode.BRIDGE).build(), 18600 + i, Duration.ofSeconds(30))));
            }
            RunningTarget one = started.get(0);
            CgroupProbe cgroups = new CgroupProbe();
            for (int i = 0; i < 200; i++) {
                cgroups.read(one.pid()); // warm up
            }
            int n = 2000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                cgroups.read(one.pid());
            }
            double cgroupUs = (System.nanoTime() - t0) / 1e3 / n;
            DockerStatsProbe api = new DockerStatsProbe(DockerConnection.connect(DockerDaemon.fromEnvironment()));
            int m = 3;
            t0 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                api.read(one.containerId().get());
            }
            double apiUs = (System.nanoTime() - t0) / 1e3 / m;

            MetricsCollector c = new MetricsCollector(envs, Duration.ofMillis(100), dir.resolve("m.csv"), ProcessHandle.current().pid()).start();
            Thread.sleep(20_000); // at 10 Hz the JIT needs a while to compile the tick; measure the steady state
            Thread worker = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("envbench-metrics")).findFirst().get();
            var mx = ManagementFactory.getThreadMXBean();
            long cpu0 = mx.getThreadCpuTime(worker.getId());
            long wall0 = System.nanoTime();
            Thread.sleep(30_000);
            double collectorPct = 100.0 * (mx.getThreadCpuTime(worker.getId()) - cpu0) / (System.nanoTime() - wall0);
            long rows = Files.lines(dir.resolve("m.csv")).count() - 1;
            c.close();
            System.out.printf(Locale.ROOT, "%nProbe cost, one container: cgroup files %.1f us per reading; Docker stats API %.0f us per call "
                    + "(%.0fx)%nCollector: 8 containers + host at 10 Hz: %.2f%% of one core (%d rows in ~50 s; measured over the last 30 s)%n",
                    cgroupUs, apiUs, apiUs / cgroupUs, collectorPct, rows);
        } finally {
            envs.close();
        }
    }

    @Test
    void listenerOverheadOnJmetersMaximumThroughput() throws Exception {
        Jmeter.docker();
        String plan = Files.readString(Jmeter.STATIC_WEB);
        Path without = dir.resolve("without-monitor.jmx");
        Files.writeString(without, plan.replace("testname=\"EnvBench Resource Monitor\" enabled=\"true\"",
                "testname=\"EnvBench Resource Monitor\" enabled=\"false\""));
        List<String> props = List.of("-Jenvbench.env=bare", "-Jenvbench.warmup.seconds=5", "-Jenvbench.light.seconds=0",
                "-Jenvbench.saturation.seconds=15", "-Jenvbench.metrics.interval.ms=1000");
        int rounds = 4;
        List<Double> ratios = new ArrayList<>();
        StringBuilder detail = new StringBuilder();
        for (int round = 0; round < rounds; round++) {
            // ABBA order: whatever the previous run leaves behind (sockets, caches) hits both sides alike
            boolean withFirst = round % 2 == 1;
            double first = saturation(withFirst ? Jmeter.STATIC_WEB : without, "r" + round + "a", props);
            double second = saturation(withFirst ? without : Jmeter.STATIC_WEB, "r" + round + "b", props);
            double with = withFirst ? first : second;
            double wo = withFirst ? second : first;
            ratios.add(with / wo);
            detail.append(String.format(Locale.ROOT, " %.0f/%.0f", with, wo));
        }
        List<Double> sorted = ratios.stream().sorted().toList();
        double median = (sorted.get(rounds / 2 - 1) + sorted.get(rounds / 2)) / 2; // rounds is even
        System.out.printf(Locale.ROOT, "%nJMeter saturation throughput on bare nginx, with / without the Resource Monitor (1 s interval): "
                + "median ratio %.3f over %d rounds of 15 s, ABBA order (with/without req/s:%s)%n",
                median, rounds, detail);
    }

    private double saturation(Path plan, String name, List<String> props) throws Exception {
        Path jtl = dir.resolve(name + ".jtl");
        List<String> p = new ArrayList<>(props);
        p.add("-Jenvbench.metrics.file=" + dir.resolve(name + "-metrics.csv"));
        Jmeter.run(plan, jtl, p);
        return Comparison.of(List.of(jtl)).get("bare", "saturation: GET page").throughputPerSec();
    }
}
