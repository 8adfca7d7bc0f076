package io.envbench.base.recipe;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import io.envbench.base.settings.FileSafeName;
import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;
import org.apache.commons.io.file.PathUtils;

/**
 * A target recipe of one's own, as a user describes it: a host command line, and an image that exists or a Dockerfile
 * whose folder becomes the build context. {@link #create} writes {@code targets/NAME/} (target.properties, plus the
 * Dockerfile's folder copied) and reads it back as a {@link TargetRecipe}; when anything fails the folder is removed,
 * so nothing half-made stays. Immutable.
 *
 * @param name           the recipe's folder name: letters, digits, '.', '_' or '-'
 * @param description    one line
 * @param bareCommand    the host command, run from the recipe's folder (e.g. {@code /usr/sbin/nginx -g 'daemon off;'}); empty: no bare metal
 * @param image          an image the engine has (e.g. {@code myapp:1.2}); empty with a Dockerfile
 * @param dockerfile     a Dockerfile whose folder is the build context; empty with an image
 * @param containerPort  the port the server listens on inside the container; 0 for a target without one
 * @param portEnv        the environment variable that sets the port (bare metal, host networking); may be empty
 * @param readyHttpPath  readiness: this path must answer 200; empty: the port accepts a connection
 */
@Immutable
public record NewTargetRecipe(
        String name,
        String description,
        String bareCommand,
        String image,
        Optional<Path> dockerfile,
        int containerPort,
        String portEnv,
        String readyHttpPath) {
    public NewTargetRecipe {
        FileSafeName.check("name", name, "my-app"); // the recipe's folder under targets/
        description = description == null ? "" : description.strip();
        bareCommand = bareCommand == null ? "" : bareCommand.strip();
        image = image == null ? "" : image.strip();
        portEnv = portEnv == null ? "" : portEnv.strip();
        readyHttpPath = readyHttpPath == null ? "" : readyHttpPath.strip();
        if (!image.isEmpty() && dockerfile.isPresent()) {
            throw new InvalidSettingException("image", "give an image or a Dockerfile, not both");
        }
        if (bareCommand.isEmpty() && image.isEmpty() && dockerfile.isEmpty()) {
            throw new InvalidSettingException(
                    "bare command",
                    "is empty and there is no image or Dockerfile; give a host command line, "
                            + "an image, or a Dockerfile (both, to compare bare metal with Docker)");
        }
        if (dockerfile.isPresent() && !Files.isRegularFile(dockerfile.get())) {
            throw new InvalidSettingException(
                    "Dockerfile", "'" + dockerfile.get() + "' is not a file; choose the Dockerfile to build");
        }
        if (containerPort < 0 || containerPort > 65535) {
            throw new InvalidSettingException(
                    "container port", containerPort + " is not a port; give 1 to 65535, or 0 for none");
        }
        if (!portEnv.isEmpty() && !portEnv.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new InvalidSettingException(
                    "port variable", "'" + portEnv + "' is not an environment variable name; e.g. PORT");
        }
        if (!readyHttpPath.isEmpty() && !readyHttpPath.startsWith("/")) {
            throw new InvalidSettingException(
                    "readiness path", "'" + readyHttpPath + "' must start with /, e.g. /health");
        }
    }

    /** The image tag runs use: the given image, or {@code envbench/NAME:latest} built from the Dockerfile. */
    public String imageTag() {
        return image.isEmpty() ? "envbench/" + name.toLowerCase(Locale.ROOT) + ":latest" : image;
    }

    /**
     * Writes {@code targetsDir/NAME/} and reads it back.
     *
     * @throws InvalidSettingException naming the field when the recipe cannot be made (the folder exists, a bad value)
     * @throws IOException             when the files cannot be written (nothing is left behind)
     */
    public TargetRecipe create(Path targetsDir) throws IOException {
        Path dir = targetsDir.resolve(name);
        if (Files.exists(dir)) {
            throw new InvalidSettingException(
                    "name", "targets/" + name + " exists already; choose another name, or edit its target.properties");
        }
        try {
            Files.createDirectories(dir);
            if (dockerfile.isPresent()) {
                PathUtils.copyDirectory(dockerfile.get().toAbsolutePath().getParent(), dir);
                if (!dockerfile.get().getFileName().toString().equals("Dockerfile")) {
                    Files.copy(dockerfile.get(), dir.resolve("Dockerfile"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            try (Writer w = Files.newBufferedWriter(dir.resolve("target.properties"), StandardCharsets.UTF_8)) {
                w.write("# made with the EnvBench controller's New target; fields: targets/README.md\n");
                line(w, "description", description);
                line(w, "image", imageTag());
                if (containerPort > 0) {
                    line(w, "container.port", Integer.toString(containerPort));
                }
                line(w, "port.env", portEnv);
                line(w, "bare.command", bareCommand);
                line(w, "ready.http.path", readyHttpPath);
            }
            TargetRecipe r = TargetRecipe.load(targetsDir, name);
            r.readiness(Duration.ofSeconds(1)); // a recipe whose readiness cannot be built is refused now
            return r;
        } catch (IOException | RuntimeException e) {
            remove(targetsDir);
            throw e;
        }
    }

    /** Removes {@code targetsDir/NAME/} again (a failed image build: nothing half-made stays). */
    public void remove(Path targetsDir) throws IOException {
        Path dir = targetsDir.resolve(name);
        if (Files.exists(dir)) {
            PathUtils.deleteDirectory(dir);
        }
    }

    private static void line(Writer w, String key, String value) throws IOException {
        if (!value.isEmpty()) {
            w.write(key + "=" + value.replace("\\", "\\\\").replace("\n", " ") + "\n");
        }
    }
}
