package io.envbench.study.command;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.recipe.TargetSpec;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.study.experiment.ClientPlace;

/**
 * Runs a command once in a started environment's place, or beside it ({@link ClientPlace}), and tells it where the
 * target is from there ({@link CommandRun#TARGET_HOST_VARIABLE}, {@link CommandRun#TARGET_PORT_VARIABLE}). The one way
 * both the runner's command load and JMeter's EnvBench Command sampler run a command (study 002's psql in four places
 * against one PostgreSQL, study 003's bonnie++ on each storage; docs/studies.md):
 * <ul>
 *   <li>a bare environment: on the host, from the recipe's folder with its {@code bare.env}, against 127.0.0.1;</li>
 *   <li>{@link ClientPlace#INSIDE}: {@code docker exec} in the target's container, against its own loopback;</li>
 *   <li>{@link ClientPlace#HOST}: on the host against the container's port published on 127.0.0.1;</li>
 *   <li>{@link ClientPlace#CONTAINER}: in a second container of the target's image on a labelled network of its own,
 *       against {@link ClientPlace#TARGET_ALIAS}; the network and the container are removed when the command ends.</li>
 * </ul>
 */
public final class CommandInPlace {
    private CommandInPlace() {}

    /**
     * Runs {@code command} once where {@code client} says, for the running {@code target} of {@code def}.
     *
     * @param log hears one line when the command runs in a second container
     * @throws TargetStartException   when the Docker daemon does not answer
     * @throws InvalidSettingException {@code client}: a place the environment cannot have (see {@link ClientPlace#requireFits})
     */
    public static CommandRun.Result run(
            CommandRun command,
            EnvironmentDefinition def,
            ClientPlace client,
            RunningTarget target,
            Path targetsDir,
            DockerConnection daemon,
            Path cgroupRoot,
            Consumer<String> log)
            throws IOException, TargetStartException {
        client.requireFits("client", def);
        TargetSpec spec = def.resolve(targetsDir);
        Map<String, String> published =
                reach(target.endpoint().map(e -> e.host()), target.endpoint().map(e -> e.port()));
        if (def.placement() == EnvironmentDefinition.Placement.BARE) {
            if (!(spec instanceof BareMetalTarget bare)) {
                throw new InvalidSettingException(
                        "environment",
                        "'" + def.name() + "' is made of several services; a command runs in "
                                + "the place of a target of one service (e.g. postgres, bonnie)");
            }
            return command.onHost(bare, def.name(), published, cgroupRoot);
        }
        if (!(spec instanceof ContainerTarget container)) {
            throw new InvalidSettingException(
                    "environment",
                    "'" + def.name() + "' is made of several services; a command runs in the "
                            + "place of a target of one service (e.g. postgres, bonnie)");
        }
        String id =
                target.containerId().orElseThrow(() -> new IllegalStateException(def.name() + " runs in no container"));
        DockerClient docker = daemon.client();
        return switch (client) {
            case INSIDE ->
                command.inContainer(
                        docker,
                        id,
                        def.name(),
                        reach(
                                Optional.of("127.0.0.1"),
                                Optional.of(container.containerPort()).filter(p -> p != 0)));
            case HOST ->
                command.onHost(
                        TargetRecipe.load(targetsDir, def.target()).bare(def.port(), def.readyTimeout()),
                        def.name(),
                        published,
                        cgroupRoot);
            case CONTAINER -> {
                try (ClientContainer c = ClientContainer.start(docker, def.name(), id, container.image())) {
                    log.accept("the command runs in a second container on network envbench-" + def.name()
                            + "-net, against " + ClientPlace.TARGET_ALIAS + ":" + container.containerPort());
                    yield command.inContainer(
                            docker,
                            c.id(),
                            def.name(),
                            reach(Optional.of(ClientPlace.TARGET_ALIAS), Optional.of(container.containerPort())));
                }
            }
        };
    }

    /** The target's host and port for the command, when the target has a port. */
    private static Map<String, String> reach(Optional<String> host, Optional<Integer> port) {
        if (host.isEmpty() || port.isEmpty()) {
            return Map.of();
        }
        return Map.of(
                CommandRun.TARGET_HOST_VARIABLE,
                host.get(),
                CommandRun.TARGET_PORT_VARIABLE,
                Integer.toString(port.get()));
    }
}
