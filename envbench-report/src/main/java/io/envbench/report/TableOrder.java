package io.envbench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.stats.Comparison;

/**
 * The order of a comparison table's rows when a user sorts by a column: cells that hold a number ("12.5",
 * "+3.1% (p=0.03)", "0.00%", "[1.0, 2.0]") by that number, the others ("~", "") after them by their text in
 * either direction;
 * the {@value Comparison#TOTAL} rows always last, whichever way the sort goes, as JMeter's listeners keep them.
 */
public final class TableOrder {
    private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");

    private TableOrder() {
    }

    /** The first number in a cell, or NaN when it holds none. */
    public static double number(String cell) {
        if (cell == null) {
            return Double.NaN;
        }
        Matcher m = NUMBER.matcher(cell);
        return m.find() ? Double.parseDouble(m.group()) : Double.NaN;
    }

    /** Numbers in ascending order, then cells without a number by their text. */
    public static final Comparator<String> CELLS = (a, b) -> {
        double x = number(a);
        double y = number(b);
        if (!Double.isNaN(x) && !Double.isNaN(y)) {
            return Double.compare(x, y);
        }
        if (Double.isNaN(x) != Double.isNaN(y)) {
            return Double.isNaN(x) ? 1 : -1;
        }
        return String.valueOf(a).compareTo(String.valueOf(b));
    };

    /**
     * The rows sorted by {@code column} (stable: rows with equal cells keep their order), the rows whose
     * {@code labelColumn} is TOTAL last in their own order.
     */
    public static List<String[]> sorted(List<String[]> rows, int column, boolean ascending, int labelColumn) {
        // cells without a number stay after the numbers either way
        Comparator<String[]> byCell = Comparator.<String[], Boolean>comparing(r -> Double.isNaN(number(r[column])))
                .thenComparing(r -> r[column], ascending ? CELLS : CELLS.reversed());
        List<String[]> body = new ArrayList<>();
        List<String[]> total = new ArrayList<>();
        for (String[] r : rows) {
            (Comparison.TOTAL.equals(r[labelColumn]) ? total : body).add(r);
        }
        body.sort(byCell);
        total.sort(byCell);
        body.addAll(total);
        return body;
    }
}
