package io.envbench.base.recipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.launch.docker.ImageBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NewTargetRecipeTest {
    @TempDir
    Path targets;

    @TempDir
    Path elsewhere;

    @Test
    void aHostCommandAndAnImageMakeARecipeThatLoads() throws Exception {
        TargetRecipe r = new NewTargetRecipe(
                        "my-app", "mine", "./serve.sh --fast", "my-app:1.2", Optional.empty(), 8080, "PORT", "/health")
                .create(targets);
        assertEquals("my-app", r.name());
        assertEquals("my-app:1.2", r.image());
        assertEquals(8080, r.containerPort());
        assertEquals(List.of("my-app"), TargetRecipe.available(targets));
        String props = Files.readString(targets.resolve("my-app/target.properties"));
        assertTrue(props.contains("bare.command=./serve.sh --fast"), props);
        assertTrue(props.contains("ready.http.path=/health"), props);
    }

    @Test
    void badInputNamesTheFieldAndLeavesNothing() {
        InvalidSettingException e = assertThrows(
                InvalidSettingException.class,
                () -> new NewTargetRecipe("my app", "", "x", "", Optional.empty(), 80, "", ""));
        assertTrue(e.getMessage().contains("name"), e.getMessage());
        e = assertThrows(
                InvalidSettingException.class,
                () -> new NewTargetRecipe("a", "", "", "", Optional.empty(), 80, "", ""));
        assertTrue(e.getMessage().contains("bare command"), e.getMessage());
        e = assertThrows(
                InvalidSettingException.class,
                () -> new NewTargetRecipe("a", "", "x", "", Optional.empty(), 70000, "", ""));
        assertTrue(e.getMessage().contains("container port"), e.getMessage());
        e = assertThrows(
                InvalidSettingException.class,
                () -> new NewTargetRecipe("a", "", "x", "", Optional.of(elsewhere.resolve("nope")), 80, "", ""));
        assertTrue(e.getMessage().contains("Dockerfile"), e.getMessage());
        assertEquals(List.of(), TargetRecipe.available(targets));
    }

    @Test
    void anExistingRecipeIsNeverOverwritten() throws Exception {
        new NewTargetRecipe("twice", "", "./a", "", Optional.empty(), 0, "", "").create(targets);
        String before = Files.readString(targets.resolve("twice/target.properties"));
        assertThrows(
                InvalidSettingException.class,
                () -> new NewTargetRecipe("twice", "", "./b", "", Optional.empty(), 0, "", "").create(targets));
        assertEquals(before, Files.readString(targets.resolve("twice/target.properties")));
    }

    @Test
    void aDockerfileIsCopiedWithItsContextAndBuiltLabelled() throws Exception {
        DockerRequired.check();
        Files.writeString(
                elsewhere.resolve("Dockerfile"),
                "FROM envbench/base:latest\nCOPY hello.txt /hello.txt\nCMD [\"sleep\", \"60\"]\n");
        Files.writeString(elsewhere.resolve("hello.txt"), "hello\n");
        NewTargetRecipe n = new NewTargetRecipe(
                "envbench-test-built", "", "", "", Optional.of(elsewhere.resolve("Dockerfile")), 0, "", "");
        TargetRecipe r = n.create(targets);
        assertTrue(
                Files.isRegularFile(targets.resolve("envbench-test-built/hello.txt")), "the build context is copied");
        String id = ImageBuilder.build(
                DockerDaemon.fromEnvironment(), targets.resolve("envbench-test-built"), n.imageTag(), n.name());
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        try {
            assertEquals(
                    "envbench-test-built",
                    docker.inspectImageCmd(r.image())
                            .exec()
                            .getConfig()
                            .getLabels()
                            .get(ImageBuilder.LABEL_IMAGE));
        } finally {
            docker.removeImageCmd(id).withForce(true).exec();
        }
        assertFalse(docker.listImagesCmd().withReferenceFilter(n.imageTag()).exec().stream()
                .findAny()
                .isPresent());
    }
}
