package io.envbench.base.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.envbench.base.environment.LeftoverCheck.ProcessStart;
import io.envbench.base.environment.LeftoverCheck.Verdict;
import org.junit.jupiter.api.Test;

/** The owner-identity rule on label maps and a fake process table: pure logic, any host. */
class LeftoverCheckTest {
    private static final OwnerIdentity SELF =
            new OwnerIdentity("loadgen-1", "mid-1", "boot-1", "4026531836", 4242, 9000, 1_700_000_000_000L);
    /** Process 777 is alive and started at tick 5000 (epoch ms ...5000); nothing else is. */
    private static final LeftoverCheck.ProcessTable TABLE =
            pid -> pid == 777 ? Optional.of(new ProcessStart(5000, 1_699_999_000_000L)) : Optional.empty();

    private static final LeftoverCheck CHECK = new LeftoverCheck(SELF, "myrun", TABLE);

    private static Map<String, String> labels(OwnerIdentity owner, String run) {
        Map<String, String> m = new HashMap<>(owner.labels());
        m.put(RunSession.LABEL_MANAGED, "true");
        m.put(RunSession.LABEL_RUN, run);
        m.put(RunSession.LABEL_ENV, "e");
        return m;
    }

    private static OwnerIdentity owner(String host, String machine, String boot, String ns, long pid, long ticks) {
        return new OwnerIdentity(host, machine, boot, ns, pid, ticks, -1);
    }

    @Test
    void unlabelledIsNeverALeftover() {
        Map<String, String> m = labels(owner("loadgen-1", "mid-1", "boot-1", "4026531836", 31337, 1), "other");
        m.remove(RunSession.LABEL_MANAGED);
        assertFalse(CHECK.judge(m).reap());
        assertFalse(CHECK.judge(null).reap());
    }

    @Test
    void ownRunIsKept() {
        assertFalse(CHECK.judge(labels(owner("loadgen-1", "mid-1", "boot-1", "4026531836", 31337, 1), "myrun"))
                .reap());
    }

    @Test
    void deadOwnerOnThisHostInThisNamespaceIsReaped() {
        Verdict v = CHECK.judge(labels(owner("loadgen-1", "mid-1", "boot-1", "4026531836", 31337, 1), "other"));
        assertTrue(v.reap());
        assertTrue(v.why().contains("31337") && v.why().contains("gone"), v.why());
    }

    @Test
    void liveOwnerWithTheSameStartIsKept() {
        Verdict v = CHECK.judge(labels(owner("loadgen-1", "mid-1", "boot-1", "4026531836", 777, 5000), "other"));
        assertFalse(v.reap());
        assertFalse(v.ownerUnseen());
        assertTrue(v.why().contains("alive"), v.why());
    }

    @Test
    void reusedPidIsReaped() {
        Verdict v = CHECK.judge(labels(owner("loadgen-1", "mid-1", "boot-1", "4026531836", 777, 4999), "other"));
        assertTrue(v.reap());
        assertTrue(v.why().contains("reused"), v.why());
    }

    @Test
    void anotherHostIsKeptEvenWhenItsPidIsFreeHere() {
        Verdict byName = CHECK.judge(labels(owner("loadgen-2", "mid-1", "boot-1", "4026531836", 31337, 1), "other"));
        assertFalse(byName.reap());
        assertTrue(byName.why().contains("loadgen-2"), byName.why());
        assertTrue(byName.ownerUnseen(), "worth a line in the reaper's log");
        Verdict byMachine = CHECK.judge(labels(owner("loadgen-1", "mid-2", "boot-1", "4026531836", 31337, 1), "other"));
        assertFalse(byMachine.reap(), "same host name, another machine id: another machine");
        assertTrue(byMachine.why().contains("mid-2"), byMachine.why());
        Verdict noMachineId = CHECK.judge(labels(owner("loadgen-1", "", "boot-1", "4026531836", 31337, 1), "other"));
        assertFalse(noMachineId.reap(), "a machine id on one side only cannot prove the same machine");
    }

    @Test
    void anotherPidNamespaceIsKeptEvenWhenItsPidIsFreeHere() {
        // a JMeter in a container: PID 1 in its own namespace, on the same machine
        Verdict v = CHECK.judge(labels(owner("loadgen-1", "mid-1", "boot-1", "4026532999", 1, 1), "other"));
        assertFalse(v.reap());
        assertTrue(v.why().contains("PID namespace 4026532999"), v.why());
        assertTrue(v.ownerUnseen());
    }

    @Test
    void aRebootOfThisHostProvesTheOwnerGone() {
        Verdict v = CHECK.judge(labels(owner("loadgen-1", "mid-1", "boot-0", "4026531836", 777, 5000), "other"));
        assertTrue(v.reap(), "PID 777 is alive with the same tick, but in another boot");
        assertTrue(v.why().contains("rebooted"), v.why());
    }

    @Test
    void withoutTicksStartInstantsAreComparedWithATolerance() {
        LeftoverCheck instantsOnly = new LeftoverCheck(
                new OwnerIdentity("mac", "", "", "", 1, -1, 1),
                "myrun",
                pid -> pid == 777 ? Optional.of(new ProcessStart(-1, 1_000_000L)) : Optional.empty());
        assertFalse(instantsOnly
                .judge(labels(new OwnerIdentity("mac", "", "", "", 777, -1, 1_000_800L), "other"))
                .reap());
        assertTrue(instantsOnly
                .judge(labels(new OwnerIdentity("mac", "", "", "", 777, -1, 1_005_000L), "other"))
                .reap());
        assertTrue(instantsOnly
                .judge(labels(new OwnerIdentity("mac", "", "", "", 778, -1, 1_000_000L), "other"))
                .reap());
    }

    @Test
    void olderLabelsWithOnlyAPidKeepTheOlderRule() {
        Map<String, String> old = Map.of(
                RunSession.LABEL_MANAGED, "true", RunSession.LABEL_RUN, "old", RunSession.LABEL_OWNER_PID, "777");
        assertFalse(CHECK.judge(old).reap(), "a live PID is trusted");
        Map<String, String> oldDead = Map.of(
                RunSession.LABEL_MANAGED, "true", RunSession.LABEL_RUN, "old", RunSession.LABEL_OWNER_PID, "31337");
        assertTrue(CHECK.judge(oldDead).reap());
    }

    @Test
    void thisProcessNamesItselfAndReadsItsLabelsBack() {
        OwnerIdentity self = OwnerIdentity.current();
        assertEquals(ProcessHandle.current().pid(), self.pid());
        assertFalse(self.hostname().isEmpty());
        assertEquals(Optional.of(self), OwnerIdentity.fromLabels(self.labels()));
        if (System.getProperty("os.name").startsWith("Linux")) {
            assertTrue(self.startTicks() > 0, "start ticks from /proc/self/stat");
            assertTrue(self.pidNamespace().matches("\\d+"), self.pidNamespace());
            assertEquals(Optional.of(self.startTicks()), OwnerIdentity.startTicks(self.pid()));
        }
        Verdict v = LeftoverCheck.forThisProcess().judge(labels(self, "another-run-same-process"));
        assertFalse(v.reap(), "this live process, even under another run id (another class loader)");
    }
}
