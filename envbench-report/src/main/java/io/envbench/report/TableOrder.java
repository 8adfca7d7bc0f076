package io.envbench.report;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.measure.stats.Comparison;

/**
 * The order of a comparison table's cells when a user sorts by a column: cells that start with a number ("12.5",
 * "+3.1% (p=0.03)", "0.00%", "[1.0, 2.0]") by that number, the others ("~ p=0.48", "baseline") after them by their text.
 * {@link io.envbench.report.table.ComparisonTable} keeps the {@value Comparison#TOTAL} rows last on top of this.
 */
public final class TableOrder {
    /** A number that starts the cell (after an interval's "["): "~ p=0.485" holds no figure, its p-value is not one. */
    private static final Pattern NUMBER = Pattern.compile("^\\s*\\[?\\s*([-+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)");

    private TableOrder() {}

    /** The number a cell starts with (an interval: its low end), or NaN when it starts with none. */
    public static double number(String cell) {
        if (cell == null) {
            return Double.NaN;
        }
        Matcher m = NUMBER.matcher(cell);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
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
}
