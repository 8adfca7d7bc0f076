package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.definition.EnvironmentDefinition.Placement;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stats-stream path for real: eight small containers on the local daemon read as a remote daemon's would be
 * (one Docker stats stream each), the collector at a 1 s interval. Rows carry every container's figures from the
 * stream, the file names that source, a stopped container's stream ends with it, and closing ends them all.
 */
class DockerStatsStreamTest {
    static final int CONTAINERS = 8; // the figure: 8 remote containers at a 1 s interval

    @TempDir
    Path dir;

    EnvironmentRegistry registry;

    @BeforeEach
    void eightContainers() throws Exception {
        DockerRequired.check();
        Path targets = Files.createDirectories(dir.resolve("targets/idle"));
        Files.writeString(targets.resolve("target.properties"), "image=envbench/base:latest\nready.log=ready\n");
        registry = new EnvironmentRegistry(dir.resolve("targets"), DockerDaemon.fromEnvironment());
        for (int i = 0; i < CONTAINERS; i++) {
            // a small steady load, so CPU and pids have something to show; the shell is the container's PID 1, which
            // ignores a signal it has no handler for, so without the trap every stop waited out its grace period
            ContainerOptions o = ContainerOptions.builder()
                    .memoryBytes(16L << 20)
                    .command(List.of(
                            "sh",
                            "-c",
                            "trap 'exit 0' TERM; echo ready;"
                                    + " while :; do i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; sleep 0.1; done"))
                    .build();
            registry.start(
                    new EnvironmentDefinition("stream-" + i, "idle", Placement.DOCKER, o, 0, Duration.ofSeconds(30)));
        }
    }

    @AfterEach
    void stopAll() {
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void containerFiguresComeFromOneStreamPerContainerAndTheStreamsEndWithTheirContainers() throws Exception {
        Path file = dir.resolve("metrics.csv");
        List<MetricsCollector.Tick> ticks = new CopyOnWriteArrayList<>();
        Map<String, Thread> threads;
        try (MetricsCollector c = new MetricsCollector(
                registry,
                Duration.ofSeconds(1),
                file,
                ProcessHandle.current().pid(),
                ContainerProbe.Source.STATS_STREAM)) {
            c.addListener(ticks::add);
            c.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline
                    && ticks.stream().filter(this::allContainers).count() < 5) {
                Thread.sleep(200);
            }
            assertTrue(
                    ticks.stream().filter(this::allContainers).count() >= 5,
                    "5 rows with every container's figures within 20 s; got " + ticks.size() + " rows");
            threads = c.containerProbe().streams().orElseThrow().threads();
            assertEquals(CONTAINERS, threads.size(), "one stream per container: " + threads.keySet());
            assertTrue(threads.values().stream().allMatch(Thread::isAlive));

            String stopped =
                    registry.runningTargets().get("stream-0").containerId().orElseThrow();
            registry.stop("stream-0");
            Thread t0 = threads.get(stopped);
            t0.join(5000);
            assertFalse(t0.isAlive(), "the stopped container's stream thread still runs");
            // the next tick lets go of it (one a second; a tick under way may still hold it)
            long letGo = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (c.containerProbe().streams().orElseThrow().threads().size() != CONTAINERS - 1
                    && System.nanoTime() < letGo) {
                Thread.sleep(100);
            }
            assertEquals(
                    CONTAINERS - 1,
                    c.containerProbe().streams().orElseThrow().threads().size(),
                    "a tick let go of the stopped stream");
        }
        for (Thread t : threads.values()) {
            t.join(5000);
            assertFalse(t.isAlive(), "a stream thread outlived the collector: " + t.getName());
        }

        List<MetricsCollector.Tick> full =
                ticks.stream().filter(this::allContainers).toList();
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < full.size(); i++) {
            gaps.add(full.get(i).epochMs() - full.get(i - 1).epochMs());
        }
        long median = gaps.stream().sorted().toList().get(gaps.size() / 2);
        System.out.printf(
                "stats streams, %d containers at a 1 s interval: %d rows with every container, median gap %d ms%n",
                CONTAINERS, full.size(), median);
        assertTrue(median >= 900 && median <= 1200, "the 1 s interval holds: median gap " + median + " ms");

        MetricsFile m = MetricsFile.read(file);
        for (int i = 0; i < CONTAINERS; i++) {
            String p = "container.stream-" + i + ".";
            assertEquals(
                    Optional.of(DockerStatsStream.SOURCE),
                    m.sourceOf(p + "cpu.pct"),
                    m.sources().toString());
            String env = m.environments().stream()
                    .filter(e -> !m.over(e, p + "mem.bytes").isEmpty())
                    .findFirst()
                    .orElseThrow();
            MetricsFile.Summary mem = m.summary(env, p + "mem.bytes");
            assertTrue(mem.average() > 0 && mem.peak() <= 16 << 20, p + "mem.bytes " + mem);
            assertTrue(m.summary(env, p + "pids").peak() >= 1, p + "pids");
            assertTrue(m.summary(env, p + "cpu.pct").peak() > 0, p + "cpu.pct: the shell's loop");
            assertEquals(16L << 20, (long) m.summary(env, p + "mem.limit.bytes").peak());
        }
        assertTrue(
                m.sourceOf("host.cpu.pct").orElseThrow().contains("this host"),
                m.sources().toString());
    }

    private boolean allContainers(MetricsCollector.Tick t) {
        for (int i = 0; i < CONTAINERS; i++) {
            if (Double.isNaN(t.get("container.stream-" + i + ".cpu.pct"))) {
                return false;
            }
        }
        return true;
    }
}
