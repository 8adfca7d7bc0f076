package io.envbench.launch.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import io.envbench.base.environment.TargetStartException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a target's image from its recipe folder (the Dockerfile's build context) through the Docker API, labelled
 * as EnvBench's ({@code io.envbench.image=NAME}), as {@code scripts/images.sh} labels the built-in ones, so only
 * EnvBench's images are ever pruned.
 */
public final class ImageBuilder {
    private static final Logger log = LoggerFactory.getLogger(ImageBuilder.class);
    public static final String LABEL_IMAGE = "io.envbench.image";

    private ImageBuilder() {}

    /**
     * @param daemon     the daemon that builds and keeps the image
     * @param context    the folder holding the Dockerfile
     * @param tag        e.g. {@code envbench/my-app:latest}
     * @param recipe     the recipe's name, for the label
     * @return the image id
     */
    public static String build(DockerDaemon daemon, Path context, String tag, String recipe)
            throws TargetStartException {
        if (!Files.isRegularFile(context.resolve("Dockerfile"))) {
            throw new TargetStartException(
                    context + " has no Dockerfile; put one there, or give the recipe an image that exists");
        }
        // a one-off client, closed after the build: nobody else's connection is held or dropped by it
        DockerClient docker = DockerConnection.open(daemon);
        try {
            return docker.buildImageCmd(context.toFile())
                    .withTags(Set.of(tag))
                    .withLabels(Map.of(LABEL_IMAGE, recipe))
                    .exec(new BuildImageResultCallback())
                    .awaitImageId();
        } catch (RuntimeException e) {
            throw new TargetStartException(
                    "building " + tag + " from " + context.resolve("Dockerfile") + " failed: "
                            + DockerConnection.rootCause(e),
                    e);
        } finally {
            try {
                docker.close();
            } catch (IOException e) { // frees sockets only: the build is over either way
                log.debug("closing the build's client: {}", e.toString());
            }
        }
    }
}
