package io.envbench.jmeter.modifiers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Dimension;
import java.beans.Introspector;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.swing.JLabel;

import io.envbench.jmeter.GuiTests;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.assertj.swing.core.GenericTypeMatcher;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.fixture.FrameFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a JMeter user finds the Environment Tag, now that it marks failed samples after they ran: in JMeter's own Add
 * menus, both Pre Processors and Post Processors (JMeter's MenuFactory, finding it on the search path as in lib/ext),
 * and its one field shown by JMeter's TestBeanGUI with its label and tooltip, in a real window.
 */
class EnvironmentTagMenuTest {
    @TempDir
    static Path jmeterHome;

    @BeforeAll
    static void jmeter() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeterWithMenus(jmeterHome);
    }

    @Test
    void itIsInTheAddPreProcessorsAndPostProcessorsMenus() {
        List<String> pre = GuiTests.addMenu(MenuFactory.PRE_PROCESSORS);
        List<String> post = GuiTests.addMenu(MenuFactory.POST_PROCESSORS);
        assertTrue(pre.contains("EnvBench Environment Tag"), "Add > Pre Processors holds: " + pre);
        assertTrue(post.contains("EnvBench Environment Tag"), "Add > Post Processors holds: " + post);
    }

    @Test
    void itsEnvironmentFieldHasItsLabelAndTooltipOnScreen() throws Exception {
        TestBeanGUI gui = GuiActionRunner.execute(
                () -> { // as JMeter's Add does: the GUI, a new element, shown in it
                    TestBeanGUI g = new TestBeanGUI(EnvironmentTag.class);
                    TestElement tag = g.createTestElement();
                    tag.setName(g.getStaticLabel()); // JMeter's Add names a new element after its menu entry
                    g.configure(tag);
                    return g;
                });
        FrameFixture window = GuiTests.showInFrame("EnvBench Environment Tag", gui, new Dimension(900, 400));
        try {
            JLabel label = window.label(new GenericTypeMatcher<>(JLabel.class) {
                        @Override
                        protected boolean isMatching(JLabel l) {
                            return l.getText() != null && l.getText().startsWith("Environment") && l.isShowing();
                        }
                    })
                    .target();
            String tip = GuiActionRunner.execute(() -> label.getToolTipText());
            String described = Arrays.stream(
                            Introspector.getBeanInfo(EnvironmentTag.class).getPropertyDescriptors())
                    .filter(p -> p.getName().equals("environment"))
                    .findFirst()
                    .orElseThrow()
                    .getShortDescription();
            assertTrue(tip != null && !tip.isBlank(), "a tooltip on the Environment label");
            assertEquals(
                    "<html>" + described + "</html>",
                    tip,
                    "the field's description from its resources, as TestBeanGUI shows it");
            GuiTests.screenshot(gui, "environment-tag");
        } finally {
            window.cleanUp();
        }
    }
}
