package io.envbench.control.registry;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import io.envbench.base.recipe.TargetRecipe;
import io.envbench.launch.docker.DockerDaemon;

/**
 * The entry point into EnvBench's library, as OSHI has {@code SystemInfo}: where target recipes are, which
 * Docker daemon to use, and the environments this owner runs. Make as many as you need (a JMeter
 * engine, the experiment runner, a test each have their own); none decides anything for another.
 * Closing it stops every environment it started.
 */
public final class EnvBench implements AutoCloseable {
    private final Path targetsDir;
    private final DockerDaemon dockerDaemon;
    private final EnvironmentRegistry environments;
    private final Thread stopOnExit;

    /**
     * @param targetsDir folder of target recipes (the repository's {@code targets/})
     * @param dockerDaemon the Docker daemon containers run on, e.g. {@link DockerDaemon#fromEnvironment()} (as the
     *                     docker CLI: {@code DOCKER_HOST}, {@code DOCKER_TLS_VERIFY}, {@code DOCKER_CERT_PATH}, else the
     *                     local socket)
     */
    public EnvBench(Path targetsDir, DockerDaemon dockerDaemon) {
        this(targetsDir, dockerDaemon, true);
    }

    /**
     * @param stopOnExit stop every environment when the JVM exits (JMeter closed, Ctrl-C); off for an owner
     *                   that tears down in its own order on exit (the command line's runner)
     */
    public EnvBench(Path targetsDir, DockerDaemon dockerDaemon, boolean stopOnExit) {
        this.targetsDir = targetsDir;
        this.dockerDaemon = Objects.requireNonNull(dockerDaemon, "dockerDaemon");
        this.environments = new EnvironmentRegistry(targetsDir, dockerDaemon);
        this.stopOnExit = stopOnExit ? new Thread(environments::close, "envbench-stop-environments") : null;
        if (this.stopOnExit != null) {
            Runtime.getRuntime().addShutdownHook(this.stopOnExit);
        }
    }

    public Path targetsDir() {
        return targetsDir;
    }

    public DockerDaemon dockerDaemon() {
        return dockerDaemon;
    }

    /** The environments this instance runs. */
    public EnvironmentRegistry environments() {
        return environments;
    }

    public TargetRecipe recipe(String name) {
        return TargetRecipe.load(targetsDir, name);
    }

    /** Names of the recipes in the targets folder. */
    public List<String> recipes() {
        return TargetRecipe.available(targetsDir);
    }

    @Override
    public void close() {
        environments.close();
        if (stopOnExit == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            // already shutting down: the hook does the same
        }
    }
}
