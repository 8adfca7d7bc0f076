package io.envbench.base.recipe;

import java.util.Optional;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import net.jcip.annotations.Immutable;

/**
 * Where one service of a multi-service target runs: a host process, or a container with its own options. An
 * environment places all its services alike unless it says otherwise for some (study 001 (docs/studies.md#study-001):
 * the web server in a container, the application and the database on the host). Immutable.
 *
 * @param container the container's options (network, volume, CPU, memory); empty: a host process
 */
@Immutable
public record ServicePlacement(Optional<ContainerOptions> container) {
    public ServicePlacement {
        container = container == null ? Optional.empty() : container;
    }

    /** A host process. */
    public static ServicePlacement bare() {
        return new ServicePlacement(Optional.empty());
    }

    /** A container with these options. */
    public static ServicePlacement container(ContainerOptions options) {
        return new ServicePlacement(Optional.of(options));
    }

    public boolean inContainer() {
        return container.isPresent();
    }

    /**
     * In a container on a bridge: a network namespace of its own, reached by name from the environment's network or
     * through a port published on 127.0.0.1 from the host. A host process and a host-network container are in the
     * host's namespace.
     */
    public boolean bridged() {
        return container.map(o -> o.networkMode() == NetworkMode.BRIDGE).orElse(false);
    }

    @Override
    public String toString() {
        return container.map(o -> "docker " + o).orElse("bare metal");
    }
}
