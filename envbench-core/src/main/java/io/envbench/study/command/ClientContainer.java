package io.envbench.study.command;

import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.HostConfig;
import io.envbench.base.environment.RunSession;
import io.envbench.launch.docker.UserDefinedNetwork;
import io.envbench.study.experiment.ClientPlace;
import org.slf4j.LoggerFactory;

/**
 * The place of a {@link ClientPlace#CONTAINER} client for one run: a user-defined network made for it, the target's
 * container connected to it as {@link ClientPlace#TARGET_ALIAS}, and a second container of the target's image on it,
 * idle ({@code sleep infinity}) until the command is executed in it. Everything carries the run's labels; {@link #close()}
 * removes the container and the network (the reaper does if this process dies first). Docker's defaults for the client
 * container: none of the environment's limits apply to it.
 */
public final class ClientContainer implements AutoCloseable {
    private final DockerClient docker;
    private final UserDefinedNetwork network;
    private final String id;

    private ClientContainer(DockerClient docker, UserDefinedNetwork network, String id) {
        this.docker = docker;
        this.network = network;
        this.id = id;
    }

    /**
     * Makes the network and the client container and connects the target's container.
     *
     * @throws RuntimeException from Docker; nothing made is left behind
     */
    public static ClientContainer start(
            DockerClient docker, String environment, String targetContainerId, String image) {
        Map<String, String> labels = RunSession.labels(environment);
        String base = "envbench-" + environment.replaceAll("[^A-Za-z0-9_.-]", "_");
        UserDefinedNetwork network = UserDefinedNetwork.create(docker, base + "-net-" + RunSession.runId(), labels);
        String id = null;
        try {
            network.connect(targetContainerId, ClientPlace.TARGET_ALIAS);
            id = docker.createContainerCmd(image)
                    .withName(base + "-client-" + RunSession.runId())
                    .withLabels(labels)
                    .withCmd("sleep", "infinity")
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode(network.name()))
                    .exec()
                    .getId();
            docker.startContainerCmd(id).exec();
            return new ClientContainer(docker, network, id);
        } catch (RuntimeException e) {
            remove(docker, id);
            network.close();
            throw e;
        }
    }

    /** The client container, where the command is executed. */
    public String id() {
        return id;
    }

    @Override
    public void close() {
        remove(docker, id);
        network.close();
    }

    private static void remove(DockerClient docker, String id) {
        if (id == null) {
            return;
        }
        try {
            docker.removeContainerCmd(id)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (NotFoundException gone) {
            // already removed
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(ClientContainer.class)
                    .warn("could not remove client container {}: {}", id, e.toString());
        }
    }
}
