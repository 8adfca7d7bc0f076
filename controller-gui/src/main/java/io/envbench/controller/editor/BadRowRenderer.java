package io.envbench.controller.editor;

import java.awt.Color;
import java.awt.Component;
import java.util.function.IntSupplier;
import javax.swing.JTable;
import javax.swing.table.DefaultTableCellRenderer;

import net.jcip.annotations.NotThreadSafe;

/** Draws the row the file's check names ({@code bad}, -1 for none) in red, the others as the table does. */
@NotThreadSafe
final class BadRowRenderer extends DefaultTableCellRenderer {
    private static final Color BAD = new Color(0xB00020);
    private final IntSupplier bad;

    BadRowRenderer(IntSupplier bad) {
        this.bad = bad;
    }

    @Override
    public Component getTableCellRendererComponent(
            JTable t, Object v, boolean selected, boolean focus, int row, int col) {
        Component c = super.getTableCellRendererComponent(t, v, selected, focus, row, col);
        c.setForeground(row == bad.getAsInt() ? BAD : selected ? t.getSelectionForeground() : t.getForeground());
        return c;
    }
}
