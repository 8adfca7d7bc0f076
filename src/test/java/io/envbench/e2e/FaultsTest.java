package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.envbench.results.Sample;
import io.envbench.docker.DockerInventory;

/** Bad input and a killed JMeter, in the real JMeter with the real Docker engine. */
class FaultsTest {
    @TempDir
    Path dir;
    DockerInventory docker;

    @BeforeEach
    void dockerRuns() {
        docker = Jmeter.docker();
    }

    private List<String> props(String env, String... more) {
        List<String> p = new ArrayList<>(Jmeter.shortRun(env));
        p.addAll(List.of(more));
        return p;
    }

    @Test
    void aBadMemoryLimitFailsTheStartByNameStopsTheTestAndLeavesNothing() throws Exception {
        Path jtl = dir.resolve("bad-memory.jtl");
        List<Sample> samples = Jmeter.run(Jmeter.STATIC_WEB, jtl, props("docker-bridge", "-Jenvbench.memory=12XB"));
        assertEquals(1, samples.size(), "only the failed start; the test stopped");
        assertFalse(samples.get(0).success());
        assertTrue(Files.readString(jtl).contains("memory: '12XB' is not a size"), Files.readString(jtl));
        assertEquals(List.of(), docker.containers());
    }

    @Test
    void aCpusetTheHostLacksIsRefusedByName() throws Exception {
        Path jtl = dir.resolve("bad-cpuset.jtl");
        List<Sample> samples = Jmeter.run(Jmeter.STATIC_WEB, jtl, props("docker-host", "-Jenvbench.cpuset=0-99"));
        assertEquals(1, samples.size());
        assertTrue(Files.readString(jtl).contains("cpuset: CPU "), Files.readString(jtl));
        assertEquals(List.of(), docker.containers());
    }

    @Test
    void anUnknownTargetIsRefusedByName() throws Exception {
        Path jtl = dir.resolve("bad-target.jtl");
        Jmeter.run(Jmeter.STATIC_WEB, jtl, props("docker-bridge", "-Jenvbench.target=nginx-nope"));
        assertTrue(Files.readString(jtl).contains("target: 'nginx-nope' is not a target recipe; use one of [bonnie, nginx-static"),
                Files.readString(jtl));
    }

    @Test
    void containersOfAKilledJmeterAreRemovedByTheNextStart() throws Exception {
        Path jtl = dir.resolve("killed.jtl");
        Process p = Jmeter.start(Jmeter.STATIC_WEB, jtl, List.of("-Jenvbench.env=docker-bridge", "-Jenvbench.warmup.seconds=60",
                "-Jenvbench.threads=2"));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // kill once the container runs and load goes to it (the JTL has HTTP samples)
            while (System.nanoTime() < deadline && !(docker.containers().stream().anyMatch(c -> "running".equals(c.state()))
                    && Files.exists(jtl) && Files.readString(jtl).contains("warm-up: GET page"))) {
                Thread.sleep(200);
            }
            assertEquals(1, docker.containers().size(), "the bridge container runs");
        } finally {
            p.destroyForcibly(); // SIGKILL: no shutdown hook, no test end
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String leftover = docker.containers().get(0).id();
        assertEquals("running", docker.containers().get(0).state(), "SIGKILL left the container behind");

        List<Sample> next = Jmeter.run(Jmeter.STATIC_WEB, dir.resolve("next.jtl"), Jmeter.shortRun("docker-host"));
        assertTrue(next.stream().allMatch(Sample::success), "the next run starts although the killed one held the port");
        assertTrue(docker.containers().stream().noneMatch(c -> c.id().equals(leftover)));
        assertEquals(List.of(), docker.containers());
    }

    @Test
    void aBareMetalServerOfAKilledJmeterIsStoppedByTheNextStart() throws Exception {
        Path jtl = dir.resolve("killed-bare.jtl");
        Process p = Jmeter.start(Jmeter.STATIC_WEB, jtl, List.of("-Jenvbench.env=bare", "-Jenvbench.warmup.seconds=60",
                "-Jenvbench.threads=2"));
        List<ProcessHandle> nginx;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            do {
                Thread.sleep(200);
                nginx = p.descendants().filter(h -> h.info().command().orElse("").endsWith("nginx")).toList();
            } while (nginx.isEmpty() && System.nanoTime() < deadline);
            assertFalse(nginx.isEmpty(), "JMeter started nginx");
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        assertTrue(nginx.stream().anyMatch(ProcessHandle::isAlive), "SIGKILL left nginx running");

        List<Sample> next = Jmeter.run(Jmeter.STATIC_WEB, dir.resolve("next-bare.jtl"), Jmeter.shortRun("bare"));
        assertTrue(next.stream().allMatch(Sample::success));
        assertTrue(nginx.stream().noneMatch(ProcessHandle::isAlive), "the leftover nginx was stopped");
    }
}
