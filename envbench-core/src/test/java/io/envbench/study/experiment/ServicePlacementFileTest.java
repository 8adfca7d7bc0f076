package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.recipe.ServicesTarget;
import io.envbench.launch.dockerdaemon.DaemonRequest;
import org.junit.jupiter.api.Test;

/** Study 001's (docs/studies.md#study-001) file: each environment places one service of the three-tier target
 * otherwise; read, written back, refused.
 */
class ServicePlacementFileTest {
    static final Path TARGETS = ExperimentFileTest.TARGETS;
    static final Path THREE_TIER = Path.of("..", "testplans", "experiments", "seed-001-three-tier.yaml")
            .toAbsolutePath()
            .normalize();

    @Test
    void theStudysSixConfigurationsPlaceOneServiceEach() throws Exception {
        Experiment e = ExperimentFile.read(THREE_TIER, TARGETS);
        assertEquals(
                List.of(
                        "default",
                        "nginx-bridge",
                        "nginx-host",
                        "nginx-bridge-noproxy",
                        "mariadb-bridge",
                        "mariadb-host",
                        "mariadb-host-cow"),
                e.environmentNames());
        assertEquals(
                Optional.of(DaemonRequest.userlandProxy(false)),
                e.environment("nginx-bridge-noproxy").dockerDaemon());
        assertTrue(e.environment("nginx-bridge").dockerDaemon().isEmpty());
        assertTrue(e.usesDocker());
        EnvironmentDefinition none = e.environment("default").definition();
        assertTrue(none.services().isEmpty());
        assertFalse(none.usesDocker());
        EnvironmentDefinition web = e.environment("nginx-bridge").definition();
        assertEquals(List.of("web"), List.copyOf(web.services().keySet()));
        assertEquals(
                NetworkMode.BRIDGE,
                web.services().get("web").container().orElseThrow().networkMode());
        VolumeMount volume = e.environment("mariadb-host")
                .definition()
                .services()
                .get("db")
                .container()
                .orElseThrow()
                .volume();
        assertEquals(new VolumeMount(VolumeMount.Kind.NAMED, "envbench-001-db", "/var/tmp"), volume);
        assertEquals(
                VolumeMount.NONE,
                e.environment("mariadb-host-cow")
                        .definition()
                        .services()
                        .get("db")
                        .container()
                        .orElseThrow()
                        .volume());
        // resolved: nginx alone in a container, the others host processes (host networking: no bridge address needed)
        ServicesTarget t =
                (ServicesTarget) e.environment("nginx-host").definition().resolve(TARGETS);
        assertTrue(t.frontService().spec() instanceof ContainerTarget);
        assertEquals(
                1,
                t.services().stream()
                        .filter(s -> s.spec() instanceof ContainerTarget)
                        .count());
    }

    @Test
    void writtenBackItReadsTheSame() throws Exception {
        Experiment first = ExperimentFile.read(THREE_TIER, TARGETS);
        String yaml = first.toYaml();
        assertTrue(yaml.contains("services:") && yaml.contains("userlandProxy: false"), yaml);
        Experiment second = ExperimentFile.parse(yaml, THREE_TIER, TARGETS);
        for (String env : first.environmentNames()) {
            assertEquals(
                    first.environment(env).definition().toString(),
                    second.environment(env).definition().toString(),
                    env);
        }
        assertEquals(yaml, second.toYaml());
    }

    private static String file(String services) {
        return "name: s\ntarget: redmine-three-tier\nport: 18001\nenvironments:\n  - name: e\n    placement: bare\n    services:\n"
                + services + "load:\n  plan: ../seed-001-three-tier.jmx\n  durationSeconds: 10\n";
    }

    @Test
    void mistakesNameTheFieldAndTheFix() {
        Path at = THREE_TIER;
        List.of(
                        new String[] {
                            "      cache: { placement: docker }\n",
                            "environments[0].services.cache",
                            "not a service of target redmine-three-tier; its services are db, app, web"
                        },
                        new String[] {
                            "      web: { network: bridge }\n", "environments[0].services.web.placement", "is missing"
                        },
                        new String[] {
                            "      web: { placement: bare, network: host }\n",
                            "environments[0].services.web.network",
                            "only applies to placement: docker"
                        },
                        new String[] {
                            "      web: { placement: docker, network: overlay }\n",
                            "environments[0].services.web.network",
                            "overlay"
                        },
                        new String[] {
                            "      web: { placement: docker, colour: red }\n", "environments[0].services.web.colour", ""
                        },
                        new String[] {"      web: docker\n", "environments[0].services.web", "placement"})
                .forEach(c -> {
                    String m = assertThrows(
                                    ExperimentException.class, () -> ExperimentFile.parse(file(c[0]), at, TARGETS))
                            .getMessage();
                    assertTrue(m.contains(c[1]) && m.contains(c[2]), "expected " + c[1] + " and " + c[2] + " in: " + m);
                });
        String single =
                "name: s\ntarget: nginx-static\nenvironments:\n  - name: e\n    placement: bare\n    services:\n      web: { placement: docker }\n"
                        + "load:\n  http: { path: /, durationSeconds: 5 }\n";
        String m = assertThrows(ExperimentException.class, () -> ExperimentFile.parse(single, at, TARGETS))
                .getMessage();
        assertTrue(m.contains("environments[0].services") && m.contains("single server"), m);
    }
}
