package io.envbench.experiment;

import io.envbench.command.ClientPlace;
import io.envbench.environment.EnvironmentDefinition;
import io.envbench.settings.InvalidSettingException;

import java.util.Objects;

/**
 * One environment of an experiment, by the name its figures and criteria use, and where a command load's program runs
 * against it ({@code client:}; {@link ClientPlace#INSIDE} unless the file says otherwise). Immutable.
 */
public record EnvironmentPlan(String name, EnvironmentDefinition definition, ClientPlace client) {
    public EnvironmentPlan {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(client, "client");
        if (!definition.name().equals(name)) {
            throw new InvalidSettingException("name", "'" + name + "' differs from its definition's name '" + definition.name()
                    + "'; give both the same name");
        }
        if (client != ClientPlace.INSIDE && definition.placement() == EnvironmentDefinition.Placement.BARE) {
            throw new InvalidSettingException(YamlFields.CLIENT, "only applies to placement: docker (a bare environment's command "
                    + "already runs on the host, against its port); remove it, or set placement: docker");
        }
        if (client == ClientPlace.CONTAINER && definition.options().networkMode() == io.envbench.docker.NetworkMode.HOST) {
            throw new InvalidSettingException(YamlFields.CLIENT, "container needs network: bridge: a container on the host's network "
                    + "cannot join the user-defined network the client container reaches it on; set network: bridge, or client: host");
        }
    }

    /** An environment whose command (if any) runs in its own place. */
    public EnvironmentPlan(String name, EnvironmentDefinition definition) {
        this(name, definition, ClientPlace.INSIDE);
    }
}
