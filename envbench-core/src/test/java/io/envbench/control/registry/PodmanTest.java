package io.envbench.control.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.InternalServerErrorException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import io.envbench.base.container.ContainerEngine;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.units.LocalPorts;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.PodmanRequired;
import io.envbench.measure.metrics.ContainerProbe;
import io.envbench.measure.metrics.ContainerRates;
import org.junit.jupiter.api.Test;

/**
 * nginx-static on the real Podman (rootful, its Docker-compatible API): on its bridge and on the host network, reached
 * on 127.0.0.1, labelled as Docker's containers are, with non-zero figures from its cgroup files and from the stats
 * API, its death heard through the events API, and nothing left after a stop.
 */
class PodmanTest {
    private static final Path TARGETS = TargetRecipeTest.TARGETS;

    @Test
    void nginxOnPodmanBridgeAndHostIsReachableLabelledMeasuredAndLeavesNothing() throws Exception {
        PodmanRequired.check();
        try (EnvironmentRegistry registry = new EnvironmentRegistry(TARGETS, DockerDaemon.fromEnvironment())) {
            DockerClient podman = registry.podman().client();
            for (NetworkMode network : List.of(NetworkMode.BRIDGE, NetworkMode.HOST)) {
                String name = "podman-" + network.dockerName();
                int port = LocalPorts.pickFree();
                RunningTarget t = registry.start(new EnvironmentDefinition(
                        name,
                        "nginx-static",
                        EnvironmentDefinition.Placement.PODMAN,
                        ContainerOptions.builder().networkMode(network).build(),
                        port,
                        Duration.ofSeconds(60)));
                String id = t.containerId().orElseThrow();
                try {
                    assertEquals(Optional.of(new Endpoint("127.0.0.1", port)), t.endpoint());
                    for (int i = 0; i < 200; i++) {
                        assertEquals(200, get(port, "/page-4k.html"), name);
                    }
                    Map<String, String> labels =
                            podman.inspectContainerCmd(id).exec().getConfig().getLabels();
                    RunSession.labels(name).forEach((k, v) -> assertEquals(v, labels.get(k), name + " label " + k));
                    assertTrue(t.pid() > 0, name + " pid " + t.pid());

                    try (ContainerProbe cgroups = new ContainerProbe(
                                    registry.podman(), ContainerProbe.Source.AUTO, ContainerEngine.PODMAN);
                            ContainerProbe stats = new ContainerProbe(
                                    registry.podman(), ContainerProbe.Source.STATS_STREAM, ContainerEngine.PODMAN)) {
                        assertTrue(cgroups.readsCgroupFiles());
                        assertTrue(cgroups.rates(id, t.pid()).isEmpty(), "the first reading has nothing to compare");
                        ContainerRates fromFiles = underLoad(port, () -> cgroups.rates(id, t.pid()));
                        ContainerRates fromApi = underLoad(port, () -> stats.rates(id, t.pid()));
                        System.out.printf(
                                "%s: cgroup files %s CPU %.1f%% memory %d B pids %d; stats API %s CPU %.1f%% memory %d B%n",
                                name,
                                fromFiles.source(),
                                fromFiles.cpuPct(),
                                fromFiles.memoryUsageBytes(),
                                fromFiles.pids(),
                                fromApi.source(),
                                fromApi.cpuPct(),
                                fromApi.memoryUsageBytes());
                        for (ContainerRates r : List.of(fromFiles, fromApi)) {
                            assertTrue(r.cpuPct() > 0, name + " " + r.source() + " CPU " + r.cpuPct());
                            assertTrue(r.memoryUsageBytes() > 0, name + " " + r.source() + " memory");
                        }
                        assertTrue(fromFiles.source().startsWith("cgroup"), fromFiles.source());
                        assertTrue(fromFiles.pids() > 0, name + " pids " + fromFiles.pids());
                    }
                } finally {
                    registry.stop(name);
                }
                assertTrue(!exists(podman, id), name + " removed");
                LocalPorts.checkFree("port", port);
            }

            // a container killed from outside: heard through Podman's events, and removed
            int port = LocalPorts.pickFree();
            RunningTarget t = registry.start(new EnvironmentDefinition(
                    "podman-dies",
                    "nginx-static",
                    EnvironmentDefinition.Placement.PODMAN,
                    null,
                    port,
                    Duration.ofSeconds(60)));
            String id = t.containerId().orElseThrow();
            podman.killContainerCmd(id).exec();
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (registry.whyDown("podman-dies").isEmpty() && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            System.out.println("podman-dies: " + registry.whyDown("podman-dies").orElse("(not heard)"));
            assertTrue(registry.whyDown("podman-dies").isPresent(), "the death watch heard it");
            until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (exists(podman, id) && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertTrue(!exists(podman, id), "a dead container is removed");

            List<Container> left = podman.listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(Map.of(RunSession.LABEL_RUN, RunSession.runId()))
                    .exec();
            assertEquals(List.of(), left.stream().map(Container::getId).toList(), "nothing of this run left");
        }
    }

    private static boolean exists(DockerClient podman, String id) {
        try {
            podman.inspectContainerCmd(id).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        } catch (InternalServerErrorException e) { // Podman, while it removes it: 500 "no such container"
            if (String.valueOf(e.getMessage()).contains("no such container")) {
                return false;
            }
            throw e;
        }
    }

    /** Requests while the reading is asked for again, up to 10 s, until it has figures. */
    private static ContainerRates underLoad(int port, java.util.function.Supplier<Optional<ContainerRates>> reading)
            throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < until) {
            long burst = System.nanoTime() + Duration.ofMillis(500).toNanos();
            while (System.nanoTime() < burst) {
                get(port, "/page-64k.html");
            }
            Optional<ContainerRates> r = reading.get();
            if (r.isPresent() && r.get().cpuPct() > 0) {
                return r.get();
            }
        }
        return reading.get().orElseThrow(() -> new AssertionError("no figures within 10 s"));
    }

    private static int get(int port, String path) throws Exception {
        HttpURLConnection c = (HttpURLConnection)
                URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
        c.setConnectTimeout(2000);
        c.setReadTimeout(5000);
        try (InputStream in = c.getInputStream()) {
            in.readAllBytes();
        }
        return c.getResponseCode();
    }
}
