package io.envbench.study.steering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.host.hostsettings.Change;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.host.hostsettings.ProcessPauser;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IRQ and RPS steering on a procfs/sysfs fixture tree: which IRQs, the rotation, masks, refusals, irqbalance, restore. */
class InterruptSteeringTest {
    @TempDir
    Path dir;

    HostFixture host;
    Path journals;
    /** The fixture's PIDs are not this machine's processes: pauses are recorded, not signalled. */
    final List<String> signals = new ArrayList<>();

    final ProcessPauser recorder = new ProcessPauser() {
        @Override
        public void pause(long pid) {
            signals.add("STOP " + pid);
        }

        @Override
        public void resume(long pid) {
            signals.add("CONT " + pid);
        }
    };

    @BeforeEach
    void fixture() throws IOException {
        host = new HostFixture(dir.resolve("host"));
        journals = dir.resolve("journals");
    }

    @Test
    void theNetworkDevicesIrqsAreFoundByMsiFolderAndByHandlerName() throws IOException {
        List<NetworkIrq> irqs = NetworkIrq.find(host.roots());
        assertEquals(
                List.of(37, 38, 39, 50, 51),
                irqs.stream().map(NetworkIrq::irq).toList(),
                "virtio2's by handler name, eth1's by msi_irqs; not the disk's 36 nor 24");
        assertEquals("eth0", irqs.get(1).device());
        assertEquals(List.of("virtio2-input.0"), irqs.get(1).actions());
        assertEquals("eth1", irqs.get(3).device());
        assertEquals("IRQ 38 (eth0: virtio2-input.0)", irqs.get(1).describe());
    }

    @Test
    void eachStepSpreadsTheIrqsOverTheFreeCpusAndRotatesThem() throws IOException {
        try (HostSettingsJournal journal = HostSettingsJournal.open(journals, recorder, DaemonRestart.onThisHost())) {
            InterruptSteering steering =
                    InterruptSteering.ofNetworkDevices(journal, host.roots(), IrqBalancePolicy.REFUSE);
            CpuSet free = CpuSet.parseList("irqCpus", "2-3");
            SteeringStep s0 = steering.step(free);
            assertEquals(Map.of(37, 2, 38, 3, 39, 2, 50, 3, 51, 2), s0.cpuOfIrq());
            assertEquals("2", host.affinity(37));
            assertEquals("3", host.affinity(38));
            SteeringStep s1 = steering.step(free);
            assertEquals(Map.of(37, 3, 38, 2, 39, 3, 50, 2, 51, 3), s1.cpuOfIrq(), "every IRQ moved on by one CPU");
            assertEquals("3", host.affinity(37));
            assertEquals(1, s1.step());
            SteeringStep s2 = steering.step(CpuSet.parseList("irqCpus", "1"));
            assertTrue(s2.cpuOfIrq().values().stream().allMatch(c -> c == 1), "the free CPUs may change between steps");
            assertTrue(s2.describe().startsWith("IRQ steering step 2: IRQ 37 -> CPU 1"), s2.describe());
            assertEquals("0-3", host.affinity(36), "the disk's IRQ is not touched");
            // written down once per file, at the first change, with the value before the run
            List<Change> changes = journal.changes();
            assertEquals(5, changes.size());
            assertEquals(new Change.FileValue(host.proc.resolve("irq/37/smp_affinity_list"), "0-3"), changes.get(0));
        }
        for (int irq : new int[] {37, 38, 39, 50, 51}) {
            assertEquals("0-3", host.affinity(irq), "IRQ " + irq + " put back by close()");
        }
        try (var left = Files.list(journals)) {
            assertEquals(List.of(), left.toList(), "the journal is deleted once everything is back");
        }
    }

    @Test
    void badInputIsRefusedNamingTheFieldBeforeAnythingChanges() throws IOException {
        try (HostSettingsJournal journal = HostSettingsJournal.open(journals, recorder, DaemonRestart.onThisHost())) {
            InterruptSteering steering =
                    InterruptSteering.ofNetworkDevices(journal, host.roots(), IrqBalancePolicy.REFUSE);
            InvalidSettingException beyond = assertThrows(
                    InvalidSettingException.class, () -> steering.step(CpuSet.parseList("irqCpus", "2-5")));
            assertEquals("irqCpus", beyond.field());
            assertTrue(
                    beyond.getMessage().contains("CPU 4-5 does not exist on this host (online CPUs: 0-3)"),
                    beyond.getMessage());
            InvalidSettingException empty =
                    assertThrows(InvalidSettingException.class, () -> CpuSet.parseList("irqCpus", ""));
            assertEquals("irqCpus", empty.field());
            InvalidSettingException noIrq = assertThrows(
                    InvalidSettingException.class,
                    () -> InterruptSteering.ofIrqs(journal, host.roots(), List.of(38, 999), IrqBalancePolicy.REFUSE));
            assertEquals("irqs", noIrq.field());
            assertTrue(noIrq.getMessage().contains("IRQ 999 does not exist on this host"), noIrq.getMessage());
            assertTrue(noIrq.getMessage().contains("network devices' IRQs here: 37,38,39,50,51"), noIrq.getMessage());
            assertEquals(
                    "irqs",
                    assertThrows(
                                    InvalidSettingException.class,
                                    () -> InterruptSteering.ofIrqs(
                                            journal, host.roots(), List.of(), IrqBalancePolicy.REFUSE))
                            .field());
            ReceivePacketSteering rps = new ReceivePacketSteering(journal, host.roots());
            InvalidSettingException noIface = assertThrows(
                    InvalidSettingException.class,
                    () -> rps.steer(List.of("vethab12cd", "vethgone"), CpuSet.parseList("rpsCpus", "1")));
            assertEquals("interfaces", noIface.field());
            assertTrue(
                    noIface.getMessage().contains("'vethgone' is not a network interface on this host"),
                    noIface.getMessage());
            assertEquals(
                    "interfaces",
                    assertThrows(
                                    InvalidSettingException.class,
                                    () -> rps.steer(List.of("../../etc"), CpuSet.parseList("rpsCpus", "1")))
                            .field());
            assertEquals(
                    "rpsCpus",
                    assertThrows(
                                    InvalidSettingException.class,
                                    () -> rps.steer(List.of("lo"), CpuSet.parseList("rpsCpus", "7")))
                            .field());
            assertEquals("0", host.rps("vethab12cd"), "nothing half made: the good interface was not changed either");
            assertEquals(List.of(), journal.changes(), "nothing written down");
        }
        assertEquals("0-3", host.affinity(38));
    }

    @Test
    void rpsMasksAreWrittenInHexAndPutBack() throws IOException {
        try (HostSettingsJournal journal = HostSettingsJournal.open(journals, recorder, DaemonRestart.onThisHost())) {
            List<Path> written = new ReceivePacketSteering(journal, host.roots())
                    .steer(List.of("vethab12cd", "lo"), CpuSet.parseList("rpsCpus", "1,3"));
            assertEquals(2, written.size());
            assertEquals("a", host.rps("vethab12cd"), "CPUs 1 and 3: mask 0b1010");
            assertEquals("a", host.rps("lo"));
        }
        assertEquals("0", host.rps("vethab12cd"));
        assertEquals("0", host.rps("lo"));
    }

    @Test
    void anIrqThatVanishesIsDroppedWithANote() throws IOException {
        try (HostSettingsJournal journal = HostSettingsJournal.open(journals, recorder, DaemonRestart.onThisHost())) {
            InterruptSteering steering =
                    InterruptSteering.ofIrqs(journal, host.roots(), List.of(38, 50), IrqBalancePolicy.REFUSE);
            steering.step(CpuSet.parseList("irqCpus", "1"));
            deleteTree(host.proc.resolve("irq/50")); // the NIC was removed
            SteeringStep s = steering.step(CpuSet.parseList("irqCpus", "2"));
            assertEquals(Map.of(38, 2), s.cpuOfIrq());
            assertTrue(
                    s.notes().get(0).startsWith("IRQ 50") && s.notes().get(0).endsWith("is gone; no longer steered"),
                    s.notes().toString());
            assertEquals(
                    List.of(38), steering.irqs().stream().map(NetworkIrq::irq).toList());
            var r = journal.restore();
            assertEquals(1, r.restored().size());
            assertEquals(1, r.skipped().size(), "IRQ 50 is gone: skipped with a note, not an error");
            assertTrue(r.complete());
        }
        assertEquals("0-3", host.affinity(38));
    }

    @Test
    void irqbalanceIsRefusedByDefaultAndPausedWhenAllowedThenResumed() throws IOException {
        host.process(4242, "irqbalance", 777);
        host.process(4243, "sshd", 778);
        assertEquals(new IrqBalance(4242, 777), IrqBalance.find(host.proc).orElseThrow());
        try (HostSettingsJournal journal = HostSettingsJournal.open(journals, recorder, DaemonRestart.onThisHost())) {
            InvalidSettingException refused = assertThrows(
                    InvalidSettingException.class,
                    () -> InterruptSteering.ofNetworkDevices(journal, host.roots(), IrqBalancePolicy.REFUSE));
            assertEquals("irqbalance", refused.field());
            assertTrue(
                    refused.getMessage().contains("irqbalance runs (PID 4242): every 10 s it moves IRQs"),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("irqbalance: pause"), refused.getMessage());
            assertEquals(List.of(), signals);
            assertEquals(List.of(), journal.changes());

            InterruptSteering steering =
                    InterruptSteering.ofNetworkDevices(journal, host.roots(), IrqBalancePolicy.PAUSE);
            assertEquals(List.of("STOP 4242"), signals);
            steering.step(CpuSet.parseList("irqCpus", "0"));
            assertEquals(List.of("STOP 4242"), signals, "paused once");
            assertEquals(
                    new Change.PausedProcess(host.proc, 4242, 777, "irqbalance"),
                    journal.changes().get(0),
                    "written down before the first affinity changed");
        }
        assertEquals(
                List.of("STOP 4242", "CONT 4242"),
                signals,
                "resumed when the journal was put back, after the affinities");
        assertEquals("0-3", host.affinity(37));
    }

    @Test
    void aPausedProcessWhosePidWasReusedIsNotResumed() throws IOException {
        host.process(4242, "irqbalance", 777);
        HostSettingsJournal journal = HostSettingsJournal.open(journals, recorder, DaemonRestart.onThisHost());
        InterruptSteering.ofNetworkDevices(journal, host.roots(), IrqBalancePolicy.PAUSE);
        host.process(4242, "bash", 9999); // irqbalance ended, and its PID went to another process
        var r = journal.restore();
        assertEquals(List.of("STOP 4242"), signals);
        assertTrue(
                r.skipped().get(0).contains("PID 4242 is now another process"),
                r.skipped().toString());
        assertFalse(Files.exists(journal.file()));
    }

    static void deleteTree(Path p) throws IOException {
        try (var walk = Files.walk(p)) {
            for (Path x : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
