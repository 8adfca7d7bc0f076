package io.envbench.controller.editor;

import java.awt.Component;
import java.util.Map;
import java.util.function.Supplier;
import javax.swing.DefaultListCellRenderer;
import javax.swing.JList;

import net.jcip.annotations.NotThreadSafe;

/**
 * The target drop-down's rows: each recipe's name, what it is (its {@code description}) and the load that fits it, so
 * one picks a target knowing what it runs and how it is loaded. The field itself shows the name, as the file has it.
 */
@NotThreadSafe
final class TargetRenderer extends DefaultListCellRenderer {
    private final Supplier<Map<String, TargetFit>> fits;

    TargetRenderer(Supplier<Map<String, TargetFit>> fits) {
        this.fits = fits;
    }

    /** What a target is and what load fits it, in a line. */
    static String about(TargetFit fit) {
        return (fit.description().isEmpty() ? "" : fit.description() + "; ") + "load: " + fit.startText();
    }

    @Override
    public Component getListCellRendererComponent(
            JList<?> list, Object value, int index, boolean selected, boolean focus) {
        super.getListCellRendererComponent(list, value, index, selected, focus);
        TargetFit fit = value == null ? null : fits.get().get(value.toString());
        if (fit != null && index >= 0) { // index -1: the closed drop-down, which shows the name alone
            setText(fit.name() + " — " + about(fit));
        }
        return this;
    }
}
