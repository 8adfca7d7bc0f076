package io.envbench.study.experiment;

import java.util.Objects;
import java.util.Optional;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.dockerdaemon.DaemonRequest;
import net.jcip.annotations.Immutable;

/**
 * One environment of an experiment, by the name its figures and criteria use, and where a command load's program runs
 * against it ({@code client:}; {@link ClientPlace#INSIDE} unless the file says otherwise). Immutable.
 *
 * @param dockerDaemon the Docker daemon settings its runs need ({@code dockerDaemon:}: study 001's row with the userland
 *                     proxy off, docs/studies.md#study-001; study 003's row on another storage driver): the runner
 *                     restarts the daemon with them for its runs, only when allowed; what it does not name, and an
 *                     empty one, is the daemon as it was before the experiment
 */
@Immutable
public record EnvironmentPlan(
        String name, EnvironmentDefinition definition, ClientPlace client, Optional<DaemonRequest> dockerDaemon) {
    public EnvironmentPlan {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(client, "client");
        dockerDaemon = dockerDaemon == null ? Optional.empty() : dockerDaemon;
        if (dockerDaemon.isPresent() && !definition.usesDocker()) {
            throw new InvalidSettingException(
                    YamlFields.DOCKER_DAEMON,
                    "only applies to an environment with a container (its settings "
                            + "change how containers run); remove it, or place the environment or one of its services in Docker");
        }
        if (!definition.name().equals(name)) {
            throw new InvalidSettingException(
                    "name",
                    "'" + name + "' differs from its definition's name '" + definition.name()
                            + "'; give both the same name");
        }
        client.requireFits(YamlFields.CLIENT, definition);
    }

    /** An environment whose command (if any) runs in its own place. */
    public EnvironmentPlan(String name, EnvironmentDefinition definition) {
        this(name, definition, ClientPlace.INSIDE);
    }

    /** An environment on the Docker daemon as it is. */
    public EnvironmentPlan(String name, EnvironmentDefinition definition, ClientPlace client) {
        this(name, definition, client, Optional.empty());
    }
}
