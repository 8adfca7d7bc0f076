package io.envbench.study.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.envbench.base.readiness.PortListeners;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.host.affinity.CpuAffinity;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote engines on this machine and the load generator's CPUs, on a fixture /proc: an engine the user started on the
 * target's CPUs is not moved; `auto` runs shared and says why, `cpus` is refused with the command that fixes it; an
 * engine started on the generator's CPUs keeps the split.
 */
class RunIsolationEnginesTest {
    @TempDir
    Path dir;

    /** A /proc with one process (PID 4242) listening on 127.0.0.1:24101 (0x5E25), allowed on {@code cpus}. */
    private Path proc(String cpus) throws Exception {
        Path proc = dir.resolve("proc-" + cpus);
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(
                proc.resolve("net/tcp"),
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
                        + "   0: 0100007F:5E25 00000000:0000 0A 00000000:00000000 00:00000000 00000000  0        0 9001 1 0 100 0 0 10 0\n");
        Path fd = Files.createDirectories(proc.resolve("4242/fd"));
        Files.createSymbolicLink(fd.resolve("7"), Path.of("socket:[9001]"));
        Files.writeString(proc.resolve("4242/comm"), "java\n");
        Files.writeString(proc.resolve("4242/status"), "Name:\tjava\nCpus_allowed_list:\t" + cpus + "\n");
        return proc;
    }

    private Experiment experiment(String isolation) throws Exception {
        Files.writeString(dir.resolve("rmi_keystore.jks"), "not read here");
        return ExperimentFile.parse(
                """
                name: remote
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                isolation: %s
                load:
                  http: { path: /page-4k.html, durationSeconds: 5 }
                  engines: [127.0.0.1:24101]
                  rmiKeystore: rmi_keystore.jks
                """.formatted(isolation),
                dir.resolve("remote.yaml"),
                Path.of("..", "targets").toAbsolutePath().normalize());
    }

    @Test
    void anEngineOnTheTargetsCpusIsSaidAndNotMoved() throws Exception {
        DockerRequired.require(
                CpuSet.online().size() >= 2 && CpuAffinity.available(),
                "two CPUs and taskset",
                "a split needs them; this host has " + CpuSet.online());
        Path shared = proc(CpuSet.online().toString());
        assertEquals(List.of(4242L), PortListeners.read(shared, 24101).holders());

        RunIsolation auto = RunIsolation.of(experiment("auto"), shared, new CpuAffinity(shared));
        assertTrue(auto.decision().split().isEmpty(), auto.decision().describe());
        assertTrue(
                auto.decision().describe().contains("remote engine 127.0.0.1:24101 (PID 4242) may run on CPUs "),
                auto.decision().describe());
        assertTrue(
                auto.decision().describe().contains("taskset -c 0 ./envbench jmeter -s"),
                auto.decision().describe());
        assertEquals(
                "java\n", Files.readString(shared.resolve("4242/comm")), "the fixture is read, nothing is written");

        InvalidSettingException cpus = assertThrows(
                InvalidSettingException.class,
                () -> RunIsolation.of(experiment("cpus"), shared, new CpuAffinity(shared)));
        assertEquals("isolation", cpus.field());
        assertTrue(cpus.getMessage().contains("remote engine 127.0.0.1:24101"), cpus.getMessage());

        Path own = proc("0");
        RunIsolation isolated = RunIsolation.of(experiment("cpus"), own, new CpuAffinity(own));
        assertTrue(isolated.decision().split().isPresent(), isolated.decision().describe());
    }
}
