package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.environment.RunSession;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.launch.docker.LabelledSleepers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A container of an EnvBench run whose owner cannot be seen from here (a JMeter in its own PID namespace, killed) keeps
 * its published port: a start on that port names it with its owner and the command that frees it, and
 * {@code envbench clean --orphans} removes it only when the user says so; a live run's container is never touched.
 */
@BesideOthers("its labelled sleepers are locked, on a free port; clean removes only dead owners' leftovers")
@ResourceLock(SharedResources.LABELLED_DOCKER)
class OrphansTest {
    @TempDir
    Path dir;

    @Test
    void aPortHeldByAnOrphanIsNamedAndCleanRemovesItOnlyWhenTold() throws Exception {
        DockerRequired.check();
        LabelledSleepers docker = new LabelledSleepers();
        int port = LocalPorts.pickFree();
        Map<String, String> orphanLabels = new HashMap<>(RunSession.labels("orphan-test"));
        orphanLabels.put(RunSession.LABEL_RUN, "0f0f0f0f");
        orphanLabels.put(RunSession.LABEL_OWNER_PID, "1"); // a JMeter that was PID 1 of its container
        orphanLabels.put(OwnerIdentity.LABEL_PID_NAMESPACE, "4026500001");
        String orphan = docker.start(orphanLabels, port);
        String live = docker.start(RunSession.labels("live-test"), 0); // this JVM's: alive, never an orphan
        try {
            try (EnvironmentRegistry r =
                    new EnvironmentRegistry(Jmeter.ROOT.resolve("targets"), DockerDaemon.fromEnvironment())) {
                InvalidSettingException e = assertThrows(
                        InvalidSettingException.class,
                        () -> r.start(new EnvironmentDefinition(
                                "orphan-port",
                                "nginx-static",
                                EnvironmentDefinition.Placement.DOCKER,
                                ContainerOptions.builder()
                                        .networkMode(NetworkMode.BRIDGE)
                                        .build(),
                                port,
                                Duration.ofSeconds(30))));
                System.out.println("a start on the orphan's port: " + e.getMessage());
                assertTrue(e.getMessage().contains(port + " is held by EnvBench container"), e.getMessage());
                assertTrue(e.getMessage().contains("environment orphan-test, run 0f0f0f0f"), e.getMessage());
                assertTrue(e.getMessage().contains("PID namespace 4026500001"), e.getMessage());
                assertTrue(e.getMessage().contains("./envbench clean --orphans"), e.getMessage());
            }

            Path listed = dir.resolve("clean.txt");
            assertEquals(0, Cli.run(listed, 60, "clean"));
            String text = Files.readString(listed);
            System.out.println(text);
            assertTrue(text.contains("orphan(s), whose owner cannot be seen from here"), text);
            assertTrue(
                    text.contains("kept; if their runs are over, remove them with ./envbench clean --orphans"), text);
            assertTrue(docker.exists(orphan), "listed, not removed");

            Path declined = dir.resolve("declined.txt");
            assertEquals(0, Cli.runWithInput(declined, 60, "n\n", "clean", "--orphans"));
            assertTrue(Files.readString(declined).contains("nothing removed"), Files.readString(declined));

            // the images EnvBench built are listed and kept on "n"; the orphans' question still gets its own answer
            Path imagesDeclined = dir.resolve("images-declined.txt");
            assertEquals(0, Cli.runWithInput(imagesDeclined, 60, "n\nn\n", "clean", "--images", "--orphans"));
            String said = Files.readString(imagesDeclined);
            assertTrue(said.contains("envbench/base:latest") && said.contains("images kept"), said);
            assertTrue(said.contains("nothing removed: answer y"), "the second answer reached the orphans: " + said);
            assertTrue(docker.exists(orphan), "kept on n");
            assertTrue(docker.exists(orphan), "kept when the user says no");

            Path removed = dir.resolve("removed.txt");
            assertEquals(0, Cli.run(removed, 60, "clean", "--orphans", "--yes"), Files.readString(removed));
            System.out.println(Files.readString(removed));
            assertTrue(!docker.exists(orphan), "removed when told: " + Files.readString(removed));
            assertTrue(docker.exists(live), "a live run's container is no orphan: " + Files.readString(removed));
            LocalPorts.checkFree("port", port); // and its port is free again
        } finally {
            for (String id : List.of(orphan, live)) {
                docker.remove(id);
            }
            docker.close();
        }
    }
}
