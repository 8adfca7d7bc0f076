package io.envbench.launch.docker;

import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.ContainerNetwork;
import net.jcip.annotations.NotThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user-defined Docker network (driver bridge) that EnvBench makes, with its labels, for containers that find each
 * other by name; {@link #close()} disconnects whatever is still on it and removes it. Only a network made here is ever
 * removed; the reaper removes a labelled one whose owner died ({@link DockerReaper#sweep}). Not thread-safe: one owner.
 */
@NotThreadSafe
public final class UserDefinedNetwork implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(UserDefinedNetwork.class);

    private final DockerClient docker;
    private final String id;
    private final String name;

    private UserDefinedNetwork(DockerClient docker, String id, String name) {
        this.docker = docker;
        this.id = id;
        this.name = name;
    }

    /**
     * Makes the network.
     *
     * @param labels {@link io.envbench.base.environment.RunSession#labels}: what tells the reaper whose it is
     */
    public static UserDefinedNetwork create(DockerClient docker, String name, Map<String, String> labels) {
        String id = docker.createNetworkCmd()
                .withName(name)
                .withDriver("bridge")
                .withCheckDuplicate(true)
                .withLabels(labels)
                .exec()
                .getId();
        return new UserDefinedNetwork(docker, id, name);
    }

    public String id() {
        return id;
    }

    /** The name a container's network mode gives to start on it. */
    public String name() {
        return name;
    }

    /** Connects a running container, which the others on the network then reach as {@code alias}. */
    public void connect(String containerId, String alias) {
        docker.connectToNetworkCmd()
                .withNetworkId(id)
                .withContainerId(containerId)
                .withContainerNetwork(new ContainerNetwork().withAliases(alias))
                .exec();
    }

    /** Disconnects every container still on it (it may outlive the network), then removes it. */
    @Override
    public void close() {
        try {
            var attached = docker.inspectNetworkCmd().withNetworkId(id).exec().getContainers();
            if (attached != null) {
                for (String container : attached.keySet()) {
                    try {
                        docker.disconnectFromNetworkCmd()
                                .withNetworkId(id)
                                .withContainerId(container)
                                .withForce(true)
                                .exec();
                    } catch (NotFoundException gone) {
                        // removed meanwhile
                    }
                }
            }
            docker.removeNetworkCmd(id).exec();
        } catch (NotFoundException gone) {
            // already removed
        } catch (RuntimeException e) {
            log.warn(
                    "could not remove network {} ({}): {}; the reaper removes it once this process is gone",
                    name,
                    id,
                    e.toString());
        }
    }
}
