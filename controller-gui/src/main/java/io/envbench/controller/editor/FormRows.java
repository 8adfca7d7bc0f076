package io.envbench.controller.editor;

import java.awt.Font;
import java.awt.GridBagConstraints;
import java.awt.Insets;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.SwingConstants;

import net.jcip.annotations.NotThreadSafe;

/** Label and field rows of a form, with section headings. */
@NotThreadSafe
final class FormRows {
    private final JPanel panel;
    private int row;

    FormRows(JPanel panel) {
        this.panel = panel;
    }

    void section(String title) {
        JLabel l = new JLabel(title);
        l.setFont(l.getFont().deriveFont(Font.BOLD, l.getFont().getSize2D() + 1f));
        GridBagConstraints g = constraints(0, 2);
        g.insets = new Insets(row == 0 ? 6 : 14, 8, 4, 8);
        panel.add(l, g);
        row++;
    }

    JComponent add(String label, JComponent field) {
        JLabel l = new JLabel(label, SwingConstants.RIGHT);
        l.setLabelFor(field instanceof JScrollPane s ? s.getViewport().getView() : field);
        GridBagConstraints g = constraints(0, 1);
        g.weightx = 0;
        g.fill = GridBagConstraints.NONE;
        g.anchor = GridBagConstraints.LINE_END;
        panel.add(l, g);
        GridBagConstraints f = constraints(1, 1);
        panel.add(field, f);
        row++;
        return new LabelledField(l, field);
    }

    void wide(JComponent c) {
        panel.add(c, constraints(0, 2));
        row++;
    }

    void end() {
        GridBagConstraints g = constraints(0, 2);
        g.weighty = 1;
        panel.add(new JPanel(), g);
    }

    private GridBagConstraints constraints(int x, int width) {
        GridBagConstraints g = new GridBagConstraints();
        g.gridx = x;
        g.gridy = row;
        g.gridwidth = width;
        g.weightx = 1;
        g.fill = GridBagConstraints.HORIZONTAL;
        g.anchor = GridBagConstraints.LINE_START;
        g.insets = new Insets(2, 8, 2, 8);
        return g;
    }
}
