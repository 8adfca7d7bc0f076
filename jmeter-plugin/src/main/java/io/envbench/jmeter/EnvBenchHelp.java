package io.envbench.jmeter;

import java.awt.Component;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Window;
import java.io.IOException;
import java.net.URL;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JEditorPane;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.SwingUtilities;

/**
 * EnvBench's own help for its JMeter elements: a page inside the plugin jar ({@link #PAGE}), so it is the
 * version installed and opens without a network. JMeter's Help menu cannot be pointed here (JMeter 5.6.3 joins
 * every element's anchor to Apache's component reference), so each EnvBench GUI carries a Help button instead.
 */
public final class EnvBenchHelp {
    /** The page, a resource of the plugin jar (source: jmeter-plugin/src/main/resources). */
    public static final String PAGE = "/io/envbench/jmeter/help/envbench-jmeter.html";

    /** A section of the page; its anchor is an {@code <a name>} there. */
    public enum Topic {
        TARGET_ENVIRONMENT("target-environment"),
        CONTAINER_OPTIONS("container-options"),
        ENVIRONMENT_TAG("environment-tag"),
        ARRIVALS_TIMER("arrivals-timer"),
        RESOURCE_MONITOR("resource-monitor"),
        CPU_CONTROL("cpu-control"),
        COMPARISON("comparison"),
        FUNCTIONS("functions"),
        TEMPLATES("templates");

        private final String anchor;

        Topic(String anchor) {
            this.anchor = anchor;
        }

        public String anchor() {
            return anchor;
        }
    }

    private EnvBenchHelp() {}

    /** The page's address inside the jar (a jar: URL when installed, file: in a build). */
    public static URL page() {
        URL url = EnvBenchHelp.class.getResource(PAGE);
        if (url == null) {
            throw new IllegalStateException(PAGE + " is missing from the EnvBench jar; rebuild it");
        }
        return url;
    }

    /** A "Help" button for an element's GUI: opens the page at the element's section. */
    public static JButton button(Topic topic, Component owner) {
        JButton b = new JButton("Help");
        b.setName("envbench-help");
        b.setToolTipText(
                "EnvBench's help for this element (bundled with the plugin; JMeter's Help menu shows Apache's elements only)");
        b.addActionListener(e -> show(topic, owner));
        return b;
    }

    /** The Help button at the top right of a title panel (not stretched to the panel's height). */
    public static JPanel buttonPanel(Topic topic, Component owner) {
        JPanel p = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        p.add(button(topic, owner));
        return p;
    }

    /** Opens the page at a topic in a dialog; returns the dialog (tests look into it). */
    public static JDialog show(Topic topic, Component owner) {
        Window w = owner == null ? null : SwingUtilities.getWindowAncestor(owner);
        JDialog d = new JDialog(w, "EnvBench help");
        d.setName("envbench-help-dialog");
        JEditorPane pane = new JEditorPane();
        pane.setName("envbench-help-page");
        pane.setEditable(false);
        try {
            pane.setPage(page());
        } catch (IOException e) {
            pane.setText("The help page could not be read from the EnvBench jar: " + e.getMessage());
        }
        // setPage loads asynchronously; scroll once the page is in
        pane.addPropertyChangeListener("page", e -> pane.scrollToReference(topic.anchor()));
        JScrollPane scroll = new JScrollPane(pane);
        scroll.setPreferredSize(new Dimension(760, 560));
        d.add(scroll);
        d.pack();
        d.setLocationRelativeTo(owner);
        d.setVisible(true);
        return d;
    }
}
