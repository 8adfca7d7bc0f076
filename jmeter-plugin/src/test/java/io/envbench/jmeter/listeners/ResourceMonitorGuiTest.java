package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Dimension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.envbench.jmeter.GuiTests;
import io.envbench.jmeter.JMeterEnvBench;
import org.apache.jmeter.samplers.Clearable;
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
 * The Resource Monitor's GUI in a real window, fed by the real collector: after the run every view still
 * has its data, the status says when the run ended, a metrics file keeps every view too, Clear empties it.
 */
class ResourceMonitorGuiTest {
    private static final String CPU = "CPU % (host, processes, containers)";
    private static final String PER_CORE = "CPU % per core";
    private static final String MEMORY = "Memory (bytes)";

    @TempDir
    Path dir;

    private FrameFixture window;
    private ResourceMonitorGui gui;
    private ResourceMonitor monitor;

    @BeforeAll
    static void display() {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
    }

    @BeforeEach
    void open() {
        gui = GuiActionRunner.execute(ResourceMonitorGui::new);
        window = GuiTests.showInFrame("EnvBench Resource Monitor", gui, new Dimension(1100, 720));
    }

    @AfterEach
    void close() {
        if (monitor != null) {
            monitor.testEnded();
        }
        window.cleanUp();
        assertTrue(JMeterEnvBench.collector().isEmpty(), "the collector is left running");
    }

    private <T> T onEdt(Supplier<T> s) {
        return GuiActionRunner.execute(s::get);
    }

    private void waitFor(String what, Supplier<Boolean> done) {
        Pause.pause(
                new Condition(what) {
                    @Override
                    public boolean test() {
                        return onEdt(done);
                    }
                },
                Timeout.timeout(20, TimeUnit.SECONDS));
    }

    private List<String> show(String view) {
        window.comboBox("show").selectItem(view);
        window.comboBox("show").requireSelection(view);
        return onEdt(gui::shownMetricNames);
    }

    /** The two publishing fields: typed, kept in the element, shown again, each with a tooltip naming its property. */
    @Test
    void thePrometheusPortAndInfluxDbUrlAreKeptInTheElement() throws Exception {
        window.textBox("prometheusPort").requireText("").enterText("9270");
        window.textBox("influxDbUrl").requireText("").enterText("http://127.0.0.1:8086");
        assertTrue(window.textBox("prometheusPort").target().getToolTipText().contains("envbench.prometheus.port"));
        assertTrue(window.textBox("influxDbUrl").target().getToolTipText().contains("envbench.influxdb.allowRemote"));
        ResourceMonitor m = GuiActionRunner.execute(() -> (ResourceMonitor) gui.createTestElement());
        assertEquals("9270", m.getPrometheusPort());
        assertEquals("http://127.0.0.1:8086", m.getInfluxDbUrl());
        GuiActionRunner.execute(() -> gui.clearGui());
        window.textBox("influxDbUrl").requireText("");
        GuiActionRunner.execute(() -> gui.configure(m));
        window.textBox("prometheusPort").requireText("9270");
        window.textBox("influxDbUrl").requireText("http://127.0.0.1:8086");
        GuiTests.screenshot(window.target(), "resource-monitor-publishing");
        for (String field : List.of("interval", "filename", "prometheusPort", "influxDbUrl")) {
            java.awt.Rectangle r =
                    GuiActionRunner.execute(() -> window.textBox(field).target().getBounds());
            int parentHeight = GuiActionRunner.execute(
                    () -> window.textBox(field).target().getParent().getHeight());
            assertTrue(
                    r.y + r.height <= parentHeight && r.width >= 50,
                    field + " is shown whole in its panel, not wrapped below it: " + r + " in " + parentHeight);
        }
    }

    @Test
    void afterARunEveryViewStillHasItsDataAndTheStatusSaysWhenItEnded() throws Exception {
        monitor = new ResourceMonitor();
        monitor.setInterval("100");
        monitor.setFilename(dir.resolve("metrics.csv").toString());
        monitor.testStarted();
        waitFor(
                "live readings on the chart",
                () -> gui.statusText().startsWith("live, every 100 ms")
                        && gui.shownMetricNames().contains("host.cpu.pct")
                        && gui.statusText().matches(".*, ([5-9]|\\d\\d+) readings.*"));
        monitor.testEnded();
        monitor = null;
        waitFor("the run's end in the status", () -> gui.statusText().startsWith("run ended at "));
        String ended = onEdt(gui::statusText);
        assertTrue(ended.matches("run ended at \\d\\d:\\d\\d:\\d\\d, \\d+ readings.*"), ended);

        List<String> memory = show(MEMORY);
        assertTrue(memory.contains("host.mem.used.bytes"), memory.toString());
        assertTrue(
                memory.stream()
                        .allMatch(n ->
                                ResourceMonitorGui.VIEWS.get(MEMORY).matcher(n).matches()),
                memory.toString());
        assertTrue(show(PER_CORE).contains("host.cpu0.pct"));
        List<String> cpu = show(CPU);
        assertTrue(cpu.contains("host.cpu.pct") && cpu.contains("process.jmeter.cpu.pct"), cpu.toString());
        assertTrue(onEdt(() -> gui.shownPoints("host.cpu.pct")) >= 5, "the run's points are kept across view changes");
        assertEquals(ended, onEdt(gui::statusText), "the status survives a change of view");
        GuiTests.screenshot(window.target(), "resource-monitor-after-run");

        assertTrue(
                Clearable.class.isAssignableFrom(ResourceMonitor.class),
                "JMeter's Clear All reaches only Clearable elements' GUIs");
        GuiActionRunner.execute(gui::clearData);
        assertEquals(List.of(), onEdt(gui::shownMetricNames));
        assertEquals(List.of(), show(MEMORY), "cleared for every view");
        assertFalse(onEdt(gui::statusText).contains("readings"));
    }

    @Test
    void aMetricsFileKeepsEveryViewAndABadOneLeavesWhatWasShown() throws Exception {
        Path file = Files.writeString(dir.resolve("m.csv"), """
                timestamp,environment,host.cpu.pct,host.cpu0.pct,host.cpu1.pct,host.mem.used.bytes,container.docker-bridge.cpu.pct
                1700000000000,docker-bridge,50.0,40.0,60.0,1000000,20.0
                1700000001000,docker-bridge,52.0,41.0,63.0,1000100,21.0
                1700000002000,docker-bridge,51.0,42.0,60.0,1000200,22.0
                """);
        GuiActionRunner.execute(() -> {
            gui.openFile(file);
            return null;
        });
        assertEquals(List.of("host.cpu.pct", "container.docker-bridge.cpu.pct"), show(CPU));
        assertEquals(List.of("host.cpu0.pct", "host.cpu1.pct"), show(PER_CORE));
        assertEquals(List.of("host.mem.used.bytes"), show(MEMORY));
        assertEquals(List.of("host.cpu.pct", "container.docker-bridge.cpu.pct"), show(CPU), "back again, nothing lost");
        assertEquals(3, onEdt(() -> gui.shownPoints("host.cpu.pct")));
        String status = onEdt(gui::statusText);
        assertTrue(status.startsWith("showing m.csv") && status.endsWith("3 readings"), status);
        GuiTests.screenshot(window.target(), "resource-monitor-file");

        Path bad = Files.writeString(dir.resolve("bad.csv"), "time,env\n1,2\n");
        Exception e = assertThrows(
                Exception.class,
                () -> GuiActionRunner.execute(() -> {
                    gui.openFile(bad);
                    return null;
                }));
        assertTrue(
                String.valueOf(e.getMessage()).contains("bad.csv")
                        || String.valueOf(e.getCause()).contains("bad.csv"),
                e.toString());
        assertEquals(
                List.of("host.cpu.pct", "container.docker-bridge.cpu.pct"),
                onEdt(gui::shownMetricNames),
                "a bad file changes nothing");
    }
}
