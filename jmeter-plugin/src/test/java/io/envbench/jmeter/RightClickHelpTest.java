package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Component;
import java.awt.Window;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.swing.JDialog;
import javax.swing.JEditorPane;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;

import io.envbench.jmeter.modifiers.EnvironmentTagGui;
import io.envbench.jmeter.samplers.CommandGui;
import io.envbench.jmeter.samplers.ContainerOptionsGui;
import io.envbench.jmeter.samplers.EngineMetricsGui;
import io.envbench.jmeter.samplers.TargetEnvironmentGui;
import io.envbench.jmeter.startgate.StartGateGui;
import io.envbench.jmeter.timers.ArrivalsTimerGui;
import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.action.ActionRouter;
import org.apache.jmeter.gui.tree.JMeterTreeListener;
import org.apache.jmeter.gui.tree.JMeterTreeModel;
import org.apache.jmeter.gui.tree.JMeterTreeNode;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.testelement.TestElement;
import org.assertj.swing.edt.GuiActionRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Right-click > Help on an EnvBench TestBean element, through JMeter's own machinery: the element made as JMeter's Add
 * makes it (GuiPackage.createTestElement of its menu entry), its tree node's popup menu as JMeter's tree builds it
 * (JMeterTreeNode.createPopupMenu, which asks the GUI the element names), and that menu's Help item clicked: EnvBench's
 * page opens at the element's section, not Apache's reference. The Add menus list each element once.
 */
class RightClickHelpTest {
    @TempDir
    static Path jmeterHome;

    private static JMeterTreeModel tree;

    static Stream<Class<? extends EnvBenchBeanGui>> guis() {
        return Stream.of(
                TargetEnvironmentGui.class,
                ContainerOptionsGui.class,
                CommandGui.class,
                EngineMetricsGui.class,
                EnvironmentTagGui.class,
                ArrivalsTimerGui.class,
                StartGateGui.class);
    }

    @BeforeAll
    static void jmeter() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeterWithMenus(jmeterHome);
        GuiActionRunner.execute(() -> {
            tree = new JMeterTreeModel();
            GuiPackage.initInstance(new JMeterTreeListener(tree), tree);
        });
    }

    @ParameterizedTest
    @MethodSource("guis")
    void rightClickHelpOpensTheElementsSection(Class<? extends EnvBenchBeanGui> guiClass) throws Exception {
        TestElement element =
                GuiActionRunner.execute(() -> GuiPackage.getInstance().createTestElement(guiClass.getName()));
        assertEquals(
                guiClass.getName(),
                element.getPropertyAsString(TestElement.GUI_CLASS),
                "the element names its GUI, as a saved plan then does");
        JMeterTreeNode node = GuiActionRunner.execute(() -> new JMeterTreeNode(element, tree));
        EnvBenchHelp.Topic topic = ((EnvBenchBeanGui)
                        GuiActionRunner.execute(() -> GuiPackage.getInstance().getGui(element)))
                .topic();
        assertTrue(page().contains("<a name=\"" + topic.anchor() + "\">"), "no section " + topic);
        assertEquals(topic.anchor(), GuiActionRunner.execute(node::getDocAnchor));

        JPopupMenu menu = GuiActionRunner.execute(node::createPopupMenu);
        JMenuItem help = GuiActionRunner.execute(() -> helpItem(menu));
        assertNotNull(help, "JMeter's popup menu has its Help item");
        for (var l : help.getActionListeners()) {
            assertFalse(l instanceof ActionRouter, "Help still goes to JMeter's action (Apache's page)");
        }
        GuiActionRunner.execute(() -> {
            help.doClick();
            return null;
        });
        JDialog dialog = GuiActionRunner.execute(RightClickHelpTest::helpDialog);
        assertNotNull(dialog, "EnvBench's help window opened");
        try {
            JEditorPane pane = (JEditorPane) find(dialog, "envbench-help-page");
            GuiTests.awaitPage(pane);
            assertEquals(
                    topic.anchor(), GuiActionRunner.execute(() -> pane.getPage().getRef()));
            assertTrue(GuiActionRunner.execute(() -> pane.getPage().toString()).contains(EnvBenchHelp.PAGE));
        } finally {
            GuiActionRunner.execute(() -> {
                dialog.dispose();
                return null;
            });
        }
    }

    @Test
    void theAddMenusListEachElementOnce() {
        Map<String, List<String>> where = Map.of(
                MenuFactory.SAMPLERS,
                        List.of("EnvBench Target Environment", "EnvBench Container Options", "EnvBench Command"),
                MenuFactory.PRE_PROCESSORS, List.of("EnvBench Environment Tag"),
                MenuFactory.TIMERS, List.of("EnvBench Arrivals Timer (open model)"));
        where.forEach((category, labels) -> {
            List<String> items = GuiTests.addMenu(category);
            for (String label : labels) {
                assertEquals(1, items.stream().filter(label::equals).count(), category + " holds " + items);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("guis")
    void theGuiAndItsFieldsPanelNameTheSameSection(Class<? extends EnvBenchBeanGui> guiClass) throws Exception {
        EnvBenchBeanGui gui =
                GuiActionRunner.execute(() -> guiClass.getDeclaredConstructor().newInstance());
        Class<?> fields = java.beans.Introspector.getBeanInfo(
                        Class.forName(gui.createTestElement().getPropertyAsString(TestElement.TEST_CLASS)))
                .getBeanDescriptor()
                .getCustomizerClass();
        BeanFieldsPanel panel = GuiActionRunner.execute(
                () -> (BeanFieldsPanel) fields.getDeclaredConstructor().newInstance());
        assertEquals(panel.topic(), gui.topic(), "the Help button and right-click Help open one section");
    }

    private static JMenuItem helpItem(JPopupMenu menu) {
        for (Component c : menu.getComponents()) {
            if (c instanceof JMenuItem item && ActionNames.HELP.equals(item.getActionCommand())) {
                return item;
            }
        }
        return null;
    }

    private static JDialog helpDialog() {
        for (Window w : Window.getWindows()) {
            if (w instanceof JDialog d && d.isShowing() && "envbench-help-dialog".equals(d.getName())) {
                return d;
            }
        }
        return null;
    }

    private static Component find(java.awt.Container c, String name) {
        for (Component x : c.getComponents()) {
            if (name.equals(x.getName())) {
                return x;
            }
            if (x instanceof java.awt.Container inner) {
                Component found = find(inner, name);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String page() throws Exception {
        try (InputStream in = EnvBenchHelp.page().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
