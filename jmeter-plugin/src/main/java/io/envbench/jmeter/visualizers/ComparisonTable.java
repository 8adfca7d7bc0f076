package io.envbench.jmeter.visualizers;

import java.awt.Component;
import java.awt.event.MouseEvent;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.swing.JTable;
import javax.swing.RowSorter;
import javax.swing.SortOrder;
import javax.swing.table.AbstractTableModel;
import javax.swing.table.JTableHeader;
import javax.swing.table.TableCellRenderer;
import javax.swing.table.TableColumn;
import javax.swing.table.TableRowSorter;

import io.envbench.report.ComparisonReport;
import io.envbench.stats.Comparison;

/**
 * The Comparison listener's table: sorts a column by the number its cells start with (then by text), keeps
 * the TOTAL rows last in either direction, sizes each column to its widest cell and shows a cell's full text
 * as its tooltip. Swing: used on the event thread only.
 */
final class ComparisonTable extends JTable {
    private static final long serialVersionUID = 1L;
    /** A column wider than this is cut; its tooltip has the rest. */
    static final int MAX_COLUMN_WIDTH = 420;
    private static final int PADDING = 14;

    /**
     * One cell: its text as the report prints it, the number it starts with (NaN for text such as "baseline" or
     * "~ p=0.485"), and whether its row is a TOTAL row.
     */
    record Cell(String text, double number, boolean total) {
        private static final Pattern LEADING_NUMBER = Pattern.compile("^\\s*([+-]?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)");

        static Cell of(String text, boolean total) {
            Matcher m = LEADING_NUMBER.matcher(text);
            return new Cell(text, m.find() ? Double.parseDouble(m.group(1)) : Double.NaN, total);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** The rows of {@link ComparisonReport#tableRows()}, replaced whole: one event, and the user's sort order stays. */
    static final class Model extends AbstractTableModel {
        private static final long serialVersionUID = 1L;
        private transient List<Cell[]> rows = List.of();
        private transient List<String[]> texts = List.of();

        void setRows(List<String[]> report) {
            this.texts = report;
            this.rows = report.stream().map(r -> {
                boolean total = r.length > 0 && Comparison.TOTAL.equals(r[0]);
                Cell[] cells = new Cell[ComparisonReport.TABLE_HEAD.length];
                for (int c = 0; c < cells.length; c++) {
                    cells[c] = Cell.of(c < r.length ? r[c] : "", total);
                }
                return cells;
            }).toList();
            fireTableDataChanged();
        }

        List<String[]> rows() {
            return texts;
        }

        @Override
        public int getRowCount() {
            return rows.size();
        }

        @Override
        public int getColumnCount() {
            return ComparisonReport.TABLE_HEAD.length;
        }

        @Override
        public String getColumnName(int column) {
            return ComparisonReport.TABLE_HEAD[column];
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

    ComparisonTable(Model model) {
        super(model);
        this.model = model;
        setAutoResizeMode(AUTO_RESIZE_OFF);
        TableRowSorter<Model> sorter = new TableRowSorter<>(model);
        for (int c = 0; c < model.getColumnCount(); c++) {
            sorter.setComparator(c, byNumberTotalLast(sorter, c));
        }
        setRowSorter(sorter);
        fitColumns();
    }

    /** New rows, sorted as the user chose, and columns fitted to them. */
    void setRows(List<String[]> rows) {
        model.setRows(rows); // the table and its sorter take the change before this returns
        fitColumns();
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
            boolean an = Double.isNaN(a.number());
            boolean bn = Double.isNaN(b.number());
            if (an != bn) {
                return an ? 1 : -1;
            }
            int byNumber = an ? 0 : Double.compare(a.number(), b.number());
            return byNumber != 0 ? byNumber : a.text().compareTo(b.text());
        };
    }

    private static boolean descending(RowSorter<?> sorter, int column) {
        return sorter.getSortKeys().stream().filter(k -> k.getColumn() == column).findFirst()
                .map(k -> k.getSortOrder() == SortOrder.DESCENDING).orElse(false);
    }

    /** Each column as wide as its header or widest cell, at most {@link #MAX_COLUMN_WIDTH}. */
    void fitColumns() {
        JTableHeader header = getTableHeader();
        for (int c = 0; c < getColumnCount(); c++) {
            TableColumn column = getColumnModel().getColumn(c);
            TableCellRenderer hr = column.getHeaderRenderer() != null ? column.getHeaderRenderer()
                    : header == null ? null : header.getDefaultRenderer();
            int width = hr == null ? 0
                    : hr.getTableCellRendererComponent(this, column.getHeaderValue(), false, false, -1, c).getPreferredSize().width;
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
        return ComparisonReport.TABLE_HEAD[convertColumnIndexToModel(column)] + ": " + getValueAt(row, column);
    }

    @Override
    protected JTableHeader createDefaultTableHeader() {
        return new JTableHeader(columnModel) {
            private static final long serialVersionUID = 1L;

            @Override
            public String getToolTipText(MouseEvent e) {
                int column = columnAtPoint(e.getPoint());
                return column < 0 ? null : ComparisonReport.TABLE_HEAD[convertColumnIndexToModel(column)] + " (click to sort)";
            }
        };
    }

    Model comparisonModel() {
        return model;
    }
}
