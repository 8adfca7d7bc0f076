package io.envbench.base.recipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.readiness.HttpCheck;
import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

/** Against the repository's real targets/ folder. */
public class TargetRecipeTest {
    public static final Path TARGETS = Path.of("..", "targets").toAbsolutePath().normalize();

    @Test
    void bareMetalRunsTheRecipesScriptOnTheGivenPort() {
        BareMetalTarget b = TargetRecipe.load(TARGETS, "nginx-static").bare(18123, Duration.ofSeconds(5));
        assertEquals("18123", b.env().get("PORT"));
        assertEquals("site", b.env().get("SITE"));
        assertEquals(TARGETS.resolve("nginx-static"), b.workDir());
        assertEquals(new HttpCheck("/health", 200), b.readiness().check());
    }

    @Test
    void bridgePublishesTheContainerPortAndHostNetworkingListensOnTheHostPort() {
        TargetRecipe r = TargetRecipe.load(TARGETS, "nginx-static");
        ContainerTarget bridge = r.container(ContainerOptions.builder().build(), 18123, Duration.ofSeconds(5));
        assertEquals(8080, bridge.containerPort());
        assertEquals(18123, bridge.hostPort());
        ContainerTarget host = r.container(
                ContainerOptions.builder().networkMode(NetworkMode.HOST).build(), 18123, Duration.ofSeconds(5));
        assertEquals(18123, host.containerPort());
        assertEquals("18123", host.options().env().get("PORT"));
    }

    @Test
    void everyShippedRecipeSaysWhatItIs() {
        assertEquals(
                "nginx (Debian bookworm) serving a fixed static site",
                TargetRecipe.load(TARGETS, "nginx-static").description());
        for (String name : TargetRecipe.available(TARGETS)) {
            assertFalse(TargetRecipe.load(TARGETS, name).description().isEmpty(), name + " has a description");
        }
    }

    @Test
    void unknownTargetListsTheAvailableOnes() {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> TargetRecipe.load(TARGETS, "nope"));
        assertEquals("target", e.field());
        assertTrue(e.getMessage().contains("nginx-static"), e.getMessage());
    }

    @Test
    void missingTargetsFolderNamesTheProperty() {
        InvalidSettingException e = assertThrows(
                InvalidSettingException.class,
                () -> TargetRecipe.load(Path.of("/nonexistent/targets"), "nginx-static"));
        assertEquals("envbench.targets.dir", e.field());
    }
}
