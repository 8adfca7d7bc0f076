package io.envbench.base.container;

import java.util.Locale;

/**
 * The engine a container runs on. Both speak the Docker API (Podman through its Docker-compatible service), so one
 * launcher starts, watches, measures and sweeps containers on either; only where they differ is the engine asked.
 */
public enum ContainerEngine {
    /** The Docker engine (dockerd), at the configured Docker daemon. */
    DOCKER("Docker"),
    /** Podman, rootful, through its Docker-compatible API socket ({@code podman system service}). */
    PODMAN("Podman");

    private final String displayName;

    ContainerEngine(String displayName) {
        this.displayName = displayName;
    }

    /** As a user reads it: {@code Docker}, {@code Podman}. */
    public String displayName() {
        return displayName;
    }

    /** As the experiment file writes it: {@code docker}, {@code podman}. */
    public String fieldValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
