package io.envbench.controller.results;

import java.awt.Component;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.util.ArrayList;
import java.util.List;

import javax.swing.JComponent;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.SwingConstants;
import javax.swing.table.DefaultTableCellRenderer;
import javax.swing.table.DefaultTableModel;
import javax.swing.table.TableColumn;

import io.envbench.report.TableOrder;

/**
 * A comparison table: a click on a column header sorts by its numbers (again: the other way), TOTAL rows stay
 * last, columns are as wide as their content, and a cell's full text is its tooltip.
 */
final class SortedTable {
    private static final int MAX_COLUMN_PX = 420;

    private final String[] head;
    private final DefaultTableModel model;
    private final JTable table;
    private final JScrollPane scroll;
    private List<String[]> rows = List.of();
    private int sortColumn = -1;
    private boolean ascending = true;

    SortedTable(String name, String[] head) {
        this.head = head.clone();
        this.model = new DefaultTableModel(head, 0) {
            @Override
            public boolean isCellEditable(int row, int column) {
                return false;
            }
        };
        this.table = new JTable(model) {
            @Override
            public String getToolTipText(MouseEvent e) {
                int r = rowAtPoint(e.getPoint());
                int c = columnAtPoint(e.getPoint());
                Object v = r < 0 || c < 0 ? null : getValueAt(r, c);
                return v == null || v.toString().isEmpty() ? null : getColumnName(c) + ": " + v;
            }
        };
        table.setName(name);
        table.setAutoResizeMode(JTable.AUTO_RESIZE_OFF);
        table.setFillsViewportHeight(true);
        DefaultTableCellRenderer numbers = new DefaultTableCellRenderer();
        numbers.setHorizontalAlignment(SwingConstants.RIGHT);
        for (int c = 2; c < head.length; c++) {
            table.getColumnModel().getColumn(c).setCellRenderer(numbers);
        }
        table.getTableHeader().setToolTipText("click a column to sort by it (numbers as numbers; TOTAL stays last), again to reverse");
        table.getTableHeader().addMouseListener(new MouseAdapter() {
            @Override
            public void mouseClicked(MouseEvent e) {
                int c = table.columnAtPoint(e.getPoint());
                if (c >= 0) {
                    sortBy(table.convertColumnIndexToModel(c));
                }
            }
        });
        scroll = new JScrollPane(table);
    }

    JComponent component() {
        return scroll;
    }

    JTable table() {
        return table;
    }

    void rows(List<String[]> newRows) {
        rows = new ArrayList<>(newRows);
        sortColumn = -1;
        ascending = true;
        fill(rows);
        fitColumns();
    }

    /** Sorts by a column; the same column again reverses the order. */
    void sortBy(int column) {
        ascending = column != sortColumn || !ascending;
        sortColumn = column;
        fill(TableOrder.sorted(rows, column, ascending, 0));
        for (int c = 0; c < head.length; c++) {
            table.getColumnModel().getColumn(c).setHeaderValue(c == column ? head[c] + (ascending ? " ▲" : " ▼") : head[c]);
        }
        table.getTableHeader().repaint();
    }

    private void fill(List<String[]> ordered) {
        model.setRowCount(0);
        ordered.forEach(r -> model.addRow(r));
    }

    private void fitColumns() {
        for (int c = 0; c < table.getColumnCount(); c++) {
            TableColumn col = table.getColumnModel().getColumn(c);
            Component h = table.getTableHeader().getDefaultRenderer().getTableCellRendererComponent(table, head[c] + " ▲", false, false, -1, c);
            int width = h.getPreferredSize().width;
            for (int r = 0; r < Math.min(table.getRowCount(), 500); r++) {
                Component cell = table.prepareRenderer(table.getCellRenderer(r, c), r, c);
                width = Math.max(width, cell.getPreferredSize().width);
            }
            col.setPreferredWidth(Math.min(MAX_COLUMN_PX, width + 16));
        }
    }
}
