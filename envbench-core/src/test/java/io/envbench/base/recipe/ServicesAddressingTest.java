package io.envbench.base.recipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Study 001's (docs/studies.md#study-001) placements of the three-tier recipe (nginx, Redmine, MariaDB): where each
 * service listens and where its dependents find it, for every mix of host processes, host-network containers and
 * bridged containers.
 */
class ServicesAddressingTest {
    static final String GATEWAY = "172.17.0.1";
    static final int PORT = 18001;
    static final ContainerOptions BRIDGE =
            ContainerOptions.builder().networkMode(NetworkMode.BRIDGE).build();
    static final ContainerOptions HOST =
            ContainerOptions.builder().networkMode(NetworkMode.HOST).build();
    /** The bridge's address must not be asked for when no container needs the host. */
    static final Supplier<String> NOT_ASKED = () -> {
        throw new AssertionError("the bridge address was read");
    };

    private static ServicesTarget threeTier(Map<String, ServicePlacement> otherwise, Supplier<String> bridge) {
        TargetRecipe recipe = TargetRecipe.load(TargetRecipeTest.TARGETS, "redmine-three-tier");
        Map<String, ServicePlacement> each = new LinkedHashMap<>();
        for (String s : new String[] {"db", "app", "web"}) {
            each.put(s, otherwise.getOrDefault(s, ServicePlacement.bare()));
        }
        return recipe.servicesTarget(each, PORT, Duration.ofSeconds(60), bridge);
    }

    private static Map<String, String> env(ServicesTarget t, String service) {
        TargetSpec spec = t.services().stream()
                .filter(s -> s.name().equals(service))
                .findFirst()
                .orElseThrow()
                .spec();
        return spec instanceof BareMetalTarget b
                ? b.env()
                : ((ContainerTarget) spec).options().env();
    }

    /** The service's variables include these key, value pairs. */
    private static void has(ServicesTarget t, String service, String... keyValues) {
        Map<String, String> env = env(t, service);
        for (int i = 0; i < keyValues.length; i += 2) {
            assertEquals(keyValues[i + 1], env.get(keyValues[i]), service + "'s " + keyValues[i] + " in " + env);
        }
    }

    private static TargetSpec spec(ServicesTarget t, String service) {
        return t.services().stream()
                .filter(s -> s.name().equals(service))
                .findFirst()
                .orElseThrow()
                .spec();
    }

    @Test
    void allOnTheHostListenOnLoopbackOnlyWithTheFrontOnTheEnvironmentsPort() {
        ServicesTarget t = threeTier(Map.of(), NOT_ASKED);
        assertFalse(t.ownNetwork());
        assertEquals(
                List.of("db", "app", "web"),
                t.services().stream().map(ServicesTarget.Service::name).toList());
        assertEquals(PORT, t.hostPort());
        for (String s : new String[] {"db", "app", "web"}) {
            assertEquals("127.0.0.1", env(t, s).get(s.equals("db") ? "DB_LISTEN" : "LISTEN_ADDRESS"), s);
        }
        has(
                t,
                "web",
                "APP_HOST",
                "127.0.0.1",
                "APP_PORT",
                Integer.toString(spec(t, "app").hostPort()));
        has(
                t,
                "app",
                "DB_HOST",
                "127.0.0.1",
                "DB_PORT",
                Integer.toString(spec(t, "db").hostPort()));
        has(t, "app", "PUMA_WORKERS", "2"); // service.app.env.*: in either place
        assertNotEquals(PORT, spec(t, "app").hostPort());
        assertNotEquals(spec(t, "db").hostPort(), spec(t, "app").hostPort());
    }

    @Test
    void theWebServerOnABridgeReachesTheHostsApplicationThroughTheBridgeAddressWhereTheApplicationAlsoListens() {
        ServicesTarget t = threeTier(Map.of("web", ServicePlacement.container(BRIDGE)), () -> GATEWAY);
        assertTrue(t.ownNetwork());
        ContainerTarget web = (ContainerTarget) spec(t, "web");
        assertEquals(8080, web.containerPort());
        assertEquals(PORT, web.hostPort(), "published on the environment's port");
        has(
                t,
                "web",
                "LISTEN_ADDRESS",
                "0.0.0.0",
                "APP_HOST",
                GATEWAY,
                "APP_PORT",
                Integer.toString(spec(t, "app").hostPort()));
        has(t, "app", "LISTEN_ADDRESS", "127.0.0.1," + GATEWAY);
        has(t, "db", "DB_LISTEN", "127.0.0.1"); // nothing on the bridge needs the database
    }

    @Test
    void theWebServerWithHostNetworkingListensOnLoopbackLikeAHostProcess() {
        ServicesTarget t = threeTier(Map.of("web", ServicePlacement.container(HOST)), NOT_ASKED);
        assertFalse(t.ownNetwork());
        ContainerTarget web = (ContainerTarget) spec(t, "web");
        assertEquals(PORT, web.containerPort());
        assertEquals(PORT, web.hostPort());
        has(t, "web", "LISTEN_ADDRESS", "127.0.0.1", "PORT", Integer.toString(PORT), "APP_HOST", "127.0.0.1");
    }

    @Test
    void theDatabaseOnABridgeIsPublishedOnLoopbackForTheHostsApplication() {
        ServicesTarget t = threeTier(Map.of("db", ServicePlacement.container(BRIDGE)), NOT_ASKED);
        assertTrue(t.ownNetwork());
        ContainerTarget db = (ContainerTarget) spec(t, "db");
        assertEquals(3306, db.containerPort());
        assertTrue(
                db.hostPort() != 0 && db.hostPort() != PORT,
                "published: the host's application reaches it through the port mapping");
        has(t, "db", "DB_LISTEN", "0.0.0.0", "DB_PORT", "3306");
        has(t, "app", "DB_HOST", "127.0.0.1", "DB_PORT", Integer.toString(db.hostPort()));
    }

    @Test
    void theDatabaseWithHostNetworkingAndItsDataOnAVolumeListensOnLoopback() {
        ContainerOptions onVolume = HOST.toBuilder()
                .volume(new VolumeMount(VolumeMount.Kind.NAMED, "envbench-db", "/var/tmp"))
                .build();
        ServicesTarget t = threeTier(Map.of("db", ServicePlacement.container(onVolume)), NOT_ASKED);
        ContainerTarget db = (ContainerTarget) spec(t, "db");
        assertEquals("/var/tmp", db.options().volume().containerPath());
        has(t, "db", "DB_LISTEN", "127.0.0.1");
        has(t, "app", "DB_HOST", "127.0.0.1", "DB_PORT", Integer.toString(db.hostPort()));
    }

    @Test
    void allOnTheBridgeFindEachOtherByNameAndOnlyWhatTheHostChecksIsPublished() {
        ServicesTarget t = threeTier(
                Map.of(
                        "db",
                        ServicePlacement.container(BRIDGE),
                        "app",
                        ServicePlacement.container(BRIDGE),
                        "web",
                        ServicePlacement.container(BRIDGE)),
                NOT_ASKED);
        has(t, "web", "APP_HOST", "app", "APP_PORT", "3000");
        has(t, "app", "PUMA_WORKERS", "2");
        has(t, "app", "DB_HOST", "db", "DB_PORT", "3306");
        assertEquals(0, spec(t, "db").hostPort());
        assertNotEquals(0, spec(t, "app").hostPort(), "published on loopback: its readiness is an HTTP check");
        assertEquals(PORT, spec(t, "web").hostPort());
    }

    @Test
    void aHostServiceAContainerNeedsWithoutListenEnvIsRefusedNamingTheKey(@TempDir Path targets) throws Exception {
        Path dir = Files.createDirectories(targets.resolve("pair"));
        Files.writeString(
                dir.resolve("target.properties"),
                "image=envbench/redmine:latest\nservices=a,b\n"
                        + "service.a.bare.command=./a.sh\nservice.a.port=1000\nservice.a.port.env=A\n"
                        + "service.b.depends=a\nservice.b.bare.command=./b.sh\nservice.b.port=2000\nservice.b.port.env=B\n");
        TargetRecipe pair = TargetRecipe.load(targets, "pair");
        Map<String, ServicePlacement> each =
                Map.of("a", ServicePlacement.bare(), "b", ServicePlacement.container(BRIDGE));
        InvalidSettingException e = assertThrows(
                InvalidSettingException.class,
                () -> pair.servicesTarget(each, PORT, Duration.ofSeconds(5), () -> GATEWAY));
        assertTrue(e.getMessage().contains("service.a.listen.env"), e.getMessage());
    }
}
