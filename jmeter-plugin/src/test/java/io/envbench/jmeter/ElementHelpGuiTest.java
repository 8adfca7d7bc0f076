package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dimension;
import java.awt.Insets;
import java.awt.event.KeyEvent;
import java.beans.Introspector;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.swing.Box;
import javax.swing.JButton;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JEditorPane;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.JTextField;

import io.envbench.jmeter.cpucontrol.CpuControlGui;
import io.envbench.jmeter.listeners.ResourceMonitorGui;
import io.envbench.jmeter.modifiers.EnvironmentTag;
import io.envbench.jmeter.samplers.CommandSampler;
import io.envbench.jmeter.samplers.ContainerOptionsSampler;
import io.envbench.jmeter.samplers.EngineMetricsSampler;
import io.envbench.jmeter.samplers.TargetEnvironmentSampler;
import io.envbench.jmeter.startgate.StartGate;
import io.envbench.jmeter.timers.ArrivalsTimer;
import io.envbench.jmeter.visualizers.ComparisonVisualizer;
import org.apache.jmeter.gui.AbstractJMeterGuiComponent;
import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.action.ActionRouter;
import org.apache.jmeter.gui.util.FilePanel;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.finder.WindowFinder;
import org.assertj.swing.fixture.DialogFixture;
import org.assertj.swing.fixture.FrameFixture;
import org.assertj.swing.timing.Condition;
import org.assertj.swing.timing.Pause;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every EnvBench element as a new user meets it in JMeter's GUI: a Help button that opens an existing section of
 * the bundled page, a help window that Esc closes, a tooltip on every field. The TestBean elements are shown in
 * JMeter's own TestBeanGUI, so what is checked is what JMeter shows.
 */
class ElementHelpGuiTest {
    static Stream<Class<?>> beans() {
        return Stream.of(
                TargetEnvironmentSampler.class,
                ContainerOptionsSampler.class,
                CommandSampler.class,
                EngineMetricsSampler.class,
                EnvironmentTag.class,
                ArrivalsTimer.class,
                StartGate.class);
    }

    static Stream<Class<? extends AbstractJMeterGuiComponent>> ownGuis() {
        return Stream.of(ResourceMonitorGui.class, ComparisonVisualizer.class, CpuControlGui.class);
    }

    private static String page() throws Exception {
        try (InputStream in = EnvBenchHelp.page().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Every element the plugin registers (its services files) is one of those checked here. */
    @Test
    void everyRegisteredElementIsChecked() throws Exception {
        List<String> checked = new ArrayList<>();
        beans().forEach(c -> checked.add(c.getName()));
        ownGuis().forEach(c -> checked.add(c.getName()));
        RightClickHelpTest.guis().forEach(c -> checked.add(c.getName())); // the beans' GUIs, with right-click Help
        Path services = Path.of("src/main/resources/META-INF/services");
        for (String file :
                List.of("org.apache.jmeter.testbeans.TestBean", "org.apache.jmeter.gui.JMeterGUIComponent")) {
            for (String line : Files.readAllLines(services.resolve(file))) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    assertTrue(checked.contains(line.trim()), line + " has no help check");
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("beans")
    void aBeanNamesItsFieldsPanelWhoseSectionExists(Class<?> bean) throws Exception {
        Class<?> fields = Introspector.getBeanInfo(bean).getBeanDescriptor().getCustomizerClass();
        assertNotNull(fields, bean + " has JMeter's generic fields: no Help button");
        BeanFieldsPanel panel = GuiActionRunner.execute(
                () -> (BeanFieldsPanel) fields.getDeclaredConstructor().newInstance());
        assertTrue(page().contains("<a name=\"" + panel.topic().anchor() + "\">"), "no section " + panel.topic());
    }

    @ParameterizedTest
    @MethodSource("ownGuis")
    void rightClickHelpOfAnOwnGuiOpensItsSection(Class<? extends AbstractJMeterGuiComponent> guiClass)
            throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
        AbstractJMeterGuiComponent gui =
                GuiActionRunner.execute(() -> guiClass.getDeclaredConstructor().newInstance());
        assertTrue(page().contains("<a name=\"" + gui.getDocAnchor() + "\">"), "no section " + gui.getDocAnchor());
        // JMeter's own popup menu needs a running JMeter (undo state); its Help item is this one
        JPopupMenu menu = GuiActionRunner.execute(() -> {
            JPopupMenu m = new JPopupMenu();
            JMenuItem help = new JMenuItem("Help");
            help.setActionCommand(ActionNames.HELP);
            help.addActionListener(ActionRouter.getInstance());
            m.add(help);
            return EnvBenchHelp.popupMenu(m, EnvBenchHelp.Topic.RESOURCE_MONITOR, gui);
        });
        JMenuItem help = (JMenuItem) menu.getComponent(0);
        assertEquals(1, help.getActionListeners().length);
        assertFalse(help.getActionListeners()[0] instanceof ActionRouter, "Help still goes to Apache's page");
        FrameFixture window = GuiTests.showInFrame(gui.getStaticLabel(), gui, new Dimension(1200, 800));
        try {
            assertTooltips(gui);
            openHelpAndEscape(window, gui.getStaticLabel());
        } finally {
            window.cleanUp();
        }
    }

    @ParameterizedTest
    @MethodSource("beans")
    void aBeanInJMetersTestBeanGuiHasHelpTooltipsAndEsc(Class<?> bean) throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
        TestBeanGUI gui = GuiActionRunner.execute(() -> {
            TestBeanGUI g = new TestBeanGUI(bean);
            TestElement e = g.createTestElement();
            g.configure(e);
            return g;
        });
        FrameFixture window = GuiTests.showInFrame(gui.getStaticLabel(), gui, new Dimension(1200, 800));
        try {
            assertTooltips(gui);
            openHelpAndEscape(window, gui.getStaticLabel());
            GuiTests.screenshot(window.target(), "fields-" + bean.getSimpleName());
        } finally {
            window.cleanUp();
        }
    }

    @Test
    void bareGreysOutTheContainerOptionsAndDockerBringsThemBack() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
        TestBeanGUI gui = targetEnvironmentGui();
        FrameFixture window = GuiTests.showInFrame("Target Environment", gui, new Dimension(1200, 800));
        try {
            List<String> container = List.of(
                    "networkMode",
                    "volumeType",
                    "volumeSource",
                    "volumePath",
                    "cpuset",
                    "cpus",
                    "cpuShares",
                    "memory",
                    "seccomp",
                    "containerEnv");
            window.textBox("cpuset").requireEnabled().setText("0-1");
            window.comboBox("runtime").selectItem("bare");
            for (String name : container) {
                JComponent c = window.robot().finder().findByName(window.target(), name, JComponent.class, false);
                assertFalse(GuiActionRunner.execute(c::isEnabled), name + " stays enabled for bare");
            }
            assertTrue(window.textBox("port").target().isEnabled(), "the port is used by bare too");
            GuiTests.screenshot(window.target(), "target-environment-bare");
            window.comboBox("runtime").selectItem("docker");
            window.textBox("cpuset").requireEnabled().requireText("0-1");
            // what the user chose is what JMeter saves
            TestElement saved = GuiActionRunner.execute(() -> {
                TestElement e = gui.createTestElement();
                gui.modifyTestElement(e);
                return e;
            });
            assertEquals("docker", saved.getPropertyAsString("runtime"));
            assertEquals("0-1", saved.getPropertyAsString("cpuset"));
        } finally {
            window.cleanUp();
        }
    }

    @Test
    void theTargetIsADropDownOfTheKnownTargetsThatTakesOthersToo() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
        // the repository's targets, as the assembled JMeter's user.properties points at them
        org.apache.jmeter.util.JMeterUtils.setProperty(
                "envbench.targets.dir",
                Path.of("..", "targets").toAbsolutePath().toString());
        TestBeanGUI gui = targetEnvironmentGui();
        FrameFixture window = GuiTests.showInFrame("Target Environment", gui, new Dimension(1200, 800));
        try {
            JComboBox<?> target = window.comboBox("target").target();
            assertTrue(GuiActionRunner.execute(target::isEditable), "a ${__P(...)} could not be typed");
            assertEquals("nginx-static", GuiActionRunner.execute(() -> String.valueOf(target.getSelectedItem())));
            assertFalse(target.getToolTipText().isBlank());
            List<String> items = GuiActionRunner.execute(() -> {
                List<String> l = new ArrayList<>();
                for (int i = 0; i < target.getItemCount(); i++) {
                    l.add(String.valueOf(target.getItemAt(i)));
                }
                return l;
            });
            assertTrue(items.containsAll(List.of("nginx-static", "postgres", "daytrader")), items.toString());
        } finally {
            window.cleanUp();
        }
    }

    @Test
    void theResourceMonitorsFieldsShowTheirWholeValue() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
        ResourceMonitorGui gui = GuiActionRunner.execute(ResourceMonitorGui::new);
        FrameFixture window = GuiTests.showInFrame("Resource Monitor", gui, new Dimension(1400, 800));
        try {
            for (String name : List.of("interval", "filename")) {
                JTextField f = (JTextField) window.textBox(name).target();
                int needed = GuiActionRunner.execute(() -> {
                    Insets in = f.getInsets();
                    return f.getFontMetrics(f.getFont()).stringWidth(f.getText()) + in.left + in.right;
                });
                assertTrue(f.getWidth() >= needed, name + " shows only part of " + f.getText());
            }
        } finally {
            window.cleanUp();
        }
    }

    /** Every input field the user can fill (not JMeter's own Name and Comments) says what it is for. */
    private static void assertTooltips(Container gui) {
        List<String> missing = new ArrayList<>();
        GuiActionRunner.execute(() -> collectMissing(gui, missing));
        assertTrue(missing.isEmpty(), "fields without a tooltip: " + missing);
    }

    private static void collectMissing(Container c, List<String> missing) {
        for (Component child : c.getComponents()) {
            // JMeter's own parts: the title (Name, Comments, in Boxes) and a listener's file panel
            if (child instanceof Box || child instanceof FilePanel) {
                continue;
            }
            if (child instanceof JComboBox<?>) {
                if (child instanceof JComboBox<?> box) {
                    check(box, missing);
                }
                continue;
            }
            if (child instanceof JTextField || child instanceof JCheckBox || child.getClass() == JButton.class) {
                check((JComponent) child, missing);
            }
            if (child instanceof Container k && !(child instanceof JTextField)) {
                collectMissing(k, missing);
            }
        }
    }

    private static void check(JComponent field, List<String> missing) {
        String tip = field.getToolTipText();
        if (tip == null || tip.isBlank()) {
            missing.add(field.getClass().getSimpleName() + " " + field.getName() + " in "
                    + field.getParent().getClass().getName() + " in "
                    + field.getParent().getParent().getClass().getName());
        }
    }

    /** The Target Environment's panel as JMeter makes it, configured with a new element. */
    private static TestBeanGUI targetEnvironmentGui() {
        return GuiActionRunner.execute(() -> {
            TestBeanGUI g = new TestBeanGUI(TargetEnvironmentSampler.class);
            g.configure(g.createTestElement());
            return g;
        });
    }

    private static void openHelpAndEscape(FrameFixture window, String element) {
        window.button("envbench-help").requireVisible().click();
        DialogFixture help = WindowFinder.findDialog("envbench-help-dialog").using(window.robot());
        JEditorPane pane = help.robot().finder().findByName(help.target(), "envbench-help-page", JEditorPane.class);
        GuiTests.awaitPage(pane);
        String anchor = GuiActionRunner.execute(() -> pane.getPage().getRef());
        assertNotNull(anchor, element + ": the page opened at its top, not at the element");
        String text = GuiActionRunner.execute(() -> {
            try {
                return pane.getDocument().getText(0, pane.getDocument().getLength());
            } catch (javax.swing.text.BadLocationException e) {
                throw new IllegalStateException(e);
            }
        });
        String title = element.replaceAll(" \\(.*\\)$", ""); // "EnvBench Arrivals Timer (open model)"
        assertTrue(text.contains(title), element + " has no section in the page it opened");
        try {
            GuiTests.screenshot(help.target(), "help-" + element.replace(' ', '-'));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        help.pressAndReleaseKeys(KeyEvent.VK_ESCAPE);
        JDialog d = (JDialog) help.target();
        Pause.pause(new Condition("Esc closed the help") {
            @Override
            public boolean test() {
                return !GuiActionRunner.execute(d::isShowing);
            }
        });
    }
}
