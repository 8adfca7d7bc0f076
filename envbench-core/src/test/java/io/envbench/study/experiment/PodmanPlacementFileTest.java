package io.envbench.study.experiment;

import static io.envbench.study.experiment.ExperimentFileTest.TARGETS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import io.envbench.base.container.ContainerEngine;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.definition.EnvironmentDefinition.Placement;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

/** {@code placement: podman}: read, resolved to a container on Podman, written back; its mistakes named with the fix. */
class PodmanPlacementFileTest {
    static final Path PODMAN_DEMO = Path.of("..", "testplans", "experiments", "static-web-podman.yaml")
            .toAbsolutePath()
            .normalize();

    private static final String FILE = """
            name: p
            target: nginx-static
            environments:
              - { name: bare, placement: bare }
              - { name: podman-bridge, placement: podman }
              - { name: podman-host, placement: podman, network: host, cpus: 1.5 }
            load: { http: { path: /page-4k.html, durationSeconds: 5 } }
            """;

    @Test
    void podmanIsAContainerPlacementWithTheSameOptions() throws Exception {
        Experiment e = ExperimentFile.parse(FILE, Path.of("p.yaml"), TARGETS);
        EnvironmentDefinition host = e.environment("podman-host").definition();
        assertEquals(Placement.PODMAN, host.placement());
        assertEquals(NetworkMode.HOST, host.options().networkMode());
        assertEquals(1.5, host.options().cpus().orElseThrow());
        ContainerTarget bridge =
                (ContainerTarget) e.environment("podman-bridge").definition().resolve(TARGETS);
        assertEquals(ContainerEngine.PODMAN, bridge.engine());
        assertEquals("envbench/nginx-static:latest", bridge.image());
        assertEquals(8080, bridge.containerPort());
        assertTrue(e.environment("podman-bridge").definition().usesPodman());
        assertTrue(!e.usesDocker(), "podman alone needs no Docker daemon");
        String written = e.toYaml();
        assertTrue(written.contains("placement: podman"), written);
        assertTrue(written.contains("cpus: 1.5"), written);
        Experiment again = ExperimentFile.parse(written, Path.of("p.yaml"), TARGETS);
        assertEquals(
                Placement.PODMAN, again.environment("podman-host").definition().placement());
        assertEquals(written, again.toYaml());
    }

    @Test
    void aDockerContainerStaysOnDocker() throws Exception {
        ContainerTarget docker = (ContainerTarget)
                new EnvironmentDefinition("d", "nginx-static", Placement.DOCKER, null, 18080, Duration.ofSeconds(5))
                        .resolve(TARGETS);
        assertEquals(ContainerEngine.DOCKER, docker.engine());
    }

    @Test
    void anUnknownPlacementListsPodman() {
        ExperimentException e = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(
                        FILE.replace("placement: podman }", "placement: podmn }"), Path.of("p.yaml"), TARGETS));
        assertEquals("environments[1].placement", e.fieldPath(), e.getMessage());
        assertEquals(5, e.line(), e.getMessage());
        assertTrue(
                e.getMessage().contains("'podmn' is not a placement")
                        && e.getMessage().contains("podman (a Podman"),
                e.getMessage());
    }

    @Test
    void aMultiServiceTargetOnPodmanIsRefusedWithTheFix() {
        String yaml = "name: s\ntarget: redmine-three-tier\nport: 18001\nenvironments:\n  - name: e\n"
                + "    placement: podman\nload:\n  plan: ../seed-001-three-tier.jmx\n  durationSeconds: 10\n";
        String m = assertThrows(
                        Exception.class,
                        () -> ExperimentFile.parse(yaml, ServicePlacementFileTest.THREE_TIER, TARGETS)
                                .environment("e")
                                .definition()
                                .resolve(TARGETS))
                .getMessage();
        assertTrue(m.contains("placement") && m.contains("use placement: docker or bare"), m);
        String service = "name: s\ntarget: redmine-three-tier\nport: 18001\nenvironments:\n  - name: e\n"
                + "    placement: bare\n    services:\n      web: { placement: podman }\n"
                + "load:\n  plan: ../seed-001-three-tier.jmx\n  durationSeconds: 10\n";
        ExperimentException e = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(service, ServicePlacementFileTest.THREE_TIER, TARGETS));
        assertTrue(
                e.getMessage().contains("environments[0].services.web.placement")
                        && e.getMessage().contains("Use placement: docker"),
                e.getMessage());
    }

    @Test
    void theParsedPlacementNamesTheFieldWhenWrong() {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> Placement.parse("placement", "lxc"));
        assertEquals("placement", e.field());
        assertTrue(e.getMessage().contains("bare")
                && e.getMessage().contains("docker")
                && e.getMessage().contains("podman"));
    }

    @Test
    void thePodmanDemoReads() throws Exception {
        Experiment e = ExperimentFile.read(PODMAN_DEMO, TARGETS);
        assertEquals(
                Placement.PODMAN, e.environment("podman-bridge").definition().placement());
        assertEquals(
                NetworkMode.HOST,
                e.environment("podman-host").definition().options().networkMode());
        assertEquals(
                Placement.DOCKER, e.environment("docker-bridge").definition().placement());
    }
}
