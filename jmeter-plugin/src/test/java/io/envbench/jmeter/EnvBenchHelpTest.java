package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Dimension;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import javax.swing.JEditorPane;
import javax.swing.JFrame;

import io.envbench.jmeter.visualizers.ComparisonVisualizer;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.finder.WindowFinder;
import org.assertj.swing.fixture.DialogFixture;
import org.assertj.swing.fixture.FrameFixture;
import org.junit.jupiter.api.Test;

/**
 * EnvBench's help opens something real: the page bundled in the jar, with a section for every element, from the
 * Help button of an element's GUI (JMeter's Help menu only knows Apache's component reference).
 */
class EnvBenchHelpTest {
    @Test
    void everyTopicHasItsSectionInTheBundledPage() throws Exception {
        String page;
        try (InputStream in = EnvBenchHelp.page().openStream()) {
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (EnvBenchHelp.Topic t : EnvBenchHelp.Topic.values()) {
            assertTrue(page.contains("<a name=\"" + t.anchor() + "\">"), "no section for " + t);
        }
        assertTrue(!page.contains("jmeter.apache.org"), "the help points back at Apache's site");
    }

    @Test
    void theHelpButtonOfTheComparisonListenerOpensItsSection() throws Exception {
        GuiTests.requireDisplay();
        GuiTests.initJMeter();
        JFrame frame = GuiActionRunner.execute(() -> {
            JFrame f = new JFrame("EnvBench Comparison");
            f.add(new ComparisonVisualizer());
            return f;
        });
        FrameFixture window = new FrameFixture(frame);
        try {
            window.show(new Dimension(1000, 600));
            window.button("envbench-help").click();
            DialogFixture help = WindowFinder.findDialog("envbench-help-dialog").using(window.robot());
            JEditorPane pane = help.robot().finder().findByName(help.target(), "envbench-help-page", JEditorPane.class);
            GuiTests.awaitPage(pane);
            String text = GuiActionRunner.execute(
                    () -> pane.getDocument().getText(0, pane.getDocument().getLength()));
            assertTrue(text.contains("EnvBench Comparison") && text.contains("Exclude labels"), text);
            GuiTests.screenshot(help.target(), "help-comparison");
            help.close();
        } finally {
            window.cleanUp();
        }
    }
}
