package io.envbench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Stroke;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;

/**
 * The look of every EnvBench chart, fit for a report: white, flat (no gradients, shadows or borders), a light grid,
 * the legend at the bottom, and type large enough to read when a 900 x 500 chart is pasted at half width (ticks
 * 18 px there, 9 px on the page). Number axes never use scientific notation ({@link SiNumberFormat}). Stateless: a new
 * theme is made per chart, the global JFreeChart theme is left alone.
 */
public final class ChartStyle {
    public static final Color GRID = new Color(0xDDDDDD);
    public static final Color AXIS = new Color(0x888888);
    public static final Color TEXT = new Color(0x222222);
    /** A line chart's first series of an environment. */
    public static final Stroke SOLID = new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    /** A second series of the same environment (same colour): dashed. */
    public static final Stroke DASHED =
            new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {9f, 6f}, 0f);

    static final int TITLE_FONT_PX = 26;
    static final int LABEL_FONT_PX = 20;
    /** Tick labels, legends, and any small text drawn on a chart (marker labels). */
    public static final int TICK_FONT_PX = 18;

    private ChartStyle() {}

    /** Styles a chart made by ChartFactory (or by hand); series colours are the caller's ({@link EnvironmentPalette}). */
    public static JFreeChart flat(JFreeChart chart) {
        StandardChartTheme theme = new StandardChartTheme("EnvBench flat", false);
        theme.setExtraLargeFont(new Font(Font.SANS_SERIF, Font.BOLD, TITLE_FONT_PX));
        theme.setLargeFont(new Font(Font.SANS_SERIF, Font.PLAIN, LABEL_FONT_PX));
        theme.setRegularFont(new Font(Font.SANS_SERIF, Font.PLAIN, TICK_FONT_PX));
        theme.setSmallFont(new Font(Font.SANS_SERIF, Font.PLAIN, TICK_FONT_PX));
        theme.setTitlePaint(TEXT);
        theme.setSubtitlePaint(TEXT);
        theme.setAxisLabelPaint(TEXT);
        theme.setTickLabelPaint(TEXT);
        theme.setLegendItemPaint(TEXT);
        theme.setChartBackgroundPaint(Color.WHITE);
        theme.setPlotBackgroundPaint(Color.WHITE);
        theme.setLegendBackgroundPaint(Color.WHITE);
        theme.setPlotOutlinePaint(Color.WHITE);
        theme.setDomainGridlinePaint(GRID);
        theme.setRangeGridlinePaint(GRID);
        theme.setAxisOffset(RectangleInsets.ZERO_INSETS);
        theme.setBarPainter(new StandardBarPainter());
        theme.setXYBarPainter(new StandardXYBarPainter());
        theme.setShadowVisible(false);
        theme.apply(chart);

        chart.setBorderVisible(false);
        chart.setPadding(new RectangleInsets(8, 8, 8, 16));
        LegendTitle legend = chart.getLegend();
        if (legend != null) {
            legend.setPosition(RectangleEdge.BOTTOM);
            legend.setFrame(BlockBorder.NONE);
        }
        flat(chart.getPlot());
        return chart;
    }

    private static void flat(Plot plot) {
        plot.setOutlineVisible(false);
        if (plot instanceof CombinedDomainXYPlot combined) {
            combined.getSubplots().forEach(ChartStyle::flat);
            axis(combined.getDomainAxis());
        } else if (plot instanceof XYPlot xy) {
            xy.setDomainGridlineStroke(new BasicStroke(1f));
            xy.setRangeGridlineStroke(new BasicStroke(1f));
            for (int i = 0; i < xy.getRangeAxisCount(); i++) {
                axis(xy.getRangeAxis(i));
            }
            axis(xy.getDomainAxis());
        } else if (plot instanceof CategoryPlot category) {
            category.setDomainGridlinesVisible(false);
            category.setRangeGridlineStroke(new BasicStroke(1f));
            for (int i = 0; i < category.getRangeAxisCount(); i++) {
                axis(category.getRangeAxis(i));
            }
            axis(category.getDomainAxis());
        }
    }

    private static void axis(Axis axis) {
        if (axis == null) {
            return;
        }
        axis.setAxisLinePaint(AXIS);
        axis.setTickMarkPaint(AXIS);
        if (axis instanceof NumberAxis number) {
            number.setNumberFormatOverride(new SiNumberFormat());
        }
    }
}
