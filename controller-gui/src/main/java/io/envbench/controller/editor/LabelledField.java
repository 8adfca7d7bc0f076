package io.envbench.controller.editor;

import java.awt.Component;
import java.awt.Container;
import javax.swing.JComponent;
import javax.swing.JLabel;

import net.jcip.annotations.NotThreadSafe;

/** A label and its field, enabled and disabled together. */
@NotThreadSafe
final class LabelledField extends JComponent {
    private final JLabel label;
    private final JComponent field;

    LabelledField(JLabel label, JComponent field) {
        this.label = label;
        this.field = field;
    }

    @Override
    public void setEnabled(boolean enabled) {
        label.setEnabled(enabled);
        setEnabledDeep(field, enabled);
    }

    /** Enables or disables a component and everything in it. */
    static void setEnabledDeep(Component c, boolean enabled) {
        c.setEnabled(enabled);
        if (c instanceof Container k) {
            for (Component child : k.getComponents()) {
                setEnabledDeep(child, enabled);
            }
        }
    }
}
