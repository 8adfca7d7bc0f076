package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.measure.results.Sample;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** Bad input and a killed JMeter, in the real JMeter with the real Docker engine. */
@Isolated
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
        assertTrue(
                Files.readString(jtl)
                        .contains(
                                "target: 'nginx-nope' is not a target recipe; use one of [bonnie, daytrader, isucon-login, nginx-static"),
                Files.readString(jtl));
    }

    /** Starts JMeter on {@code env} with a long warm-up and SIGKILLs it once the target has load (the JTL has warm-up samples). */
    private Process killedDuringLoad(String name, String env, String... more) throws Exception {
        Path jtl = dir.resolve(name + ".jtl");
        List<String> props = new ArrayList<>(
                List.of("-Jenvbench.env=" + env, "-Jenvbench.warmup.seconds=60", "-Jenvbench.threads=2"));
        props.addAll(List.of(more));
        Process p = Jmeter.start(Jmeter.STATIC_WEB, jtl, props);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline
                    && !(Files.exists(jtl) && Files.readString(jtl).contains("warm-up: GET page"))) {
                Thread.sleep(200);
            }
            assertTrue(Files.readString(jtl).contains("warm-up: GET page"), "load reached " + env);
        } catch (Exception | AssertionError e) {
            p.destroyForcibly();
            throw e;
        }
        return p;
    }

    /** SIGKILLs JMeter (no shutdown hook, no test end) and returns the instant, as System.nanoTime. */
    private long sigkill(Process p) throws InterruptedException {
        long at = System.nanoTime();
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
        killed.add(p.pid());
        return at;
    }

    /** PIDs of the JMeters these tests killed: their reapers' logs (what they removed) are the tests' to remove. */
    private final List<Long> killed = new ArrayList<>();

    @AfterEach
    void removeTheKilledJmetersReaperLogs() throws Exception {
        Thread.sleep(killed.isEmpty() ? 0 : 500); // a reaper writes its last line as it exits
        for (long pid : killed) {
            Files.deleteIfExists(ReaperProcess.logFile(pid));
        }
    }

    @Test
    void containersOfAKilledJmeterAreGoneWithinTenSecondsWithNoNewRun() throws Exception {
        Process p = killedDuringLoad("killed", "docker-bridge");
        assertEquals(1, docker.containers().size(), "the bridge container runs");
        long killed = sigkill(p);
        long gone = -1;
        while (System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(30)) {
            if (docker.containers().isEmpty()) {
                gone = (System.nanoTime() - killed) / 1_000_000;
                break;
            }
            Thread.sleep(50);
        }
        System.out.printf(
                "reaper: JMeter SIGKILLed mid-run (docker-bridge) -> its container gone in %s ms, with no new run%n",
                gone < 0 ? "(not within 30 s)" : Long.toString(gone));
        assertTrue(
                gone >= 0 && gone < 10_000,
                "the container of the killed JMeter is gone within 10 s; took " + gone + " ms, left: "
                        + docker.containers());
    }

    @Test
    void withTheReaperOffTheNextStartRemovesWhatAKilledJmeterLeft() throws Exception {
        Process p = killedDuringLoad("killed-noreaper", "docker-bridge", "-Denvbench.reaper=off");
        assertEquals(1, docker.containers().size(), "the bridge container runs");
        sigkill(p);
        Thread.sleep(2000);
        assertEquals(1, docker.containers().size(), "with the reaper off, SIGKILL leaves the container behind");
        String leftover = docker.containers().get(0).id();
        assertEquals("running", docker.containers().get(0).state());

        List<Sample> next = Jmeter.run(Jmeter.STATIC_WEB, dir.resolve("next.jtl"), Jmeter.shortRun("docker-host"));
        assertTrue(
                next.stream().allMatch(Sample::success), "the next run starts although the killed one held the port");
        assertTrue(docker.containers().stream().noneMatch(c -> c.id().equals(leftover)));
        assertEquals(List.of(), docker.containers());
    }

    @Test
    void aBareMetalServerOfAKilledJmeterIsStoppedWithinTenSecondsWithNoNewRun() throws Exception {
        Process p = killedDuringLoad("killed-bare", "bare");
        List<ProcessHandle> nginx = p.descendants()
                .filter(h -> h.info().command().orElse("").endsWith("nginx"))
                .toList();
        assertFalse(nginx.isEmpty(), "JMeter started nginx");
        long killed = sigkill(p);
        long gone = -1;
        while (System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(30)) {
            if (nginx.stream().noneMatch(ProcessHandle::isAlive)) {
                gone = (System.nanoTime() - killed) / 1_000_000;
                break;
            }
            Thread.sleep(50);
        }
        System.out.printf(
                "reaper: JMeter SIGKILLed mid-run (bare) -> its nginx stopped in %s ms, with no new run%n",
                gone < 0 ? "(not within 30 s)" : Long.toString(gone));
        assertTrue(
                gone >= 0 && gone < 10_000, "the killed JMeter's nginx is stopped within 10 s; took " + gone + " ms");
    }
    /**
     * The target killed from outside mid-test (as the OOM killer would): the load's samples that fail from then on carry
     * the reason in their response message (the plan's Environment Tag) and stay tagged with it, and nothing is left.
     */
    @Test
    void samplesThatFailAfterTheTargetDiedNameItAndTheReason() throws Exception {
        Path jtl = dir.resolve("died.jtl");
        Process p = Jmeter.start(
                Jmeter.STATIC_WEB,
                jtl,
                List.of(
                        "-Jenvbench.env=docker-bridge",
                        "-Jenvbench.warmup.seconds=1",
                        "-Jenvbench.light.seconds=1",
                        "-Jenvbench.saturation.seconds=10",
                        "-Jenvbench.threads=2"));
        long killedAtMs;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline
                    && !(Files.exists(jtl) && Files.readString(jtl).contains("saturation: GET page"))) {
                Thread.sleep(100);
            }
            assertTrue(
                    Files.readString(jtl).contains("saturation: GET page"),
                    "load reached docker-bridge: " + Jmeter.logTail(jtl, 20));
            var victim = docker.containers();
            assertEquals(1, victim.size(), "the bridge container runs: " + victim);
            killedAtMs = System.currentTimeMillis();
            new DockerConnection(DockerDaemon.fromEnvironment())
                    .client()
                    .killContainerCmd(victim.get(0).id())
                    .exec(); // SIGKILL to its main process
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "JMeter ends: " + Jmeter.logTail(jtl, 20));
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
        List<CSVRecord> rows;
        try (var r = Files.newBufferedReader(jtl)) {
            rows = CSVFormat.DEFAULT
                    .builder()
                    .setHeader()
                    .setSkipHeaderRecord(true)
                    .build()
                    .parse(r)
                    .getRecords();
        }
        String reason =
                "(EnvBench: environment docker-bridge died during the test: exited with code 137 (killed by signal 9, SIGKILL))";
        // the death is heard within a second or two (the container's events stream). Once a thread's sample was marked,
        // the death was known when its post-processor ran, so every later failure of that thread says it; another
        // thread's failure in the same milliseconds may have been post-processed just before the death was known
        long firstMarkedEndMs = rows.stream()
                .filter(r -> r.get("responseMessage").endsWith(reason))
                .mapToLong(r -> Long.parseLong(r.get("timeStamp")) + Long.parseLong(r.get("elapsed")))
                .min()
                .orElseThrow(
                        () -> new AssertionError("no sample names the dead environment: " + rows.size() + " rows"));
        Map<String, Boolean> threadKnows = new HashMap<>();
        List<CSVRecord> failedLater = new ArrayList<>();
        for (CSVRecord r : rows) { // in the order each thread wrote them
            String thread = r.get("threadName");
            if (threadKnows.getOrDefault(thread, false)
                    && r.get("label").startsWith("saturation")
                    && "false".equals(r.get("success"))) {
                failedLater.add(r);
            }
            if (r.get("responseMessage").endsWith(reason)) {
                threadKnows.put(thread, true);
            }
        }
        long marked = rows.stream()
                .filter(r -> r.get("responseMessage").endsWith(reason))
                .count();
        System.out.printf(
                "target died mid-test: the first sample marked with the reason ended %d ms after the kill; %d failed samples "
                        + "after their thread's first marked one, %d samples marked%n",
                firstMarkedEndMs - killedAtMs, failedLater.size(), marked);
        assertTrue(
                firstMarkedEndMs - killedAtMs <= 5000,
                "marked within 5 s of the kill: " + (firstMarkedEndMs - killedAtMs) + " ms");
        assertFalse(failedLater.isEmpty(), "the load went on failing after the kill: " + rows.size() + " rows");
        for (var r : failedLater) {
            assertTrue(r.get("responseMessage").endsWith(reason), "a failed sample names the dead environment: " + r);
            assertEquals("docker-bridge", r.get("envbench.env"), "and stays tagged with it: " + r);
        }
        assertTrue(
                rows.stream()
                        .noneMatch(r -> r.get("success").equals("true")
                                && r.get("responseMessage").contains("EnvBench: environment")),
                "only failures are marked");
        assertEquals(List.of(), docker.containers());
    }
}
