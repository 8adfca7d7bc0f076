package io.envbench.study.steering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On this machine's real /proc and /sys, as root: a network IRQ's affinity, a veth's and lo's RPS masks, a cpuset
 * cgroup's CPUs and a process named irqbalance are changed through the journal and put back; the journal is written
 * down before the change even when its disk is full. Run under {@code flock /work/docker.lock}: it moves real IRQs.
 */
class HostSteeringRealTest {
    private static final HostRoots REAL = HostRoots.real();

    @TempDir
    Path dir;

    static void requireRoot() {
        boolean root = "0".equals(DockerRequired.uid());
        DockerRequired.require(
                root && Files.isDirectory(Path.of("/proc/irq")),
                "root with /proc/irq",
                "changing IRQ affinities and RPS masks needs root (uid " + DockerRequired.uid() + ")");
    }

    @Test
    void aRealNetworkIrqIsPointedAtACpuAndPutBack() throws IOException {
        requireRoot();
        List<NetworkIrq> irqs = NetworkIrq.find(REAL);
        DockerRequired.require(
                !irqs.isEmpty(), "a network device with IRQs", "no interface here has a device with IRQs");
        Map<Integer, String> before = new LinkedHashMap<>();
        for (NetworkIrq i : irqs) {
            before.put(i.irq(), Files.readString(REAL.affinityListOf(i.irq())).strip());
        }
        CpuSet online = CpuSet.online();
        List<Integer> cpus = online.cpus();
        CpuSet target = CpuSet.parseList("irqCpus", Integer.toString(cpus.get(cpus.size() - 1)));
        SteeringStep step;
        try (HostSettingsJournal journal =
                HostSettingsJournal.open(dir.resolve("journals"), DaemonRestart.onThisHost())) {
            InterruptSteering steering = InterruptSteering.ofNetworkDevices(journal, REAL, IrqBalancePolicy.PAUSE);
            step = steering.step(target);
            System.out.println("real IRQ steering: "
                    + irqs.stream().map(NetworkIrq::describe).toList() + " -> " + step.describe());
            assertFalse(
                    step.cpuOfIrq().isEmpty(), "at least one network IRQ accepts a new affinity: " + step.describe());
            for (int irq : step.cpuOfIrq().keySet()) {
                assertEquals(
                        target.toString(),
                        Files.readString(REAL.affinityListOf(irq)).strip(),
                        "IRQ " + irq + " moved");
            }
            assertEquals(
                    irqs.size(),
                    step.cpuOfIrq().size()
                            + step.notes().stream()
                                    .filter(n -> n.contains("refused"))
                                    .count(),
                    "every IRQ either moved or has a note");
        }
        for (var e : before.entrySet()) {
            assertEquals(
                    e.getValue(),
                    Files.readString(REAL.affinityListOf(e.getKey())).strip(),
                    "IRQ " + e.getKey() + " put back");
        }
    }

    @Test
    void aManagedIrqTheKernelWillNotMoveIsANoteNotAFailure() throws IOException {
        requireRoot();
        // look for an IRQ that refuses (a managed one, e.g. a virtio disk queue); not every machine has one
        Integer refusing = null;
        for (var actions : NetworkIrq.actions(REAL.proc()).entrySet()) {
            Path list = REAL.affinityListOf(actions.getKey());
            String now = Files.readString(list).strip();
            try {
                Files.writeString(list, now + "\n");
            } catch (IOException e) {
                refusing = actions.getKey();
                break;
            }
        }
        DockerRequired.require(
                refusing != null || !"true".equalsIgnoreCase(System.getenv("CI")), "an IRQ that refuses", "none here");
        if (refusing == null) {
            return;
        }
        String before = Files.readString(REAL.affinityListOf(refusing)).strip();
        try (HostSettingsJournal journal =
                HostSettingsJournal.open(dir.resolve("journals"), DaemonRestart.onThisHost())) {
            InterruptSteering steering =
                    InterruptSteering.ofIrqs(journal, REAL, List.of(refusing), IrqBalancePolicy.PAUSE);
            SteeringStep step = steering.step(CpuSet.parseList("irqCpus", "0"));
            System.out.println("a managed IRQ: " + step.describe());
            assertEquals(Map.of(), step.cpuOfIrq());
            assertTrue(
                    step.notes().get(0).contains("the kernel refused a new affinity"),
                    step.notes().toString());
            assertEquals(List.of(), steering.irqs(), "not tried again at the next step");
            var r = journal.restore();
            assertTrue(r.complete(), "nothing to put back for a value that never changed: " + r.failed());
            assertFalse(Files.exists(journal.file()));
        }
        assertEquals(before, Files.readString(REAL.affinityListOf(refusing)).strip());
    }

    @Test
    void aRealVethAndLoopbackRpsMaskIsSetAndPutBack() throws Exception {
        requireRoot();
        String host = "envb" + ProcessHandle.current().pid() % 100000 + "h";
        String peer = "envb" + ProcessHandle.current().pid() % 100000 + "p";
        run("ip", "link", "add", host, "type", "veth", "peer", "name", peer);
        try {
            Path vethRps = REAL.netDevice(host).resolve("queues/rx-0/rps_cpus");
            Path loRps = REAL.netDevice("lo").resolve("queues/rx-0/rps_cpus");
            String vethBefore = Files.readString(vethRps).strip();
            String loBefore = Files.readString(loRps).strip();
            CpuSet cpus = CpuSet.online();
            try (HostSettingsJournal journal =
                    HostSettingsJournal.open(dir.resolve("journals"), DaemonRestart.onThisHost())) {
                List<Path> written = new ReceivePacketSteering(journal, REAL).steer(List.of(host, "lo"), cpus);
                assertTrue(written.contains(vethRps) && written.contains(loRps), written.toString());
                assertEquals(
                        cpus, CpuSet.parseHexMask("rps_cpus", Files.readString(vethRps)), "the kernel took the mask");
                assertEquals(cpus, CpuSet.parseHexMask("rps_cpus", Files.readString(loRps)));
                System.out.println("real RPS: " + host + " and lo rps_cpus " + vethBefore + "/" + loBefore + " -> "
                        + Files.readString(vethRps).strip());
            }
            assertEquals(vethBefore, Files.readString(vethRps).strip());
            assertEquals(loBefore, Files.readString(loRps).strip());
        } finally {
            run("ip", "link", "del", host);
        }
    }

    @Test
    void aRealCpusetCgroupsCpusArePutBack() throws Exception {
        requireRoot();
        Path cpuset = Path.of("/sys/fs/cgroup/cpuset");
        DockerRequired.require(
                Files.exists(cpuset.resolve("cpuset.cpus")), "the cgroup v1 cpuset controller", "no " + cpuset);
        Path cgroup = cpuset.resolve("envb-test-" + ProcessHandle.current().pid());
        Files.createDirectory(cgroup);
        try {
            Files.writeString(cgroup.resolve("cpuset.mems"), Files.readString(cpuset.resolve("cpuset.mems")));
            String all = Files.readString(cpuset.resolve("cpuset.cpus")).strip();
            Files.writeString(cgroup.resolve("cpuset.cpus"), all + "\n");
            try (HostSettingsJournal journal =
                    HostSettingsJournal.open(dir.resolve("journals"), DaemonRestart.onThisHost())) {
                journal.write(cgroup.resolve("cpuset.cpus"), "0");
                assertEquals(
                        "0", Files.readString(cgroup.resolve("cpuset.cpus")).strip());
            }
            assertEquals(all, Files.readString(cgroup.resolve("cpuset.cpus")).strip());
        } finally {
            Files.delete(cgroup);
        }
    }

    @Test
    void aChangeIsNotMadeWhenItCannotBeWrittenDownFirst() throws Exception {
        requireRoot();
        Path small = dir.resolve("small");
        Files.createDirectories(small);
        run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", small.toString());
        try {
            Path setting = dir.resolve("setting");
            // a value longer than the page the journal's header holds: writing it down needs a page of the full disk
            String before = "before" + "-".repeat(8192);
            Files.writeString(setting, before + "\n");
            HostSettingsJournal journal = HostSettingsJournal.open(small, DaemonRestart.onThisHost());
            try {
                try (var fill = Files.newOutputStream(small.resolve("fill"))) {
                    byte[] block = new byte[4096];
                    for (int i = 0; i < 64; i++) {
                        fill.write(block);
                    }
                } catch (IOException full) {
                    // the tmpfs is full now
                }
                IOException e = assertThrows(IOException.class, () -> journal.write(setting, "after"));
                assertTrue(e.getMessage().contains("nothing was changed"), e.getMessage());
                assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
                assertEquals(before, Files.readString(setting).strip(), "the setting is as it was");
                assertEquals(List.of(), journal.changes());
            } finally {
                journal.close();
            }
        } finally {
            run("umount", small.toString());
        }
    }

    @Test
    void aRealIrqbalanceIsPausedAndResumed() throws Exception {
        requireRoot();
        DockerRequired.require(
                IrqBalance.find(REAL.proc()).isEmpty(), "no irqbalance running", "this test starts its own");
        Path fake = dir.resolve(IrqBalance.NAME);
        Files.copy(Path.of("/bin/sleep"), fake, StandardCopyOption.COPY_ATTRIBUTES);
        Process p = new ProcessBuilder(fake.toString(), "60").start();
        try {
            IrqBalance found = IrqBalance.find(REAL.proc()).orElseThrow();
            assertEquals(p.pid(), found.pid());
            // just started, it may still be running its start-up ('R'): the refusal is judged once it sleeps
            assertEquals('S', awaitState(p.pid(), 'S'), "the stand-in irqbalance sleeps");
            try (HostSettingsJournal journal =
                    HostSettingsJournal.open(dir.resolve("journals"), DaemonRestart.onThisHost())) {
                assertThrows(
                        InvalidSettingException.class,
                        () -> InterruptSteering.ofNetworkDevices(journal, REAL, IrqBalancePolicy.REFUSE));
                assertEquals('S', state(p.pid()), "refused: irqbalance untouched");
                InterruptSteering.ofNetworkDevices(journal, REAL, IrqBalancePolicy.PAUSE);
                assertEquals('T', awaitState(p.pid(), 'T'), "paused");
            }
            assertEquals('S', awaitState(p.pid(), 'S'), "resumed when the journal was put back");
        } finally {
            p.destroyForcibly();
        }
    }

    private static char awaitState(long pid, char wanted) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (state(pid) != wanted && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return state(pid);
    }

    private static char state(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", cmd) + ": " + out);
    }
}
