package io.envbench.launch.docker;

import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;

/**
 * Containers with labels a test chooses (another owner's, another run's), each sleeping and publishing a port on
 * 127.0.0.1 when given one. Its client is docker-java's own, not core's connection, and its methods speak no
 * docker-java type: the end-to-end tests call it with the relocated plugin jar first on their class path, where core's
 * classes return relocated types.
 */
public final class LabelledSleepers implements AutoCloseable {
    private final DockerClient docker;

    /** The daemon DOCKER_HOST names, else the local socket. */
    public LabelledSleepers() {
        DockerClientConfig config =
                DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        this.docker = DockerClientImpl.getInstance(
                config,
                new ApacheDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .build());
    }

    /** Starts one from envbench/base; its id. {@code port} 0 publishes none. */
    public String start(Map<String, String> labels, int port) {
        var create = docker.createContainerCmd("envbench/base:latest")
                .withCmd("sleep", "600")
                .withLabels(labels);
        if (port != 0) {
            ExposedPort p = ExposedPort.tcp(8080);
            create.withExposedPorts(p)
                    .withHostConfig(HostConfig.newHostConfig()
                            .withPortBindings(new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", port), p)));
        }
        String id = create.exec().getId();
        docker.startContainerCmd(id).exec();
        return id;
    }

    public boolean exists(String id) {
        try {
            docker.inspectContainerCmd(id).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** Removes it when it is still there. */
    public void remove(String id) {
        if (exists(id)) {
            docker.removeContainerCmd(id).withForce(true).exec();
        }
    }

    @Override
    public void close() throws Exception {
        docker.close();
    }
}
