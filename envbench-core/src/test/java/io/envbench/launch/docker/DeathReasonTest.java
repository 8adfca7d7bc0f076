package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.envbench.base.liveness.ProcessDeathWatch;
import org.junit.jupiter.api.Test;

/** The reasons a user reads, without an engine. */
class DeathReasonTest {
    @Test
    void memoryLimitsAreWrittenAsDockerRunTakesThem() {
        assertEquals("6m", ContainerDeathWatch.dockerSize(6L * 1024 * 1024));
        assertEquals("2g", ContainerDeathWatch.dockerSize(2L * 1024 * 1024 * 1024));
        assertEquals("1536k", ContainerDeathWatch.dockerSize(1536L * 1024));
        assertEquals("6291457b", ContainerDeathWatch.dockerSize(6L * 1024 * 1024 + 1));
    }

    @Test
    void exitCodesOfSignalsNameTheSignal() {
        assertEquals("process exited with code 137 (killed by signal 9, SIGKILL)", ProcessDeathWatch.reason(137));
        assertEquals("process exited with code 1", ProcessDeathWatch.reason(1));
        assertEquals("process exited with code 0", ProcessDeathWatch.reason(0));
    }
}
