package io.envbench.base.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RunSessionTest {
    @Test
    void ownResourcesAreNotLeftovers() {
        assertFalse(RunSession.isLeftover(RunSession.labels("bare")));
    }

    @Test
    void unlabelledResourcesAreNeverLeftovers() {
        assertFalse(RunSession.isLeftover(Map.of("io.envbench.run", "x", "io.envbench.owner-pid", "1")));
        assertFalse(RunSession.isLeftover(null));
    }

    @Test
    void aRunWhoseOwnerIsDeadIsALeftover() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        Map<String, String> labels = new HashMap<>(RunSession.labels("bare"));
        labels.put(RunSession.LABEL_RUN, "otherrun");
        labels.put(RunSession.LABEL_OWNER_PID, Long.toString(p.pid()));
        assertTrue(RunSession.isLeftover(labels));
    }

    @Test
    void aRunWhoseOwnerLivesIsNotALeftover() {
        Map<String, String> labels = new HashMap<>(RunSession.labels("bare"));
        labels.put(RunSession.LABEL_RUN, "otherrun"); // this live process, under another run id
        assertFalse(RunSession.isLeftover(labels));
    }

    @Test
    void olderLabelsNamingALivePidAreNotLeftovers() {
        Map<String, String> labels = Map.of(
                RunSession.LABEL_MANAGED,
                "true",
                RunSession.LABEL_RUN,
                "otherrun",
                RunSession.LABEL_OWNER_PID,
                "1"); // init is alive; no start time to compare
        assertFalse(RunSession.isLeftover(labels));
    }

    @Test
    void theRunIdIsTheOwnersOwnAndAnotherProcessWithItsPidGetsAnother() {
        OwnerIdentity self = OwnerIdentity.current();
        assertTrue(RunSession.runId().matches("[0-9a-f]{8}"), RunSession.runId());
        assertEquals(RunSession.runId(), self.runId());
        assertEquals(self.runId(), RunSession.labels("bare").get(RunSession.LABEL_RUN));
        OwnerIdentity samePidLater = new OwnerIdentity(
                self.hostname(),
                self.machineId(),
                self.bootId(),
                self.pidNamespace(),
                self.pid(),
                self.startTicks() + 1,
                self.startedEpochMs());
        assertNotEquals(self.runId(), samePidLater.runId());
        OwnerIdentity inAContainer = new OwnerIdentity(
                "other-host", "", "", "4026532000", self.pid(), self.startTicks(), self.startedEpochMs());
        assertNotEquals(self.runId(), inAContainer.runId());
    }

    @Test
    void labelsNameTheOwnersHostAndStart() {
        Map<String, String> labels = RunSession.labels("bare");
        assertEquals(OwnerIdentity.current().hostname(), labels.get(OwnerIdentity.LABEL_HOST));
        assertEquals(Long.toString(ProcessHandle.current().pid()), labels.get(RunSession.LABEL_OWNER_PID));
        assertTrue(
                labels.containsKey(OwnerIdentity.LABEL_START_TICKS) || labels.containsKey(OwnerIdentity.LABEL_STARTED));
    }
}
