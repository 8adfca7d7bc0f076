package io.envbench.control.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Map;

import io.envbench.base.environment.RunSession;
import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

/** Only containers EnvBench started are changed, unless the user allows others; the refusal says both ways out. */
class ContainerUpdateTest {
    @Test
    void aContainerEnvBenchStartedIsChanged() {
        assertEquals(
                "abc",
                ContainerUpdate.requireStartedByEnvBench(
                        "envbench-x", "abc", RunSession.labels("docker-bridge"), false));
    }

    @Test
    void anyOtherContainerIsRefusedNamingTheFieldAndTheFix() {
        for (Map<String, String> labels : new ArrayList<Map<String, String>>(Arrays.asList(
                null, Map.of(), Map.of("com.example.app", "db"), Map.of(RunSession.LABEL_MANAGED, "false")))) {
            InvalidSettingException e = assertThrows(
                    InvalidSettingException.class,
                    () -> ContainerUpdate.requireStartedByEnvBench("postgres", "def", labels, false));
            assertEquals("container", e.field());
            assertTrue(e.getMessage().contains("'postgres' is a container EnvBench did not start"), e.getMessage());
            assertTrue(e.getMessage().contains("Allow containers EnvBench did not start"), e.getMessage());
        }
    }

    @Test
    void anyContainerWhenTheUserAllowsIt() {
        assertEquals("def", ContainerUpdate.requireStartedByEnvBench("postgres", "def", Map.of(), true));
        assertEquals("def", ContainerUpdate.requireStartedByEnvBench("postgres", "def", null, true));
    }
}
