package io.envbench.control.reaper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.envbench.base.environment.OwnerIdentity;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.study.steering.HostRoots;
import io.envbench.study.steering.NetworkIrq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * As root on the real host, with a real SIGKILL: an owner JVM that changed lo's RPS mask and the network IRQs'
 * affinities through its journal is killed, and with no new run its reaper puts every value back within 10 s.
 * Run under {@code flock /work/docker.lock}: it moves real IRQs.
 */
class ReaperHostSettingsTest {
    @TempDir
    Path journals;

    @Test
    void theHostSettingsOfAKilledOwnerAreBackWithinTenSecondsWithoutANewRun() throws Exception {
        DockerRequired.require("0".equals(DockerRequired.uid()), "root", "changing host settings needs root");
        HostRoots real = HostRoots.real();
        Path loRps = real.netDevice("lo").resolve("queues/rx-0/rps_cpus");
        Map<Path, String> before = new LinkedHashMap<>();
        before.put(loRps, read(loRps));
        for (var irq : NetworkIrq.find(real)) {
            before.put(real.affinityListOf(irq.irq()), read(real.affinityListOf(irq.irq())));
        }
        Process owner = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        OwnerThatChangesHostSettings.class.getName(),
                        journals.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> said = new ArrayList<>();
            List<Path> changed = new ArrayList<>(List.of(loRps));
            long reaperPid = -1;
            Path journal = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (String line;
                    System.nanoTime() < deadline && (line = out.readLine()) != null && !line.equals("ready"); ) {
                said.add(line);
                if (line.startsWith("irq ")) {
                    changed.add(real.affinityListOf(Integer.parseInt(line.substring(4))));
                } else if (line.startsWith("reaper ")) {
                    reaperPid = Long.parseLong(line.substring(7));
                } else if (line.startsWith("journal ")) {
                    journal = Path.of(line.substring(8));
                }
            }
            assertTrue(
                    reaperPid > 0 && journal != null,
                    "the owner opened a journal and its reaper runs: " + String.join("\n", said));
            assertTrue(changed.size() > 1, "at least one IRQ moved: " + said);
            for (Path p : changed) {
                assertNotEquals(before.get(p), read(p), p + " was changed by the owner");
            }
            assertTrue(Files.exists(journal));

            long killed = System.nanoTime();
            owner.destroyForcibly(); // SIGKILL: no shutdown hook, no close()
            owner.waitFor(10, TimeUnit.SECONDS);
            long back = -1;
            while (System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(20)) {
                if (allBack(before) && !Files.exists(journal)) {
                    back = (System.nanoTime() - killed) / 1_000_000;
                    break;
                }
                Thread.sleep(20);
            }
            System.out.printf(
                    "reaper: owner SIGKILLed -> lo's RPS mask and %d IRQ affinities put back, journal gone, in %s ms%n",
                    changed.size() - 1, back < 0 ? "(not within 20 s)" : Long.toString(back));
            assertTrue(
                    back >= 0,
                    "not back 20 s after the kill: " + now(before) + "; reaper log: " + readLog(owner.pid()));
            assertTrue(back < 10_000, "back within 10 s, took " + back + " ms");
            long reaperDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (alive(reaperPid) && System.nanoTime() < reaperDeadline) {
                Thread.sleep(50);
            }
            assertFalse(alive(reaperPid), "the reaper exits once it swept");
            String log = readLog(owner.pid());
            assertTrue(log.contains("put back host settings: " + changed.size() + " settings put back"), log);
            Files.deleteIfExists(ReaperProcess.logFile(owner.pid()));
        } finally {
            owner.destroyForcibly();
        }
        assertEquals(before, now(before));
    }

    private static boolean allBack(Map<Path, String> before) throws IOException {
        return now(before).equals(before);
    }

    private static Map<Path, String> now(Map<Path, String> before) throws IOException {
        Map<Path, String> now = new LinkedHashMap<>();
        for (Path p : before.keySet()) {
            now.put(p, read(p));
        }
        return now;
    }

    private static String read(Path p) throws IOException {
        return Files.readString(p).strip();
    }

    private static String readLog(long ownerPid) {
        try {
            return Files.readString(ReaperProcess.logFile(ownerPid));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent() && !OwnerIdentity.isZombie(pid);
    }
}
