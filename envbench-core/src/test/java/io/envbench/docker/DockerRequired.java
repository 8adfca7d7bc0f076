package io.envbench.docker;

import io.envbench.environment.TargetStartException;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/**
 * Tests that need the Docker engine call {@link #check()} first: without Docker they are skipped on a
 * developer's machine, and fail under CI=true, never skip silently there.
 */
public final class DockerRequired {
    private DockerRequired() {
    }

    public static void check() {
        String why;
        try {
            DockerConnection.connect(DockerDaemon.fromEnvironment());
            return;
        } catch (TargetStartException e) {
            why = e.getMessage();
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("CI=true and Docker is required: " + why);
        }
        Assumptions.abort("Docker not available: " + why);
    }
}
