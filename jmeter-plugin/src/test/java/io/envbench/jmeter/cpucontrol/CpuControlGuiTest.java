package io.envbench.jmeter.cpucontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Dimension;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.envbench.jmeter.GuiTests;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.study.cpucontrol.CpuAction;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.fixture.FrameFixture;
import org.assertj.swing.timing.Condition;
import org.assertj.swing.timing.Pause;
import org.assertj.swing.timing.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU Control's GUI in a real window: it is in JMeter's Add > Listener menu (JMeter's own MenuFactory, finding it
 * on the search path as in lib/ext), its fields go through a plan saved and loaded by JMeter's SaveService unchanged,
 * a bad interval is named as it is typed, and the actions of a running control appear live and go with Clear All.
 */
class CpuControlGuiTest {
    @TempDir
    static Path jmeterHome;

    private FrameFixture window;
    private CpuControlGui gui;

    @BeforeAll
    static void jmeter() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeterWithMenus(jmeterHome);
    }

    @BeforeEach
    void open() {
        gui = GuiActionRunner.execute(CpuControlGui::new);
        window = GuiTests.showInFrame("EnvBench CPU Control", gui, new Dimension(1100, 640));
    }

    @AfterEach
    void close() {
        window.cleanUp();
    }

    private <T> T onEdt(Supplier<T> s) {
        return GuiActionRunner.execute(s::get);
    }

    @Test
    void itIsInTheAddListenerMenu() {
        List<String> listeners = GuiTests.addMenu(MenuFactory.LISTENERS);
        assertTrue(listeners.contains("EnvBench CPU Control"), "Add > Listener holds: " + listeners);
        assertTrue(gui.getMenuCategories().contains(MenuFactory.LISTENERS));
    }

    @Test
    void fieldsGoThroughASavedAndLoadedPlanUnchanged() throws Exception {
        window.comboBox("mode").replaceText("static");
        window.textBox("interval").setText("3");
        window.textBox("highTenants").setText("tenant-3");
        window.textBox("goals").setText("tenant-1=200,tenant-2=500");
        window.textBox("cpusPerTenant").setText("2");
        window.comboBox("irqSteering").replaceText("on");
        window.comboBox("irqBalance").replaceText("pause");
        window.comboBox("rpsSteering").replaceText("${__P(my.rps,on)}");
        window.comboBox("floating").replaceText("spare");
        window.textBox("filename").setText("tenants-timeline.csv");
        CpuControl made = onEdt(() -> (CpuControl) gui.createTestElement());

        HashTree tree = new ListedHashTree();
        tree.add(made);
        ByteArrayOutputStream jmx = new ByteArrayOutputStream();
        SaveService.saveTree(tree, jmx);
        String xml = jmx.toString(StandardCharsets.UTF_8);
        assertTrue(xml.contains("<stringProp name=\"CpuControl.interval_s\">3</stringProp>"), xml);
        Path file = jmeterHome.resolve("saved.jmx");
        Files.write(file, jmx.toByteArray());
        HashTree loaded = SaveService.loadTree(file.toFile());
        CpuControl back = (CpuControl) loaded.getArray()[0];

        CpuControlGui other = onEdt(CpuControlGui::new);
        onEdt(() -> {
            other.configure(back);
            return null;
        });
        CpuControl again = onEdt(() -> (CpuControl) other.createTestElement());
        for (CpuControl c : List.of(back, again)) {
            assertEquals(
                    List.of(
                            "static",
                            "3",
                            "tenant-3",
                            "tenant-1=200,tenant-2=500",
                            "2",
                            "on",
                            "pause",
                            "${__P(my.rps,on)}",
                            "spare",
                            "tenants-timeline.csv"),
                    List.of(
                            c.getMode(),
                            c.getIntervalSeconds(),
                            c.getHighTenants(),
                            c.getGoals(),
                            c.getCpusPerTenant(),
                            c.getIrqSteering(),
                            c.getIrqBalance(),
                            c.getRpsSteering(),
                            c.getFloating(),
                            c.getFilename()));
        }
        assertEquals(" ", onEdt(gui::problemText), "good fields, no problem shown");
    }

    @Test
    void aFloatingPlaceNotKnownIsNamedWithTheChoices() throws Exception {
        window.comboBox("floating").replaceText("anywhere");
        window.label("problem")
                .requireText(
                        "Floating tenants on: 'anywhere' is not a place for floating tenants; use unpinned (the CPUs "
                                + "no tenant is pinned to), all (every CPU) or spare (every CPU, at the lowest weight)");
        GuiTests.screenshot(gui, "cpu-control-bad-floating");
        window.comboBox("floating").replaceText("spare");
        window.label("problem").requireText(" ");
    }

    @Test
    void aBadIntervalIsNamedAsItIsTyped() throws Exception {
        window.textBox("interval").setText("0");
        window.label("problem")
                .requireText(
                        "Interval (s): '0' is outside 1 to 10; give a whole number of seconds from 1 to 10, e.g. 2 in the field or -Jenvbench.cpucontrol.interval.seconds=2");
        GuiTests.screenshot(gui, "cpu-control-bad-interval");
        window.textBox("interval").setText("${__P(envbench.cpucontrol.interval.seconds,1)}");
        window.label("problem").requireText(" ");
        JMeterUtils.setProperty(
                "envbench.cpucontrol.interval.seconds", "12"); // the expression is evaluated as JMeter would
        window.textBox("interval").setText("${__P(envbench.cpucontrol.interval.seconds,1)} ");
        window.label("problem")
                .requireText(
                        "Interval (s): '12' is outside 1 to 10; give a whole number of seconds from 1 to 10, e.g. 2 in the field or -Jenvbench.cpucontrol.interval.seconds=2");
        JMeterUtils.getJMeterProperties().remove("envbench.cpucontrol.interval.seconds");
        window.textBox("goals").setText("tenant-1");
        assertTrue(
                onEdt(gui::problemText).startsWith("Response-time goals (ms): 'tenant-1' is not TENANT=MILLISECONDS"),
                onEdt(gui::problemText));
    }

    @Test
    void actionsShowLiveAndClearAllEmptiesThem() throws Exception {
        Instant t0 = Instant.now();
        JMeterEnvBench.cpuControlActed(new CpuAction(
                t0, Duration.ZERO, "tenant-1", CpuAction.Kind.PIN, "pin 0", "dynamic pins every tenant at first"));
        JMeterEnvBench.cpuControlActed(new CpuAction(
                t0.plusSeconds(3),
                Duration.ofSeconds(3),
                "tenant-2",
                CpuAction.Kind.RELEASE,
                "release to 1",
                "cpu 99% of its 1 CPU (0) for 3 steps, at least 90%"));
        Pause.pause(
                new Condition("two actions in the table") {
                    @Override
                    public boolean test() {
                        return onEdt(gui::actionRows) == 2;
                    }
                },
                Timeout.timeout(10, TimeUnit.SECONDS));
        assertEquals(
                List.of("tenant-2", "release to 1", "cpu 99% of its 1 CPU (0) for 3 steps, at least 90%"),
                onEdt(() -> List.of(gui.actionCell(1, 1), gui.actionCell(1, 2), gui.actionCell(1, 3))));
        assertTrue(
                window.label("status").text().startsWith("2 actions"),
                window.label("status").text());
        GuiTests.screenshot(gui, "cpu-control");
        onEdt(() -> {
            gui.clearData(); // what JMeter's Clear All calls on every Clearable GUI
            return null;
        });
        assertEquals(0, (int) onEdt(gui::actionRows));
    }
}
