package io.envbench.control.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.launch.docker.DockerLauncherTest;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** Several environments at once on the real engine and the real nginx; names and ports reserved atomically. */
class EnvironmentRegistryTest {
    private static EnvironmentDefinition def(
            String name, EnvironmentDefinition.Placement rt, NetworkMode net, int port) {
        return new EnvironmentDefinition(
                name,
                "nginx-static",
                rt,
                ContainerOptions.builder().networkMode(net).build(),
                port,
                Duration.ofSeconds(30));
    }

    @Test
    void twoEnvironmentsRunAtOnceEachOnItsOwnPortAndListenersHearOfThem() throws Exception {
        DockerRequired.check();
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        try (EnvironmentRegistry r =
                new EnvironmentRegistry(TargetRecipeTest.TARGETS, DockerDaemon.fromEnvironment())) {
            r.addListener(new EnvironmentRegistry.Listener() {
                @Override
                public void started(RunningTarget t) {
                    events.add("started " + t.environment());
                }

                @Override
                public void stopped(String e) {
                    events.add("stopped " + e);
                }
            });
            RunningTarget bare =
                    r.start(def("reg-bare", EnvironmentDefinition.Placement.BARE, NetworkMode.BRIDGE, 18191));
            RunningTarget docker =
                    r.start(def("reg-docker", EnvironmentDefinition.Placement.DOCKER, NetworkMode.BRIDGE, 18192));
            assertEquals(
                    List.of("reg-bare", "reg-docker"),
                    List.copyOf(r.runningTargets().keySet()));
            assertEquals(
                    4096,
                    DockerLauncherTest.get(bare.endpoint().orElseThrow(), "/page-4k.html")
                            .length());
            assertEquals(
                    4096,
                    DockerLauncherTest.get(docker.endpoint().orElseThrow(), "/page-4k.html")
                            .length());
            InvalidSettingException samePort = Assertions.assertThrows(
                    InvalidSettingException.class,
                    () -> r.start(def("reg-third", EnvironmentDefinition.Placement.BARE, NetworkMode.BRIDGE, 18191)));
            assertEquals("port", samePort.field());
            assertTrue(samePort.getMessage().contains("reg-bare"), samePort.getMessage());
            assertTrue(r.stop("reg-bare"));
            assertFalse(r.isRunning("reg-bare"));
            assertTrue(r.isRunning("reg-docker"));
        }
        assertEquals(
                List.of("started reg-bare", "started reg-docker", "stopped reg-bare", "stopped reg-docker"), events);
    }

    @Test
    void twoStartsOfOneNameAtOnceOneWinsTheOtherFailsAndNothingIsOrphaned() throws Exception {
        DockerRequired.check();
        DockerInventory inventory = new DockerInventory(DockerDaemon.fromEnvironment());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (EnvironmentRegistry r =
                new EnvironmentRegistry(TargetRecipeTest.TARGETS, DockerDaemon.fromEnvironment())) {
            // different ports, so only the name can decide
            Callable<RunningTarget> a =
                    () -> r.start(def("reg-race", EnvironmentDefinition.Placement.DOCKER, NetworkMode.BRIDGE, 18193));
            Callable<RunningTarget> b =
                    () -> r.start(def("reg-race", EnvironmentDefinition.Placement.DOCKER, NetworkMode.BRIDGE, 18194));
            List<Future<RunningTarget>> both = pool.invokeAll(List.of(a, b));
            int won = 0;
            for (Future<RunningTarget> f : both) {
                try {
                    f.get();
                    won++;
                } catch (ExecutionException e) {
                    assertTrue(
                            e.getCause() instanceof InvalidSettingException,
                            e.getCause().toString());
                    assertTrue(
                            e.getCause().getMessage().contains("'reg-race' is already"),
                            e.getCause().getMessage());
                }
            }
            assertEquals(1, won);
            assertEquals(
                    1,
                    inventory.containers().stream()
                            .filter(c -> "reg-race".equals(c.labels().get(RunSession.LABEL_ENV))
                                    && RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN)))
                            .count());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(
                0,
                inventory.containers().stream()
                        .filter(c -> RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN)))
                        .count(),
                "closed: nothing left");
    }

    @Test
    void aClosedRegistryRefusesNewStarts() {
        EnvironmentRegistry r = new EnvironmentRegistry(TargetRecipeTest.TARGETS, DockerDaemon.fromEnvironment());
        r.close();
        InvalidSettingException e = Assertions.assertThrows(
                InvalidSettingException.class,
                () -> r.start(def("late", EnvironmentDefinition.Placement.BARE, NetworkMode.BRIDGE, 18195)));
        assertTrue(e.getMessage().contains("shutting down"), e.getMessage());
    }
}
