package io.envbench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;

import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.Range;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.IntervalCategoryDataset;

/**
 * Bars with a whisker from each item's start to end value ({@link IntervalCategoryDataset}), which may lie unevenly
 * around the bar: JFreeChart's StatisticalBarRenderer draws mean ± standard deviation only, its IntervalBarRenderer
 * floating bars. An item whose interval is a single value gets no whisker.
 */
final class WhiskerBarRenderer extends BarRenderer {
    private static final Color WHISKER = new Color(0x333333);
    private static final BasicStroke WHISKER_STROKE = new BasicStroke(1.6f);
    /** The cap's width as a fraction of the bar's. */
    private static final double CAP_WIDTH = 0.4;

    /** The axis reaches the whiskers' ends, not only the bars'. */
    @Override
    public Range findRangeBounds(CategoryDataset dataset) {
        return findRangeBounds(dataset, true);
    }

    @Override
    public void drawItem(
            Graphics2D g2,
            CategoryItemRendererState state,
            Rectangle2D dataArea,
            CategoryPlot plot,
            CategoryAxis domainAxis,
            ValueAxis rangeAxis,
            CategoryDataset dataset,
            int row,
            int column,
            int pass) {
        super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
        int visibleRow = state.getVisibleSeriesIndex(row);
        if (visibleRow < 0 || !(dataset instanceof IntervalCategoryDataset intervals)) {
            return;
        }
        Number low = intervals.getStartValue(row, column);
        Number high = intervals.getEndValue(row, column);
        if (low == null || high == null || !(high.doubleValue() > low.doubleValue())) {
            return;
        }
        PlotOrientation orientation = plot.getOrientation();
        double barStart = calculateBarW0(plot, orientation, dataArea, domainAxis, state, visibleRow, column);
        double middle = barStart + state.getBarWidth() / 2;
        double halfCap = state.getBarWidth() * CAP_WIDTH / 2;
        RectangleEdge edge = plot.getRangeAxisEdge();
        double lowAt = rangeAxis.valueToJava2D(low.doubleValue(), dataArea, edge);
        double highAt = rangeAxis.valueToJava2D(high.doubleValue(), dataArea, edge);
        g2.setPaint(WHISKER);
        g2.setStroke(WHISKER_STROKE);
        if (orientation == PlotOrientation.VERTICAL) {
            g2.draw(new Line2D.Double(middle, lowAt, middle, highAt));
            g2.draw(new Line2D.Double(middle - halfCap, lowAt, middle + halfCap, lowAt));
            g2.draw(new Line2D.Double(middle - halfCap, highAt, middle + halfCap, highAt));
        } else {
            g2.draw(new Line2D.Double(lowAt, middle, highAt, middle));
            g2.draw(new Line2D.Double(lowAt, middle - halfCap, lowAt, middle + halfCap));
            g2.draw(new Line2D.Double(highAt, middle - halfCap, highAt, middle + halfCap));
        }
    }
}
