package io.envbench.controller.editor;

import java.awt.BorderLayout;
import java.awt.Font;
import javax.swing.BorderFactory;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;

import net.jcip.annotations.NotThreadSafe;

/** The experiment file the form writes, shown read-only beside the form: what {@code ./envbench run} takes as saved. */
@NotThreadSafe
final class YamlPreview {
    private final JTextArea yaml = new JTextArea();
    private final JPanel panel = new JPanel(new BorderLayout());

    YamlPreview() {
        yaml.setName("experiment.yaml");
        yaml.setEditable(false);
        yaml.setFont(new Font(Font.MONOSPACED, Font.PLAIN, yaml.getFont().getSize()));
        yaml.setToolTipText("the experiment file the form writes: ./envbench run takes it as saved");
        JLabel title = new JLabel("The experiment file (read-only)");
        title.setBorder(BorderFactory.createEmptyBorder(4, 6, 4, 6));
        panel.add(title, BorderLayout.NORTH);
        panel.add(new JScrollPane(yaml));
    }

    JPanel panel() {
        return panel;
    }

    /** Shows {@code text} from its top; when it is what is shown already, the reader keeps their place. */
    void show(String text) {
        if (!yaml.getText().equals(text)) {
            yaml.setText(text);
            yaml.setCaretPosition(0);
        }
    }
}
