package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.envbench.base.environment.TargetStartException;
import org.junit.jupiter.api.Assumptions;

/**
 * Tests that need the Docker engine call {@link #check()} first: without Docker they are skipped on a
 * developer's machine, and fail under CI=true, never skip silently there.
 */
public final class DockerRequired {
    private DockerRequired() {}

    public static void check() {
        String why;
        try {
            new DockerConnection(DockerDaemon.fromEnvironment())
                    .link(); // no docker-java type: callable from a shaded class path too
            return;
        } catch (TargetStartException e) {
            why = e.getMessage();
        }
        missing("Docker", why);
    }

    /**
     * A condition a test needs from the machine beyond Docker (a local block device, the local socket, root): when it
     * does not hold, the test is skipped on a developer's machine and fails under CI=true, where the machine has it.
     */
    public static void require(boolean holds, String what, String why) {
        if (!holds) {
            missing(what, why);
        }
    }

    private static void missing(String what, String why) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("CI=true and " + what + " is required: " + why);
        }
        Assumptions.abort(what + " not available: " + why);
    }

    /** This process's real user id from /proc/self/status ("0" for root), "?" where there is none. */
    public static String uid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1];
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return "?";
    }
}
