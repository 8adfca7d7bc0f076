package io.envbench.study.experiment;

import java.util.Arrays;
import java.util.Locale;

import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.InvalidSettingException;

/**
 * Where a command load's program runs relative to its environment's target: the {@code client:} of an environment.
 * The program reaches the target at {@code ENVBENCH_TARGET_HOST}:{@code ENVBENCH_TARGET_PORT},
 * which the runner sets for the place (study 002 (docs/studies.md#study-002): psql in four places against one
 * PostgreSQL).
 */
public enum ClientPlace {
    /** In the environment's own place: the host process's folder, or inside the target's container; to the target by loopback. */
    INSIDE("inside"),
    /** A host process against the environment's port on 127.0.0.1 (a container's published port). */
    HOST("host"),
    /**
     * A second container of the target's image, on a user-defined Docker network EnvBench makes for the run (labelled,
     * removed after it) that the target's container joins under the name {@link #TARGET_ALIAS}.
     */
    CONTAINER("container");

    /** The target's name on a {@link #CONTAINER} client's network. */
    public static final String TARGET_ALIAS = "target";

    private final String yamlName;

    ClientPlace(String yamlName) {
        this.yamlName = yamlName;
    }

    /** As written in an experiment file. */
    public String yamlName() {
        return yamlName;
    }

    /**
     * Checks that an environment can have its command here.
     *
     * @throws InvalidSettingException {@code field}: not {@link #INSIDE} for a bare environment (its command already runs
     *                                 on the host, against its port), or {@link #CONTAINER} with host networking
     */
    public void requireFits(String field, EnvironmentDefinition definition) {
        if (this != INSIDE && definition.placement() == EnvironmentDefinition.Placement.BARE) {
            throw new InvalidSettingException(
                    field,
                    "only applies to placement: docker (a bare environment's command "
                            + "already runs on the host, against its port); remove it, or set placement: docker");
        }
        if (this == CONTAINER && definition.usesPodman()) {
            throw new InvalidSettingException(
                    field,
                    "container makes its client container on a Docker network, which a Podman target cannot join; "
                            + "use client: inside or host with placement: podman");
        }
        if (this == CONTAINER && definition.options().networkMode() == NetworkMode.HOST) {
            throw new InvalidSettingException(
                    field,
                    "container needs network: bridge: a container on the host's network "
                            + "cannot join the user-defined network the client container reaches it on; set network: bridge, or client: host");
        }
    }

    public static ClientPlace parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(p -> p.yamlName.equals(t))
                .findFirst()
                .orElseThrow(() -> new InvalidSettingException(
                        field,
                        "'" + text + "' is not a place for the command; use inside (the "
                                + "environment's own place), host (a host process against its port) or container (a second container on a "
                                + "network of its own)"));
    }
}
