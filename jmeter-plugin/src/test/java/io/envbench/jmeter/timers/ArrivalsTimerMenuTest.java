package io.envbench.jmeter.timers;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import io.envbench.jmeter.GuiTests;
import org.apache.jmeter.gui.util.MenuFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a JMeter user finds the Arrivals Timer: JMeter's own Add > Timer menu, as its MenuFactory builds it. */
class ArrivalsTimerMenuTest {
    @TempDir
    static Path jmeterHome;

    @BeforeAll
    static void jmeter() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeterWithMenus(jmeterHome);
    }

    @Test
    void itIsInTheAddTimerMenu() {
        List<String> timers = GuiTests.addMenu(MenuFactory.TIMERS);
        assertTrue(timers.contains("EnvBench Arrivals Timer (open model)"), "Add > Timer holds: " + timers);
    }
}
