package io.envbench.report;

import org.jfree.data.DefaultKeyedValues2D;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.category.IntervalCategoryDataset;

/**
 * Bars of a figure measured once per run: the value is the median of the runs, the interval (start to end) the 95%
 * confidence interval of that median, or with too few runs for one the lowest to the highest run (a single run's
 * interval is its value). Rows are environments, columns labels.
 */
public final class MedianOfRunsDataset extends DefaultCategoryDataset implements IntervalCategoryDataset {
    private final DefaultKeyedValues2D lows = new DefaultKeyedValues2D();
    private final DefaultKeyedValues2D highs = new DefaultKeyedValues2D();

    /** Adds one bar: the median of runs of {@code environment} x {@code label}, and its interval. */
    public void add(String environment, String label, double median, double low, double high) {
        if (!(low <= median && median <= high)) {
            throw new IllegalArgumentException("interval: [" + low + ", " + high + "] does not hold the median "
                    + median + " of " + environment + " x " + label);
        }
        addValue(median, environment, label);
        lows.addValue(low, environment, label);
        highs.addValue(high, environment, label);
    }

    @Override
    public Number getStartValue(int row, int column) {
        return getStartValue(getRowKey(row), getColumnKey(column));
    }

    @Override
    public Number getStartValue(Comparable rowKey, Comparable columnKey) {
        return lows.getValue(rowKey, columnKey);
    }

    @Override
    public Number getEndValue(int row, int column) {
        return getEndValue(getRowKey(row), getColumnKey(column));
    }

    @Override
    public Number getEndValue(Comparable rowKey, Comparable columnKey) {
        return highs.getValue(rowKey, columnKey);
    }
}
