package io.envbench.docker;

import io.envbench.environment.RunSession;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.github.dockerjava.api.DockerClient;

/** Leftovers of a dead run are removed; a resource without EnvBench's label is never touched. */
class DockerReaperTest {
    @Test
    void removesOnlyLabelledLeftoversOfDeadRuns() throws Exception {
        DockerRequired.check();
        DockerClient docker = DockerConnection.connect("");
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Map<String, String> leftover = new HashMap<>(RunSession.labels("killed"));
        leftover.put(RunSession.LABEL_RUN, "deadrun1");
        leftover.put(RunSession.LABEL_OWNER_PID, Long.toString(dead.pid()));
        String leftoverId = docker.createContainerCmd("envbench/base:latest").withCmd("sleep", "300").withLabels(leftover).exec().getId();
        String foreignId = docker.createContainerCmd("envbench/base:latest").withCmd("sleep", "300")
                .withLabels(Map.of("io.envbench.run", "deadrun1", "io.envbench.owner-pid", Long.toString(dead.pid()))).exec().getId();
        String volume = docker.createVolumeCmd().withLabels(leftover).exec().getName();
        try {
            new DockerReaper(docker).reapLeftovers();
            assertTrue(docker.listContainersCmd().withShowAll(true).exec().stream().noneMatch(c -> c.getId().equals(leftoverId)));
            assertTrue(docker.listContainersCmd().withShowAll(true).exec().stream().anyMatch(c -> c.getId().equals(foreignId)),
                    "a container without io.envbench.managed=true is never removed");
            assertFalse(docker.listVolumesCmd().exec().getVolumes().stream().anyMatch(v -> v.getName().equals(volume)));
        } finally {
            docker.removeContainerCmd(foreignId).withForce(true).exec();
        }
    }
}
