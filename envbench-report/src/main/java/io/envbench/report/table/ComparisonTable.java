package io.envbench.report.table;

import java.awt.Component;
import java.awt.event.MouseEvent;
import java.util.Comparator;
import java.util.List;
import javax.swing.JTable;
import javax.swing.RowSorter;
import javax.swing.SortOrder;
import javax.swing.SwingConstants;
import javax.swing.table.AbstractTableModel;
import javax.swing.table.DefaultTableCellRenderer;
import javax.swing.table.JTableHeader;
import javax.swing.table.TableCellRenderer;
import javax.swing.table.TableColumn;
import javax.swing.table.TableRowSorter;

import io.envbench.measure.stats.Comparison;
import io.envbench.report.TableOrder;

/**
 * A comparison table as JMeter users expect it, for the JMeter listeners and the controller alike: a click on a
 * header sorts by the cells' numbers (then text; see {@link TableOrder}), the TOTAL rows stay last in either
 * direction, each column is as wide as its widest cell (at most {@link #MAX_COLUMN_WIDTH}) and a cell's full text
 * is its tooltip. Rows are replaced whole and keep the user's sort. Swing: used on the event thread only.
 */
public final class ComparisonTable extends JTable {
    private static final long serialVersionUID = 1L;
    /** A column wider than this is cut; its tooltip has the rest. */
    public static final int MAX_COLUMN_WIDTH = 420;

    private static final int PADDING = 14;

    /** One cell: its text as the report prints it, the number it holds (NaN for "baseline", "~"), whether its row is TOTAL. */
    record Cell(String text, double number, boolean total) {
        static Cell of(String text, boolean total) {
            return new Cell(text, TableOrder.number(text), total);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** Rows of the report's tables (label in the first column), replaced whole. */
    static final class Model extends AbstractTableModel {
        private static final long serialVersionUID = 1L;
        private final String[] head;
        private transient List<Cell[]> rows = List.of();
        private transient List<String[]> texts = List.of();

        Model(String[] head) {
            this.head = head.clone();
        }

        void setRows(List<String[]> report) {
            this.texts = List.copyOf(report);
            this.rows = report.stream()
                    .map(r -> {
                        boolean total = r.length > 0 && Comparison.TOTAL.equals(r[0]);
                        Cell[] cells = new Cell[head.length];
                        for (int c = 0; c < cells.length; c++) {
                            cells[c] = Cell.of(c < r.length ? r[c] : "", total);
                        }
                        return cells;
                    })
                    .toList();
            fireTableDataChanged();
        }

        @Override
        public int getRowCount() {
            return rows.size();
        }

        @Override
        public int getColumnCount() {
            return head.length;
        }

        @Override
        public String getColumnName(int column) {
            return head[column];
        }

        @Override
        public Class<?> getColumnClass(int column) {
            return Cell.class;
        }

        @Override
        public Object getValueAt(int row, int column) {
            return rows.get(row)[column];
        }
    }

    private final Model model;

    /** @param head the column names, e.g. {@code ComparisonReport.TABLE_HEAD}; the first column is the label */
    public ComparisonTable(String[] head) {
        this(new Model(head));
    }

    private ComparisonTable(Model model) {
        super(model);
        this.model = model;
        setAutoResizeMode(AUTO_RESIZE_OFF);
        setFillsViewportHeight(true);
        TableRowSorter<Model> sorter = new TableRowSorter<>(model);
        for (int c = 0; c < model.getColumnCount(); c++) {
            sorter.setComparator(c, byNumberTotalLast(sorter, c));
        }
        setRowSorter(sorter);
        DefaultTableCellRenderer numbers = new DefaultTableCellRenderer();
        numbers.setHorizontalAlignment(SwingConstants.RIGHT);
        for (int c = 2; c < model.getColumnCount(); c++) {
            getColumnModel().getColumn(c).setCellRenderer(numbers); // label and environment left, figures right
        }
        fitColumns();
    }

    /** New rows, sorted as the user chose, and columns fitted to them. */
    public void setRows(List<String[]> rows) {
        model.setRows(rows);
        fitColumns();
    }

    /** The rows as given (not as sorted). */
    public List<String[]> rows() {
        return model.texts;
    }

    /**
     * Numbers before text, numbers by value, text alphabetically; TOTAL rows after every other row whichever way
     * the column is sorted (the sorter reverses a comparator for a descending column, so this one reverses back).
     */
    static Comparator<Cell> byNumberTotalLast(RowSorter<?> sorter, int column) {
        return (a, b) -> {
            if (a.total() != b.total()) {
                int last = a.total() ? 1 : -1;
                return descending(sorter, column) ? -last : last;
            }
            return TableOrder.CELLS.compare(a.text(), b.text());
        };
    }

    private static boolean descending(RowSorter<?> sorter, int column) {
        return sorter.getSortKeys().stream()
                .filter(k -> k.getColumn() == column)
                .findFirst()
                .map(k -> k.getSortOrder() == SortOrder.DESCENDING)
                .orElse(false);
    }

    /** Each column as wide as its header or widest cell, at most {@link #MAX_COLUMN_WIDTH}. */
    public void fitColumns() {
        JTableHeader header = getTableHeader();
        for (int c = 0; c < getColumnCount(); c++) {
            TableColumn column = getColumnModel().getColumn(c);
            TableCellRenderer hr = column.getHeaderRenderer() != null
                    ? column.getHeaderRenderer()
                    : header == null ? null : header.getDefaultRenderer();
            // room for the sort arrow too
            int width = hr == null
                    ? 0
                    : hr.getTableCellRendererComponent(this, column.getHeaderValue() + " ▲", false, false, -1, c)
                            .getPreferredSize()
                            .width;
            for (int r = 0; r < getRowCount(); r++) {
                Component cell = prepareRenderer(getCellRenderer(r, c), r, c);
                width = Math.max(width, cell.getPreferredSize().width);
            }
            column.setPreferredWidth(Math.min(MAX_COLUMN_WIDTH, width + PADDING));
        }
    }

    /** The full text of the cell under the mouse: a cut label or verdict can be read whole. */
    @Override
    public String getToolTipText(MouseEvent e) {
        int row = rowAtPoint(e.getPoint());
        int column = columnAtPoint(e.getPoint());
        if (row < 0 || column < 0) {
            return null;
        }
        return getColumnName(column) + ": " + getValueAt(row, column);
    }

    @Override
    protected JTableHeader createDefaultTableHeader() {
        return new JTableHeader(columnModel) {
            private static final long serialVersionUID = 1L;

            @Override
            public String getToolTipText(MouseEvent e) {
                int column = columnAtPoint(e.getPoint());
                return column < 0
                        ? null
                        : getColumnModel().getColumn(column).getHeaderValue()
                                + " (click to sort by its numbers; TOTAL stays last)";
            }
        };
    }
}
