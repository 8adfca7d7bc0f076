package io.envbench.base.readiness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.bare.BareMetalLauncher;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerLauncher;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each readiness check on real processes and real containers, including targets without a port. */
class ReadinessChecksTest {
    @TempDir
    Path dir;

    private RunningTarget bare(List<String> command, Readiness r) throws TargetStartException {
        return new BareMetalLauncher(dir)
                .start("ready-test", new BareMetalTarget(command, dir, Map.of("GREETING", "hi"), 0, r));
    }

    @Test
    void aOneShotJobIsReadyWhenItExitsWithTheExpectedCode() throws Exception {
        try (RunningTarget t =
                bare(List.of("sh", "-c", "sleep 0.3; echo done"), Readiness.exitCode(0, Duration.ofSeconds(5)))) {
            assertTrue(t.endpoint().isEmpty(), "a job has no port");
            assertTrue(t.describe().contains("no port"), t.describe());
            assertTrue(t.startToReady().toMillis() >= 250, "waited for the exit: " + t.startToReady());
        }
    }

    @Test
    void aOneShotJobWithAnotherExitCodeFailsAtOnceWithItsOutput() {
        long t0 = System.nanoTime();
        TargetStartException e = assertThrows(
                TargetStartException.class,
                () -> bare(
                        List.of("sh", "-c", "echo disk full >&2; exit 3"),
                        Readiness.exitCode(0, Duration.ofSeconds(30))));
        assertTrue(
                e.getMessage().contains("exited with 3, expected 0")
                        && e.getMessage().contains("disk full"),
                e.getMessage());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(5).toNanos(), "not waiting for the timeout");
    }

    @Test
    void aCommandCheckRunsOnTheHostWithTheTargetsEnvironment() throws Exception {
        // ready once the target has written its marker file; the check sees the recipe's environment
        Readiness r = Readiness.command(
                List.of("sh", "-c", "test -f marker && test \"$GREETING\" = hi"), Duration.ofSeconds(5));
        try (RunningTarget t = bare(List.of("sh", "-c", "sleep 0.3; touch marker; sleep 30"), r)) {
            assertTrue(dir.resolve("marker").toFile().exists());
        }
        TargetStartException e = assertThrows(
                TargetStartException.class,
                () -> bare(List.of("sleep", "30"), Readiness.command(List.of("false"), Duration.ofMillis(500))));
        assertTrue(
                e.getMessage().contains("command 'false' exits with 0")
                        && e.getMessage().contains("exited with 1"),
                e.getMessage());
    }

    @Test
    void aLogLineCheckWaitsForTheLine() throws Exception {
        try (RunningTarget t = bare(
                List.of("sh", "-c", "sleep 0.2; echo 'ready to accept connections'; sleep 30"),
                Readiness.logLine("ready to accept", Duration.ofSeconds(5)))) {
            assertTrue(t.logs(5).contains("ready to accept connections"));
        }
    }

    @Test
    void aPortCheckOnATargetWithoutAPortIsRefusedUpFront() {
        InvalidSettingException e = assertThrows(
                InvalidSettingException.class,
                () -> new BareMetalTarget(List.of("true"), dir, Map.of(), 0, Readiness.tcp(Duration.ofSeconds(1))));
        assertEquals("ready", e.field());
        assertTrue(e.getMessage().contains("no port"), e.getMessage());
    }

    @Test
    void checksInAContainerRunThroughDockerExec() throws Exception {
        DockerRequired.check();
        DockerLauncher docker = new DockerLauncher(new DockerConnection(DockerDaemon.fromEnvironment()));
        ContainerOptions o = ContainerOptions.builder()
                // PID 1 ignores SIGTERM without a handler: the trap lets the stop end it at once, not after its grace
                // period
                .command(List.of("sh", "-c", "trap 'exit 0' TERM; sleep 0.3; touch /tmp/up; sleep 60 & wait"))
                .build();
        try (RunningTarget t = docker.start(
                "ready-exec",
                new ContainerTarget(
                        "envbench/base:latest",
                        o,
                        0,
                        0,
                        Readiness.command(List.of("test", "-f", "/tmp/up"), Duration.ofSeconds(20))))) {
            assertTrue(t.containerId().isPresent() && t.endpoint().isEmpty());
        }
        ContainerOptions job = ContainerOptions.builder()
                .command(List.of("sh", "-c", "echo written; exit 0"))
                .build();
        try (RunningTarget t = docker.start(
                "ready-exit",
                new ContainerTarget(
                        "envbench/base:latest", job, 0, 0, Readiness.exitCode(0, Duration.ofSeconds(20))))) {
            assertTrue(t.logs(5).contains("written"), t.logs(5));
        }
        ContainerOptions failing = ContainerOptions.builder()
                .command(List.of("sh", "-c", "exit 2"))
                .build();
        TargetStartException e = assertThrows(
                TargetStartException.class,
                () -> docker.start(
                        "ready-fail",
                        new ContainerTarget(
                                "envbench/base:latest", failing, 0, 0, Readiness.exitCode(0, Duration.ofSeconds(20)))));
        assertTrue(e.getMessage().contains("exited with 2"), e.getMessage());
    }
}
