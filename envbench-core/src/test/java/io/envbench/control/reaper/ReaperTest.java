package io.envbench.control.reaper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.environment.LeftoverCheck;
import io.envbench.base.environment.OwnerIdentity;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the real engine, with a real SIGKILL: an owner JVM that made a container, a network, a volume and a
 * bare-metal process is killed, and with no new run its reaper removes all of them within 10 s.
 */
public class ReaperTest {
    @TempDir
    Path state;

    @Test
    void theOwnersSideStartsThisClassByItsName() {
        // the handle sits a floor below and names its main class as text: a rename must not leave it behind
        assertEquals(Reaper.class.getName(), ReaperProcess.MAIN_CLASS);
    }

    @Test
    void everythingAKilledOwnerMadeIsGoneWithinTenSecondsWithoutANewRun() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        long ms = killOwnerAndAwaitNothingLeft(
                state, "envbench/base:latest", Map.of(), docker, "local daemon", CGROUP_ROOT);
        assertTrue(ms < 10_000, "gone within 10 s, took " + ms + " ms");
    }

    /**
     * Runs {@link OwnerThatGetsKilled} in its own JVM (its container of {@code image}) with {@code env} added (DOCKER_HOST etc. choose its daemon),
     * SIGKILLs it once it made everything, and waits (at most 20 s) until its container, network, volume (on
     * {@code docker}) and bare process are gone, with no new run; checks its reaper exited and logged the removal.
     *
     * @return milliseconds from the SIGKILL to the last leftover gone (printed too)
     */
    public static long killOwnerAndAwaitNothingLeft(
            Path state, String image, Map<String, String> env, DockerClient docker, String where) throws Exception {
        return killOwnerAndAwaitNothingLeft(state, image, env, docker, where, null);
    }

    /** How the owner is killed: alone, with every process below it (a CI cancel), or every process of its cgroup. */
    enum Kill {
        OWNER,
        TREE,
        CGROUP
    }

    @Test
    void aKillOfTheOwnersWholeTreeLeavesTheReaperToSweep() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        long ms = killOwnerAndAwaitNothingLeft(
                state, "envbench/base:latest", Map.of(), docker, "tree killed", null, Kill.TREE);
        assertTrue(ms < 10_000, "gone within 10 s, took " + ms + " ms");
    }

    @Test
    void aKillOfEveryProcessInTheOwnersCgroupLeavesTheReaperToSweep() throws Exception {
        DockerRequired.check();
        DockerRequired.require(
                Files.isWritable(PIDS_HIERARCHY), "a writable cgroup v1 pids hierarchy", PIDS_HIERARCHY + " (root)");
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        long ms = killOwnerAndAwaitNothingLeft(
                state, "envbench/base:latest", Map.of(), docker, "cgroup killed", null, Kill.CGROUP);
        assertTrue(ms < 10_000, "gone within 10 s, took " + ms + " ms");
    }

    /** Where a test makes the owner's own cgroup to kill (cgroup v1, as on the project's machine). */
    private static final Path PIDS_HIERARCHY = Path.of("/sys/fs/cgroup/pids");

    /** The host's cgroup root: the owner makes a memory cgroup there as a bare-metal command load does (needs root, as CI has). */
    static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

    /** As above; with {@code cgroupRoot}, the owner also makes a memory cgroup with a process in it, which must go too. */
    static long killOwnerAndAwaitNothingLeft(
            Path state, String image, Map<String, String> env, DockerClient docker, String where, Path cgroupRoot)
            throws Exception {
        return killOwnerAndAwaitNothingLeft(state, image, env, docker, where, cgroupRoot, Kill.OWNER);
    }

    private static long killOwnerAndAwaitNothingLeft(
            Path state,
            String image,
            Map<String, String> env,
            DockerClient docker,
            String where,
            Path cgroupRoot,
            Kill kill)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                OwnerThatGetsKilled.class.getName(),
                state.toString(),
                image));
        if (cgroupRoot != null) {
            cmd.add(cgroupRoot.toString());
        }
        Path ownCgroup = null;
        if (kill == Kill.CGROUP) { // the owner, and all it starts, in a cgroup of their own, as a CI job's scope
            ownCgroup = Files.createDirectory(PIDS_HIERARCHY.resolve("envbench-killtest-" + System.nanoTime()));
            List<String> inCgroup = new ArrayList<>(
                    List.of("sh", "-c", "echo $$ > " + ownCgroup.resolve("cgroup.procs") + " && exec \"$0\" \"$@\""));
            inCgroup.addAll(cmd);
            cmd = inCgroup;
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process owner = pb.start();
        Map<String, String> made = new HashMap<>();
        List<String> said = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (String line;
                    System.nanoTime() < deadline && (line = out.readLine()) != null && !line.equals("ready"); ) {
                said.add(line);
                String[] f = line.split(" ", 2);
                if (f.length == 2
                        && List.of("container", "network", "volume", "bare", "reaper", "cgroup", "cgrouped")
                                .contains(f[0])) {
                    made.put(f[0], f[1]);
                }
            }
            assertEquals(
                    cgroupRoot == null ? 5 : 7,
                    made.size(),
                    "the owner made everything and started its reaper: " + String.join("\n", said));
            long reaperPid = Long.parseLong(made.get("reaper"));
            long barePid = Long.parseLong(made.get("bare"));
            assertTrue(reaperPid > 0, "a reaper process runs beside the owner");
            assertTrue(ProcessHandle.of(barePid).map(ProcessHandle::isAlive).orElse(false));
            assertTrue(containerExists(docker, made.get("container")));

            // whether the test's kill took the bare process itself: then the reaper may find it already gone
            boolean bareKilledWithOwner = kill == Kill.CGROUP;
            long killed = System.nanoTime();
            switch (kill) {
                case OWNER -> owner.destroyForcibly(); // SIGKILL: no shutdown hook runs
                case TREE -> { // as a CI runner cancels a job: every process found below its root
                    List<ProcessHandle> tree =
                            new ArrayList<>(owner.toHandle().descendants().toList());
                    assertFalse(
                            tree.stream().anyMatch(p -> p.pid() == reaperPid),
                            "the reaper is no descendant of its owner: " + tree);
                    bareKilledWithOwner = tree.stream().anyMatch(p -> p.pid() == barePid);
                    owner.toHandle().destroyForcibly();
                    tree.forEach(ProcessHandle::destroyForcibly);
                }
                case CGROUP -> killAll(ownCgroup, reaperPid);
            }
            owner.waitFor(10, TimeUnit.SECONDS);
            long gone = -1;
            while (System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(20)) {
                if (!containerExists(docker, made.get("container"))
                        && !networkExists(docker, made.get("network"))
                        && !volumeExists(docker, made.get("volume"))
                        && !alive(barePid)
                        && (cgroupRoot == null
                                || !Files.exists(Path.of(made.get("cgroup")))
                                        && !alive(Long.parseLong(made.get("cgrouped"))))) {
                    gone = (System.nanoTime() - killed) / 1_000_000;
                    break;
                }
                Thread.sleep(50);
            }
            System.out.printf(
                    "reaper (%s): owner SIGKILLed -> container, network, volume, bare process%s gone in %s ms%n",
                    where,
                    cgroupRoot == null ? "" : " and memory cgroup with its process",
                    gone < 0 ? "(not within 20 s)" : Long.toString(gone));
            assertTrue(
                    gone >= 0,
                    "leftovers still there 20 s after the owner's death: container "
                            + containerExists(docker, made.get("container"))
                            + ", network " + networkExists(docker, made.get("network")) + ", volume "
                            + volumeExists(docker, made.get("volume"))
                            + ", bare process " + alive(barePid) + ", cgroup " + made.get("cgroup") + "; reaper log: "
                            + readLog(owner.pid()));
            long reaperDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (alive(reaperPid) && System.nanoTime() < reaperDeadline) {
                Thread.sleep(50);
            }
            assertFalse(alive(reaperPid), "the reaper exits once it swept");
            String log = readLog(owner.pid());
            assertTrue(log.contains(made.get("container").substring(0, 12)), log);
            if (!bareKilledWithOwner) {
                assertTrue(log.contains("stopped 1 bare-metal process"), log);
            }
            try (var left = Files.list(state)) {
                assertEquals(List.of(), left.toList(), "the bare run's state file, log and STATE folder are gone too");
            }
            Files.deleteIfExists(ReaperProcess.logFile(owner.pid()));
            return gone;
        } finally {
            owner.destroyForcibly();
            if (ownCgroup != null) {
                killAll(ownCgroup, -1);
                Files.deleteIfExists(ownCgroup);
            }
            // a reaper that failed leaves the owner's memory cgroup: gone here, so no later test finds it
            String madeCgroup = made.get("cgroup");
            if (madeCgroup != null && Files.isDirectory(Path.of(madeCgroup))) {
                killAll(Path.of(madeCgroup), -1);
                Files.deleteIfExists(Path.of(madeCgroup));
            }
        }
    }

    /** SIGKILLs every process in the cgroup until none is left (at most 5 s), as systemd stops a unit. */
    private static void killAll(Path cgroup, long reaperPid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            List<Long> pids = Files.readAllLines(cgroup.resolve("cgroup.procs")).stream()
                    .filter(l -> !l.isBlank())
                    .map(Long::parseLong)
                    .toList();
            if (reaperPid > 0) {
                assertFalse(pids.contains(reaperPid), "the reaper left its owner's cgroup: " + pids);
            }
            if (pids.isEmpty()) {
                return;
            }
            pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            Thread.sleep(50);
        }
    }

    @Test
    void anOwnerThatExitedButWasNotCollectedIsGone() throws Exception {
        // sh forks a child that exits at once, then becomes a sleep that never collects it: a zombie
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0 & echo $!; exec sleep 20").start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            long zombie = Long.parseLong(out.readLine().trim());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!OwnerIdentity.isZombie(zombie) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(OwnerIdentity.isZombie(zombie), "the child exited and nobody collected it");
            assertTrue(
                    ProcessHandle.of(zombie).map(ProcessHandle::isAlive).orElse(false),
                    "Java alone would call it alive");
            assertTrue(LeftoverCheck.ProcessTable.local().find(zombie).isEmpty(), "the owner check does not");
            assertFalse(OwnerIdentity.isZombie(ProcessHandle.current().pid()), "this JVM runs");
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    void theReaperIsStartedWithTheClassPathEnvBenchWasLoadedFrom() {
        String cp = ReaperProcess.classPath();
        String own = ReaperProcess.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath();
        assertTrue(cp.contains(Path.of(own).toString()), cp);
        assertTrue(cp.contains("docker-java"), "docker-java is on it: " + cp);
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

    private static boolean containerExists(DockerClient docker, String id) {
        return docker.listContainersCmd().withShowAll(true).withIdFilter(List.of(id)).exec().stream()
                .anyMatch(c -> c.getId().equals(id));
    }

    private static boolean networkExists(DockerClient docker, String id) {
        return docker.listNetworksCmd().exec().stream().anyMatch(n -> n.getId().equals(id));
    }

    private static boolean volumeExists(DockerClient docker, String name) {
        var volumes = docker.listVolumesCmd().exec().getVolumes();
        return volumes != null && volumes.stream().anyMatch(v -> v.getName().equals(name));
    }
}
