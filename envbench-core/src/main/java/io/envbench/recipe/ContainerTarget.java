package io.envbench.recipe;

import io.envbench.docker.ContainerOptions;
import io.envbench.readiness.Readiness;
import io.envbench.settings.InvalidSettingException;
import io.envbench.units.LocalPorts;

/**
 * A server started as a Docker container.
 *
 * @param image         local image, e.g. {@code envbench/nginx-static:latest}
 * @param options       network mode, volume, CPU and memory limits, env, command
 * @param containerPort port the server listens on inside the container (published in bridge mode)
 * @param hostPort      port where load goes (published port, or the listening port with host networking), on 127.0.0.1
 *                      or, for a remote daemon, on its host
 * @param readiness     when it counts as ready
 */
public record ContainerTarget(String image, ContainerOptions options, int containerPort, int hostPort, Readiness readiness)
        implements TargetSpec {
    public ContainerTarget {
        if (image == null || image.isBlank()) {
            throw new InvalidSettingException("image", "is empty; give a local image, e.g. envbench/nginx-static:latest");
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
