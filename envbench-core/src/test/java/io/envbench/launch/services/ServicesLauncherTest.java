package io.envbench.launch.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.definition.EnvironmentDefinition.Placement;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.recipe.ServicesTarget;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.launch.docker.DockerLauncherTest;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Study 000's (docs/studies.md#study-000) two services (MariaDB, then Redmine) on the host and in containers on a
 * network of their own, for real.
 */
class ServicesLauncherTest {
    private static EnvironmentDefinition def(String name, Placement placement, int port) {
        return new EnvironmentDefinition(
                name, "redmine", placement, ContainerOptions.builder().build(), port, Duration.ofSeconds(90));
    }

    @Test
    void theRecipeResolvesEachPlacementWithTheDependencyFoundByNameOrOnLoopback() {
        TargetRecipe redmine = TargetRecipe.load(TargetRecipeTest.TARGETS, "redmine");
        assertEquals(
                List.of("db", "app"),
                redmine.services().stream().map(s -> s.name()).toList());
        ServicesTarget docker =
                (ServicesTarget) def("svc-d", Placement.DOCKER, 18301).resolve(TargetRecipeTest.TARGETS);
        assertTrue(docker.ownNetwork());
        ContainerTarget app = (ContainerTarget) docker.frontService().spec();
        assertEquals("db", app.options().env().get("DB_HOST"));
        assertEquals("3306", app.options().env().get("DB_PORT"));
        assertEquals(18301, app.hostPort());
        assertEquals(0, docker.services().get(0).spec().hostPort(), "the database is not published");
        ServicesTarget bare =
                (ServicesTarget) def("svc-b", Placement.BARE, 18302).resolve(TargetRecipeTest.TARGETS);
        BareMetalTarget db = (BareMetalTarget) bare.services().get(0).spec();
        BareMetalTarget bareApp = (BareMetalTarget) bare.frontService().spec();
        assertEquals("127.0.0.1", bareApp.env().get("DB_HOST"));
        assertEquals(Integer.toString(db.hostPort()), bareApp.env().get("DB_PORT"));
        assertEquals(Integer.toString(db.hostPort()), db.env().get("DB_PORT"));
        assertTrue(db.hostPort() != 18302, "the database has a port of its own");
    }

    @Test
    void aBadServiceListIsRefusedNamingTheKey(@TempDir Path targets) throws Exception {
        Path dir = Files.createDirectories(targets.resolve("pair"));
        String common = "image=envbench/redmine:latest\nservices=a,b\n"
                + "service.a.bare.command=./a.sh\nservice.a.port=1\nservice.a.port.env=A\n"
                + "service.b.bare.command=./b.sh\nservice.b.port=2\nservice.b.port.env=B\n";
        Files.writeString(dir.resolve("target.properties"), common + "service.a.depends=b\nservice.b.depends=a\n");
        InvalidSettingException circle = assertThrows(
                InvalidSettingException.class,
                () -> TargetRecipe.load(targets, "pair").services());
        assertTrue(circle.getMessage().contains("circle: a -> b -> a"), circle.getMessage());
        Files.writeString(dir.resolve("target.properties"), common + "service.b.depends=c\n");
        InvalidSettingException unknown = assertThrows(
                InvalidSettingException.class,
                () -> TargetRecipe.load(targets, "pair").services());
        assertTrue(unknown.getMessage().contains("service.b.depends names 'c'"), unknown.getMessage());
        Files.writeString(dir.resolve("target.properties"), common.replace("service.b.port.env=B\n", ""));
        InvalidSettingException noPort = assertThrows(
                InvalidSettingException.class,
                () -> TargetRecipe.load(targets, "pair").services());
        assertTrue(noPort.getMessage().contains("service.b needs port"), noPort.getMessage());
    }

    @Test
    void redmineAndItsDatabaseRunInBothPlacementsFromTheSameSeedAndLeaveNothing() throws Exception {
        DockerRequired.check();
        DockerInventory inventory = new DockerInventory(DockerDaemon.fromEnvironment());
        int networksBefore = inventory.networks();
        try (EnvironmentRegistry r =
                new EnvironmentRegistry(TargetRecipeTest.TARGETS, DockerDaemon.fromEnvironment())) {
            for (Placement p : List.of(Placement.BARE, Placement.DOCKER)) {
                String name = "svc-" + p.name().toLowerCase();
                RunningTarget t = r.start(def(name, p, p == Placement.BARE ? 18303 : 18304));
                System.out.println(name + " ready in " + t.startToReady().toMillis() + " ms: " + t.describe());
                String login = DockerLauncherTest.get(t.endpoint().orElseThrow(), "/login");
                assertTrue(login.contains("authenticity_token"), "Redmine's login form");
                // the seed's project, read from the database through Redmine (public project)
                String project = DockerLauncherTest.get(t.endpoint().orElseThrow(), "/projects/envbench");
                assertTrue(project.contains("EnvBench"), "the seed's project");
                if (p == Placement.DOCKER) {
                    assertEquals(
                            2,
                            inventory.containers().stream()
                                    .filter(c ->
                                            RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN))
                                                    && c.labels()
                                                            .get(RunSession.LABEL_ENV)
                                                            .startsWith(name + "."))
                                    .count());
                    assertEquals(networksBefore + 1, inventory.networks(), "one labelled network for the environment");
                }
                assertTrue(r.stop(name));
            }
        }
        assertEquals(
                0,
                inventory.containers().stream()
                        .filter(c -> RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN)))
                        .count());
        assertEquals(networksBefore, inventory.networks(), "the network is removed");
        try (Stream<Path> instances = Files.list(Path.of("/var/lib/redmine"));
                Stream<Path> scratch = Files.list(Path.of("/var/tmp"))) {
            assertEquals(
                    List.of(),
                    instances
                            .filter(f -> f.getFileName().toString().startsWith("envbench-"))
                            .toList());
            assertEquals(
                    List.of(),
                    scratch.filter(f -> f.getFileName().toString().startsWith("envbench-mariadb"))
                            .toList());
        }
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            assertEquals(
                    List.of(),
                    all.filter(ph -> ph.info().commandLine().orElse("").matches(".*(mariadbd|puma ).*"))
                            .map(ph -> ph.pid() + " " + ph.info().commandLine().orElse(""))
                            .toList(),
                    "no host process left");
        }
    }
}
