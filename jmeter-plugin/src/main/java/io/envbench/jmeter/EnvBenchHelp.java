package io.envbench.jmeter;

import java.awt.Component;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Frame;
import java.awt.Window;
import java.awt.event.ActionListener;
import java.io.IOException;
import java.net.URL;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JEditorPane;
import javax.swing.JMenuItem;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JScrollPane;
import javax.swing.SwingUtilities;

import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.util.EscapeDialog;

/**
 * EnvBench's own help for its JMeter elements: a page inside the plugin jar ({@link #PAGE}), so it is the
 * version installed and opens without a network. JMeter 5.6.3's Help action joins every element's anchor to
 * Apache's component reference, and ActionRouter runs every command registered for "help", so a plugin cannot
 * replace it; what a plugin owns is its GUI's popup menu ({@link #popupMenu}) and its panel (the Help button).
 */
public final class EnvBenchHelp {
    /** The page, a resource of the plugin jar (source: jmeter-plugin/src/main/resources). */
    public static final String PAGE = "/io/envbench/jmeter/help/envbench-jmeter.html";

    /** A section of the page; its anchor is an {@code <a name>} there. */
    public enum Topic {
        TARGET_ENVIRONMENT("target-environment"),
        CONTAINER_OPTIONS("container-options"),
        COMMAND("command"),
        ENGINE_METRICS("engine-metrics"),
        ENVIRONMENT_TAG("environment-tag"),
        ARRIVALS_TIMER("arrivals-timer"),
        START_GATE("start-gate"),
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
        b.setToolTipText("EnvBench's help for this element, bundled with the plugin (Esc closes it)");
        b.addActionListener(e -> show(topic, owner));
        return b;
    }

    /** The Help button at the top right of a title panel (not stretched to the panel's height). */
    public static JPanel buttonPanel(Topic topic, Component owner) {
        JPanel p = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        p.add(button(topic, owner));
        return p;
    }

    /**
     * JMeter's popup menu for an element with its Help item opening this page at the topic instead of Apache's
     * component reference (where EnvBench's elements have no section).
     */
    public static JPopupMenu popupMenu(JPopupMenu jmeterMenu, Topic topic, Component owner) {
        for (Component c : jmeterMenu.getComponents()) {
            if (c instanceof JMenuItem item && ActionNames.HELP.equals(item.getActionCommand())) {
                for (ActionListener l : item.getActionListeners()) {
                    item.removeActionListener(l);
                }
                item.addActionListener(e -> show(topic, owner));
            }
        }
        return jmeterMenu;
    }

    /**
     * Opens the page at a topic in a dialog that Esc closes (JMeter's {@link EscapeDialog}, as its own help
     * window); returns the dialog (tests look into it).
     */
    public static JDialog show(Topic topic, Component owner) {
        Window w = owner == null ? null : SwingUtilities.getWindowAncestor(owner);
        JDialog d = new EscapeDialog(w instanceof Frame f ? f : null, "EnvBench help", false);
        d.setName("envbench-help-dialog");
        JEditorPane pane = new JEditorPane();
        pane.setName("envbench-help-page");
        pane.setEditable(false);
        try {
            // the anchor in the URL: JEditorPane scrolls to it once its asynchronous load is done
            pane.setPage(new URL(page(), "#" + topic.anchor()));
        } catch (IOException e) {
            pane.setText("The help page could not be read from the EnvBench jar: " + e.getMessage());
        }
        JScrollPane scroll = new JScrollPane(pane);
        scroll.setPreferredSize(new Dimension(760, 560));
        d.add(scroll);
        d.pack();
        d.setLocationRelativeTo(owner);
        d.setVisible(true);
        return d;
    }
}
