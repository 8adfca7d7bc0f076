package io.envbench.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.measure.metrics.CgroupProbe;
import io.envbench.measure.metrics.ContainerProbe;
import io.envbench.measure.metrics.DockerStatsProbe;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.metrics.MetricsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Benchmarks of the resource metrics (run by {@code ./envbench bench}, not by the test suite): probe
 * cost, and the collector's cost with 8 containers at 10 Hz and with 30 at 1 Hz, each side by side in one run (the
 * Resource Monitor's cost to JMeter's throughput: {@link ResourceMonitorOverheadBenchmark}). Prints figures; asserts nothing.
 */
@Isolated
class MetricsBenchmark {
    @TempDir
    Path dir;

    @Test
    void probeAndCollectorCost() throws Exception {
        Jmeter.docker();
        Path targets = Jmeter.ROOT.resolve("targets");
        List<RunningTarget> started = new ArrayList<>();
        EnvironmentRegistry envs = new EnvironmentRegistry(targets, DockerDaemon.fromEnvironment());
        try {
            for (int i = 0; i < 8; i++) {
                started.add(envs.start(new EnvironmentDefinition(
                        "bench-" + i,
                        "nginx-static",
                        EnvironmentDefinition.Placement.DOCKER,
                        ContainerOptions.builder()
                                .networkMode(NetworkMode.BRIDGE)
                                .build(),
                        18600 + i,
                        Duration.ofSeconds(30))));
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
            DockerStatsProbe api = new DockerStatsProbe(new DockerConnection(DockerDaemon.fromEnvironment()).client());
            int m = 3;
            t0 = System.nanoTime();
            for (int i = 0; i < m; i++) {
                api.read(one.containerId().get());
            }
            double apiUs = (System.nanoTime() - t0) / 1e3 / m;

            MetricsCollector c = new MetricsCollector(
                            envs,
                            Duration.ofMillis(100),
                            dir.resolve("m.csv"),
                            ProcessHandle.current().pid())
                    .start();
            CollectorCost cost = CollectorCost.measure(c, Duration.ofSeconds(15), 12, Duration.ofSeconds(3));
            c.close();
            System.out.printf(
                    Locale.ROOT,
                    "%nProbe cost, one container: cgroup files %.1f us per reading; Docker stats API %.0f us per call "
                            + "(%.0fx)%nCollector, 8 containers + host at 10 Hz (cgroup files): %s%n",
                    cgroupUs,
                    apiUs,
                    apiUs / cgroupUs,
                    cost);
        } finally {
            envs.close();
        }
    }

    /**
     * The stats-stream path as a remote daemon would be read, on 30 small containers of envbench/base (a shell
     * asleep, 8 MiB limit) at a 1 s interval: the collector thread and every stream's reader thread counted.
     */
    @Test
    void streamingCollectorCostFor30Containers() throws Exception {
        Jmeter.docker();
        Path targets = Files.createDirectories(dir.resolve("targets/idle"));
        Files.writeString(targets.resolve("target.properties"), "image=envbench/base:latest\nready.log=ready\n");
        EnvironmentRegistry envs = new EnvironmentRegistry(dir.resolve("targets"), DockerDaemon.fromEnvironment());
        int containers = Integer.getInteger("bench.streams", 30);
        try {
            long t0 = System.nanoTime();
            for (int i = 0; i < containers; i++) {
                envs.start(new EnvironmentDefinition(
                        "stream-" + i,
                        "idle",
                        EnvironmentDefinition.Placement.DOCKER,
                        ContainerOptions.builder()
                                .memoryBytes(8L << 20)
                                .command(List.of("sh", "-c", "echo ready; exec sleep 3600"))
                                .build(),
                        0,
                        Duration.ofSeconds(30)));
            }
            double startS = (System.nanoTime() - t0) / 1e9;
            MetricsCollector c = new MetricsCollector(
                            envs,
                            Duration.ofSeconds(1),
                            dir.resolve("streams.csv"),
                            ProcessHandle.current().pid(),
                            ContainerProbe.Source.STATS_STREAM)
                    .start();
            CollectorCost cost = CollectorCost.measure(
                    c,
                    Duration.ofSeconds(15),
                    10,
                    Duration.ofSeconds(5),
                    t -> t.getName().startsWith("docker-java-stream-"));
            c.close();
            MetricsFile m = MetricsFile.read(dir.resolve("streams.csv"));
            long withFigures = m.environments().stream()
                    .mapToLong(e -> m.over(e, "container.stream-" + (containers - 1) + ".cpu.pct")
                            .size())
                    .sum();
            System.out.printf(
                    Locale.ROOT,
                    "%nCollector, %d containers + host at 1 Hz (one Docker stats stream each, local daemon read as a remote "
                            + "one; collector and stream threads): %s; %d rows with the last container's figures, source '%s' (containers started in %.0f s)%n",
                    containers,
                    cost,
                    withFigures,
                    m.sourceOf("container.stream-0.cpu.pct").orElse("?"),
                    startS);
        } finally {
            envs.close();
        }
    }
}
