package io.envbench.environment;

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
        labels.put(RunSession.LABEL_RUN, "otherrun");
        labels.put(RunSession.LABEL_OWNER_PID, "1"); // init is alive
        assertFalse(RunSession.isLeftover(labels));
    }
}
