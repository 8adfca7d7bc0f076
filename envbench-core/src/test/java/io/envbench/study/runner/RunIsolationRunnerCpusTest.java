package io.envbench.study.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.envbench.base.units.CpuSet;
import io.envbench.host.affinity.CpuAffinity;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's own JVM on the real host: while an isolated experiment runs it is on the load generator's CPUs with
 * JMeter (every thread, those it starts later too), never on the target's; afterwards it has the CPUs it had.
 */
class RunIsolationRunnerCpusTest {
    @TempDir
    Path dir;

    private Experiment experiment(String isolation) throws Exception {
        return ExperimentFile.parse(
                """
                name: runner-cpus
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                isolation: %s
                load:
                  http: { path: /page-4k.html, durationSeconds: 5 }
                """.formatted(isolation),
                dir.resolve("runner-cpus.yaml"),
                Path.of("..", "targets").toAbsolutePath().normalize());
    }

    @Test
    void theRunnerIsOnTheGeneratorsCpusWhileItRunsAndOnItsOwnAfter() throws Exception {
        DockerRequired.require(
                CpuSet.online().size() >= 2 && CpuAffinity.available(),
                "two CPUs and taskset",
                "a split needs them; this host has " + CpuSet.online());
        CpuAffinity affinity = new CpuAffinity();
        long self = ProcessHandle.current().pid();
        Optional<CpuSet> before = affinity.allowed(self);
        RunIsolation isolation = RunIsolation.of(experiment("cpus"));
        CpuSet generator = isolation.decision().split().orElseThrow().generator();
        CpuSet target = isolation.decision().split().orElseThrow().target();
        try (RunIsolation.RunnerCpus cpus = isolation.runnerOnGeneratorCpus()) {
            assertEquals(Optional.of(generator), affinity.allowed(self), "the runner's main thread");
            // a thread started meanwhile (a run's metrics reader, the live charts) inherits them
            String[] status = new String[1];
            Thread t = new Thread(() -> status[0] = readOwnStatus());
            t.start();
            t.join();
            System.out.printf(
                    "runner on %s (target %s); a thread started meanwhile: %s%n",
                    generator,
                    target,
                    status[0]
                            .lines()
                            .filter(l -> l.startsWith("Cpus_allowed_list"))
                            .findFirst()
                            .orElse("?"));
            assertTrue(status[0].contains("Cpus_allowed_list:\t" + generator + "\n"), status[0]);
        }
        assertEquals(before, affinity.allowed(self), "its own CPUs again");
    }

    @Test
    void withoutIsolationTheRunnerIsNotMoved() throws Exception {
        CpuAffinity affinity = new CpuAffinity();
        long self = ProcessHandle.current().pid();
        Optional<CpuSet> before = affinity.allowed(self);
        RunIsolation isolation = RunIsolation.of(experiment("off"));
        try (RunIsolation.RunnerCpus cpus = isolation.runnerOnGeneratorCpus()) {
            assertEquals(before, affinity.allowed(self));
        }
        assertEquals(before, affinity.allowed(self));
    }

    /** The calling thread's own status ({@code /proc/thread-self}), read while it runs. */
    private static String readOwnStatus() {
        try {
            return Files.readString(Path.of("/proc/thread-self/status"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
