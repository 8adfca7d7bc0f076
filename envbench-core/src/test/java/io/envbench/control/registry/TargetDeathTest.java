package io.envbench.control.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.definition.EnvironmentDefinition.Placement;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.units.MemorySize;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Targets that die mid-run on the real engine and the real host: killed by the OOM killer, removed from
 * outside, a host process killed with SIGKILL; each noticed (marked down) within 3 s with its reason, the
 * listeners told within 5 s, and a stop EnvBench makes is never a death. Each test prints its time to detect
 * (from the fault to the registry marking it down, and to the listener hearing it, the cleanup of what was
 * left included).
 */
class TargetDeathTest {
    static final Duration WITHIN = Duration.ofSeconds(3);
    /** Listeners hear it after what was left of the target is removed: a Docker call more. */
    static final Duration TOLD_WITHIN = Duration.ofSeconds(5);

    record Death(String environment, String reason, long atNanos) {}

    @TempDir
    Path targets;

    EnvironmentRegistry registry;
    final BlockingQueue<Death> deaths = new LinkedBlockingQueue<>();
    DockerInventory inventory;

    @BeforeEach
    void registryThatRecordsDeaths() throws Exception {
        DockerRequired.check();
        inventory = new DockerInventory(DockerDaemon.fromEnvironment());
        // a container with no port that says "ready", then waits for /tmp/go before allocating 64 MiB
        Files.createDirectories(targets.resolve("memory-hog"));
        Files.writeString(
                targets.resolve("memory-hog/target.properties"), "image=envbench/base:latest\nready.log=ready\n");
        Files.createSymbolicLink(targets.resolve("nginx-static"), TargetRecipeTest.TARGETS.resolve("nginx-static"));
        registry = new EnvironmentRegistry(targets, DockerDaemon.fromEnvironment());
        registry.addListener(new EnvironmentRegistry.Listener() {
            @Override
            public void died(String environment, String reason) {
                deaths.add(new Death(environment, reason, System.nanoTime()));
            }
        });
    }

    @AfterEach
    void nothingIsLeft() {
        if (registry != null) {
            registry.close();
        }
        if (inventory != null) {
            assertEquals(
                    List.of(),
                    inventory.containers().stream()
                            .filter(c -> RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN)))
                            .toList());
        }
    }

    private static EnvironmentDefinition def(
            String name, String target, Placement placement, ContainerOptions o, int port) {
        return new EnvironmentDefinition(name, target, placement, o, port, Duration.ofSeconds(30));
    }

    /**
     * Waits for the death and prints the times from the fault to the registry marking it down and to the
     * listeners hearing it (after what was left of it is removed).
     */
    private Death awaitDeath(String environment, String what, long faultNanos) throws InterruptedException {
        long limit = faultNanos + TimeUnit.SECONDS.toNanos(15);
        while (registry.isRunning(environment) && System.nanoTime() < limit) {
            Thread.sleep(5);
        }
        long downMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultNanos);
        Death d = deaths.poll(15, TimeUnit.SECONDS);
        assertNotNull(d, what + ": no death heard within 15 s");
        long ms = TimeUnit.NANOSECONDS.toMillis(d.atNanos() - faultNanos);
        System.out.printf(
                "time to detect, %s: marked down after %d ms, listeners told after %d ms (%s)%n",
                what, downMs, ms, d.reason());
        assertTrue(
                downMs <= WITHIN.toMillis(), what + " took " + downMs + " ms to notice; at most " + WITHIN.toMillis());
        assertTrue(
                ms <= TOLD_WITHIN.toMillis(),
                what + ": listeners told after " + ms + " ms; at most " + TOLD_WITHIN.toMillis());
        return d;
    }

    private static void execIn(String containerId, String... command) throws InterruptedException {
        DockerClient docker;
        try {
            docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        } catch (TargetStartException e) {
            throw new AssertionError(e);
        }
        String exec = docker.execCreateCmd(containerId).withCmd(command).exec().getId();
        docker.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>()).awaitCompletion(10, TimeUnit.SECONDS);
    }

    @Test
    void aContainerKilledByTheOomKillerIsMarkedDownWithItsMemoryLimit() throws Exception {
        ContainerOptions o = ContainerOptions.builder()
                .memoryBytes(MemorySize.DOCKER_MINIMUM_BYTES)
                .command(List.of(
                        "sh",
                        "-c",
                        "echo ready; while [ ! -e /tmp/go ]; do sleep 0.1; done; "
                                + "exec perl -e '$x = q(a) x (64 * 1024 * 1024); sleep 60'"))
                .build();
        RunningTarget t = registry.start(def("death-oom", "memory-hog", Placement.DOCKER, o, 0));
        String id = t.containerId().orElseThrow();
        long fault = System.nanoTime();
        execIn(id, "touch", "/tmp/go"); // perl takes 64 MiB at once, beyond the 6m limit

        Death d = awaitDeath("death-oom", "container OOM-killed (memory 6m)", fault);
        assertEquals("death-oom", d.environment());
        assertEquals("killed: out of memory, limit 6m", d.reason());
        assertFalse(registry.isRunning("death-oom"));
        assertEquals(Optional.of("killed: out of memory, limit 6m"), registry.whyDown("death-oom"));
        assertTrue(
                t.logs(20).contains("ready"), "its last output is kept after the container is removed: " + t.logs(20));
        assertTrue(inventory.containers().stream().noneMatch(c -> c.id().equals(id)), "the dead container is removed");
    }

    @Test
    void aContainerRemovedFromOutsideIsMarkedDown() throws Exception {
        RunningTarget t = registry.start(def(
                "death-removed",
                "nginx-static",
                Placement.DOCKER,
                ContainerOptions.builder().build(),
                18381));
        String id = t.containerId().orElseThrow();
        long fault = System.nanoTime();
        new DockerConnection(DockerDaemon.fromEnvironment())
                .client()
                .removeContainerCmd(id)
                .withForce(true)
                .exec();

        Death d = awaitDeath("death-removed", "container removed from outside", fault);
        assertEquals(new Death("death-removed", "removed from outside", d.atNanos()), d);
        assertFalse(registry.isRunning("death-removed"));
        assertEquals(Optional.of("removed from outside"), registry.whyDown("death-removed"));
        // its name and port are free again: it starts anew, and the mark goes
        registry.start(def(
                "death-removed",
                "nginx-static",
                Placement.DOCKER,
                ContainerOptions.builder().build(),
                18381));
        assertEquals(Optional.empty(), registry.whyDown("death-removed"));
        assertTrue(registry.isRunning("death-removed"));
    }

    @Test
    void aHostProcessKilledWithSigkillIsMarkedDownAndItsWorkersAreStopped() throws Exception {
        RunningTarget t = registry.start(def("death-bare", "nginx-static", Placement.BARE, null, 18382));
        ProcessHandle master = ProcessHandle.of(t.pid()).orElseThrow();
        List<ProcessHandle> workers = master.descendants().toList();
        assertFalse(workers.isEmpty(), "nginx runs workers");
        long fault = System.nanoTime();
        assertTrue(master.destroyForcibly());

        Death d = awaitDeath("death-bare", "host process killed with SIGKILL", fault);
        assertEquals(
                new Death("death-bare", "process exited with code 137 (killed by signal 9, SIGKILL)", d.atNanos()), d);
        assertFalse(registry.isRunning("death-bare"));
        for (ProcessHandle w : workers) {
            assertTrue(
                    w.onExit().toCompletableFuture().get(10, TimeUnit.SECONDS) != null && !w.isAlive(),
                    "orphaned worker " + w.pid() + " stopped");
        }
    }

    @Test
    void stopsEnvBenchMakesAreNoDeath() throws Exception {
        registry.start(def(
                "alive-docker",
                "nginx-static",
                Placement.DOCKER,
                ContainerOptions.builder().build(),
                18383));
        registry.start(def("alive-bare", "nginx-static", Placement.BARE, null, 18384));
        registry.start(def(
                "alive-closed",
                "nginx-static",
                Placement.DOCKER,
                ContainerOptions.builder().build(),
                18385));
        assertTrue(registry.stop("alive-docker"));
        assertTrue(registry.stop("alive-bare"));
        registry.close(); // stops alive-closed as a test end or Ctrl-C does
        assertNull(deaths.poll(2, TimeUnit.SECONDS), "a stop EnvBench made was reported as a death");
        for (String name : List.of("alive-docker", "alive-bare", "alive-closed")) {
            assertEquals(Optional.empty(), registry.whyDown(name), name);
        }
    }
}
