package io.envbench.control.reaper;

import java.nio.file.Path;
import java.time.Duration;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.docker.DockerDaemon;

/**
 * The owner {@link PodmanReaperTest} kills: in its own JVM, it starts nginx-static on Podman as a run does (targets
 * folder and port as arguments), prints its container and its reaper, then "ready", and waits to be killed.
 */
public final class PodmanOwnerThatGetsKilled {
    private PodmanOwnerThatGetsKilled() {}

    public static void main(String[] args) throws Exception {
        EnvironmentRegistry registry = new EnvironmentRegistry(Path.of(args[0]), DockerDaemon.fromEnvironment());
        RunningTarget t = registry.start(new EnvironmentDefinition(
                "podman-owner",
                "nginx-static",
                EnvironmentDefinition.Placement.PODMAN,
                null,
                Integer.parseInt(args[1]),
                Duration.ofSeconds(60)));
        System.out.println("container " + t.containerId().orElseThrow());
        System.out.println("reaper " + ReaperProcess.ofThisJvm().pid().orElse(-1));
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}
