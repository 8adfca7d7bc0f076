package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EnvBenchPropertiesTest {
    @Test
    void allOrEmptySelectsEverything() {
        assertTrue(EnvBenchProperties.selected("all", "bare"));
        assertTrue(EnvBenchProperties.selected("", "docker-host"));
    }

    @Test
    void aListSelectsOnlyItsNames() {
        assertTrue(EnvBenchProperties.selected("bare, docker-bridge", "docker-bridge"));
        assertFalse(EnvBenchProperties.selected("bare,docker-bridge", "docker-host"));
        assertFalse(EnvBenchProperties.selected("docker-bridge", "docker"));
    }
}
