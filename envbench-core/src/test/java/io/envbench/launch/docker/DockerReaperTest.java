package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.environment.RunSession;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.control.registry.EnvironmentRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On the real engine: leftovers whose owner is provably gone are removed, at every environment start in
 * the same JVM; a live owner's, another host's and another PID namespace's are kept; a resource without
 * EnvBench's label is never touched.
 */
class DockerReaperTest {
    /** Run ids of the owners these tests make up; whatever carries one is removed after each test. */
    private static final Set<String> TEST_RUNS = Set.of("deadrun1", "deadown", "liveown", "otherhost", "reused");

    private static Map<String, String> ownedBy(OwnerIdentity owner, String run) {
        Map<String, String> labels = new HashMap<>(owner.labels());
        labels.put(RunSession.LABEL_MANAGED, "true");
        labels.put(RunSession.LABEL_RUN, run);
        labels.put(RunSession.LABEL_ENV, "reaper-test");
        return labels;
    }

    private static OwnerIdentity withPid(OwnerIdentity o, long pid, long startTicks, long startedEpochMs) {
        return new OwnerIdentity(
                o.hostname(), o.machineId(), o.bootId(), o.pidNamespace(), pid, startTicks, startedEpochMs);
    }

    private static String container(DockerClient docker, Map<String, String> labels) {
        return docker.createContainerCmd("envbench/base:latest")
                .withCmd("sleep", "300")
                .withLabels(labels)
                .exec()
                .getId();
    }

    private static boolean exists(DockerClient docker, String id) {
        return docker.listContainersCmd().withShowAll(true).exec().stream()
                .anyMatch(c -> c.getId().equals(id));
    }

    /** Removes what these tests made up (only labelled containers with their run ids), then checks nothing is left. */
    @AfterEach
    void nothingLabelledLeftBehind() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        DockerInventory inventory = new DockerInventory(DockerDaemon.fromEnvironment());
        for (var c : inventory.containers()) {
            if (TEST_RUNS.contains(c.labels().get(RunSession.LABEL_RUN))) {
                docker.removeContainerCmd(c.id())
                        .withForce(true)
                        .withRemoveVolumes(true)
                        .exec();
            }
        }
        assertTrue(
                inventory.containers().stream()
                        .noneMatch(c -> TEST_RUNS.contains(c.labels().get(RunSession.LABEL_RUN))
                                || RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN))),
                "nothing labelled left behind");
    }

    @Test
    void removesOnlyLabelledLeftoversOfDeadRuns() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Map<String, String> leftover = ownedBy(withPid(OwnerIdentity.current(), dead.pid(), 1, -1), "deadrun1");
        String leftoverId = container(docker, leftover);
        String foreignId = docker.createContainerCmd("envbench/base:latest")
                .withCmd("sleep", "300")
                .withLabels(Map.of("io.envbench.run", "deadrun1", "io.envbench.owner-pid", Long.toString(dead.pid())))
                .exec()
                .getId();
        String volume = docker.createVolumeCmd().withLabels(leftover).exec().getName();
        try {
            new DockerReaper(docker).reapLeftovers();
            assertFalse(exists(docker, leftoverId));
            assertTrue(exists(docker, foreignId), "a container without io.envbench.managed=true is never removed");
            assertFalse(docker.listVolumesCmd().exec().getVolumes().stream()
                    .anyMatch(v -> v.getName().equals(volume)));
        } finally {
            docker.removeContainerCmd(foreignId).withForce(true).exec();
        }
    }

    @Test
    void theReapersSweepCountsAndNamesWhatItRemovesThoughItsEarlyConnectionFailed() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        String leftover = container(docker, ownedBy(withPid(OwnerIdentity.current(), dead.pid(), 1, -1), "deadrun1"));
        // no prepare: as when the reaper's ping at prepare timed out; its first connection is made at the sweep
        List<String> said = new ArrayList<>();
        int removed = new DockerSweeper().sweep(DockerDaemon.fromEnvironment().address() + "\t", dead.pid(), said::add);
        assertFalse(exists(docker, leftover));
        assertTrue(removed >= 1, "counted by the sweep, so the reaper keeps its log: " + said);
        assertTrue(said.stream().anyMatch(l -> l.contains(leftover)), "named in the reaper's log: " + said);
    }

    @Test
    void everyEnvironmentStartRemovesOnlyLeftoversWhoseOwnerIsProvablyGone() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        OwnerIdentity self = OwnerIdentity.current();
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Process reusedPid = new ProcessBuilder("sleep", "60").start(); // alive, but not the process the labels name
        try (EnvironmentRegistry registry =
                new EnvironmentRegistry(TargetRecipeTest.TARGETS, DockerDaemon.fromEnvironment())) {
            registry.start(new EnvironmentDefinition(
                    "reap-first",
                    "nginx-static",
                    EnvironmentDefinition.Placement.BARE,
                    ContainerOptions.builder().build(),
                    18195,
                    Duration.ofSeconds(30)));
            // made after this JVM's first connection and first start: only a sweep at every start finds them
            String deadOwner = container(docker, ownedBy(withPid(self, dead.pid(), 1, -1), "deadown"));
            String liveOwner = container(docker, ownedBy(self, "liveown")); // this process, another run id
            OwnerIdentity elsewhere = new OwnerIdentity(
                    "loadgen-elsewhere", "0000feed", self.bootId(), self.pidNamespace(), dead.pid(), 1, -1);
            String otherHost = container(docker, ownedBy(elsewhere, "otherhost"));
            long realTicks = OwnerIdentity.startTicks(reusedPid.pid()).orElse(-1L);
            long realStart = reusedPid.info().startInstant().orElseThrow().toEpochMilli();
            String reused = container(
                    docker,
                    ownedBy(
                            withPid(self, reusedPid.pid(), realTicks < 0 ? -1 : realTicks - 100, realStart - 60_000),
                            "reused"));

            registry.start(new EnvironmentDefinition(
                    "reap-second",
                    "nginx-static",
                    EnvironmentDefinition.Placement.DOCKER,
                    ContainerOptions.builder().build(),
                    18196,
                    Duration.ofSeconds(30)));

            assertFalse(exists(docker, deadOwner), "owner PID gone on this host: removed at the next start");
            assertFalse(exists(docker, reused), "PID alive but started at another time: removed");
            assertTrue(exists(docker, liveOwner), "this live process's container is kept");
            assertTrue(exists(docker, otherHost), "another host's container is kept");
            var otherHostDecision = new DockerReaper(docker)
                    .sweepContainers().decisions().stream()
                            .filter(d -> d.id().equals(otherHost))
                            .findFirst()
                            .orElseThrow();
            assertFalse(otherHostDecision.removed());
            assertTrue(otherHostDecision.ownerUnseen(), "logged at INFO with the reason");
            assertTrue(otherHostDecision.why().contains("loadgen-elsewhere"), otherHostDecision.why());
            assertTrue(
                    registry.isRunning("reap-first") && registry.isRunning("reap-second"),
                    "our own environments are kept");
        } finally {
            reusedPid.destroyForcibly().waitFor();
        }
    }

    /** Prints the time a sweep adds to each start (one labelled list call), next to a Docker start-to-ready. */
    @Test
    void aSweepBeforeEachStartCostsLittle() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        OwnerIdentity self = OwnerIdentity.current();
        for (int i = 0; i < 4; i++) { // labelled containers to judge, as on a busy daemon
            container(docker, ownedBy(self, "liveown"));
        }
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            DockerReaper.Sweep s = new DockerReaper(docker).sweepContainers();
            assertEquals(0, s.removed(), "a live owner's containers are never removed");
            micros.add(s.elapsedNanos() / 1000);
        }
        micros.sort(null);
        long median = micros.get(micros.size() / 2);
        long startToReadyMs;
        try (EnvironmentRegistry registry =
                new EnvironmentRegistry(TargetRecipeTest.TARGETS, DockerDaemon.fromEnvironment())) {
            startToReadyMs = registry.start(new EnvironmentDefinition(
                            "reap-cost",
                            "nginx-static",
                            EnvironmentDefinition.Placement.DOCKER,
                            ContainerOptions.builder().build(),
                            18197,
                            Duration.ofSeconds(30)))
                    .startToReady()
                    .toMillis();
        }
        System.out.printf(
                Locale.ROOT,
                "leftover sweep before a start (5+ labelled containers, 30 sweeps): median %.2f ms, "
                        + "max %.2f ms; a Docker start-to-ready here %d ms (sweep = %.1f%% of it)%n",
                median / 1000.0,
                micros.get(micros.size() - 1) / 1000.0,
                startToReadyMs,
                100.0 * median / 1000.0 / startToReadyMs);
        assertTrue(median < 50_000, "a sweep takes " + median + " µs; it must not slow a start measurably");
    }
}
