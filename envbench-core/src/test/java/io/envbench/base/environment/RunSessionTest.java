package io.envbench.base.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void labelsNameTheOwnersHostAndStart() {
        Map<String, String> labels = RunSession.labels("bare");
        assertEquals(OwnerIdentity.current().hostname(), labels.get(OwnerIdentity.LABEL_HOST));
        assertEquals(Long.toString(ProcessHandle.current().pid()), labels.get(RunSession.LABEL_OWNER_PID));
        assertTrue(
                labels.containsKey(OwnerIdentity.LABEL_START_TICKS) || labels.containsKey(OwnerIdentity.LABEL_STARTED));
    }
}
