package io.envbench.jmeter.startgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import io.envbench.jmeter.GuiTests;
import org.apache.jmeter.gui.util.MenuFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a JMeter user finds the Start Gate: JMeter's own Add > Config Element menu, once, as its MenuFactory builds it. */
class StartGateMenuTest {
    @TempDir
    static Path jmeterHome;

    @BeforeAll
    static void jmeter() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeterWithMenus(jmeterHome);
    }

    @Test
    void itIsInTheAddConfigElementMenuOnce() {
        List<String> config = GuiTests.addMenu(MenuFactory.CONFIG_ELEMENTS);
        assertTrue(config.contains("EnvBench Start Gate"), "Add > Config Element holds: " + config);
        assertEquals(1, config.stream().filter("EnvBench Start Gate"::equals).count(), "listed once: " + config);
    }
}
