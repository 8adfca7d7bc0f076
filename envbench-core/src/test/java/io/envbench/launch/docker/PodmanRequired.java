package io.envbench.launch.docker;

import io.envbench.base.environment.TargetStartException;

/**
 * Tests that need Podman's API service call {@link #check()} first: without it they are skipped on a developer's
 * machine, and fail under CI=true ({@code ./envbench test} installs Podman and starts its service), never skip
 * silently there.
 */
public final class PodmanRequired {
    private PodmanRequired() {}

    public static void check() {
        String why;
        try {
            new DockerConnection(PodmanEngine.daemon()).link();
            return;
        } catch (TargetStartException e) {
            why = PodmanEngine.notAnswering(e);
        }
        DockerRequired.require(false, "Podman (rootful, its API service on " + PodmanEngine.SOCKET + ")", why);
    }
}
