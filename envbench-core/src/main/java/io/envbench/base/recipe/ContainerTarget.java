package io.envbench.base.recipe;

import java.util.Optional;

import io.envbench.base.container.ContainerEngine;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.readiness.Readiness;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;

/**
 * A server started as a container, on Docker or on Podman.
 *
 * @param image         local image, e.g. {@code envbench/nginx-static:latest}
 * @param options       network mode, volume, CPU and memory limits, env, command
 * @param containerPort port the server listens on inside the container (published in bridge mode)
 * @param hostPort      port where load goes (published port, or the listening port with host networking), on 127.0.0.1
 *                      or, for a remote daemon, on its host
 * @param readiness     when it counts as ready
 * @param network       a user-defined network it starts on (instead of Docker's default bridge), with the name the
 *                      other containers there reach it by; empty for none
 * @param engine        the engine it runs on
 */
public record ContainerTarget(
        String image,
        ContainerOptions options,
        int containerPort,
        int hostPort,
        Readiness readiness,
        Optional<NetworkAttachment> network,
        ContainerEngine engine)
        implements TargetSpec {
    /** A user-defined network (its name) and the alias the container has there. */
    public record NetworkAttachment(String network, String alias) {}

    public ContainerTarget(
            String image, ContainerOptions options, int containerPort, int hostPort, Readiness readiness) {
        this(image, options, containerPort, hostPort, readiness, Optional.empty(), ContainerEngine.DOCKER);
    }

    /** The same container, on that engine. */
    public ContainerTarget on(ContainerEngine onEngine) {
        return new ContainerTarget(image, options, containerPort, hostPort, readiness, network, onEngine);
    }

    /** The same container, started on that network as {@code alias}. */
    public ContainerTarget on(String networkName, String alias) {
        return new ContainerTarget(
                image,
                options,
                containerPort,
                hostPort,
                readiness,
                Optional.of(new NetworkAttachment(networkName, alias)),
                engine);
    }

    public ContainerTarget {
        network = network == null ? Optional.empty() : network;
        engine = engine == null ? ContainerEngine.DOCKER : engine;
        if (image == null || image.isBlank()) {
            throw new InvalidSettingException(
                    "image", "is empty; give a local image, e.g. envbench/nginx-static:latest");
        }
        if (containerPort != 0) {
            LocalPorts.checkRange("containerPort", containerPort);
        }
        if (hostPort != 0) {
            LocalPorts.checkRange("port", hostPort);
        }
        TargetSpec.checkReadinessFits(hostPort, readiness);
    }
}
