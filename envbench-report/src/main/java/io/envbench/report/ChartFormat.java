package io.envbench.report;

import java.awt.Rectangle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.pdf.PDFDocument;
import org.jfree.pdf.PDFGraphics2D;
import org.jfree.pdf.Page;
import org.jfree.svg.SVGGraphics2D;

/** The formats a chart is exported in: PNG for screens, SVG and PDF (vector) for reports. */
public enum ChartFormat {
    PNG, SVG, PDF;

    public String extension() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Renders the chart (headless is fine) into {@code file}. */
    public void write(JFreeChart chart, Path file, int width, int height) throws IOException {
        switch (this) {
            case PNG -> ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
            case SVG -> {
                SVGGraphics2D g2 = new SVGGraphics2D(width, height);
                chart.draw(g2, new Rectangle(width, height));
                Files.writeString(file, g2.getSVGDocument(), StandardCharsets.UTF_8);
            }
            case PDF -> {
                PDFDocument pdf = new PDFDocument();
                pdf.setTitle(chart.getTitle() == null ? "EnvBench chart" : chart.getTitle().getText());
                Page page = pdf.createPage(new Rectangle(width, height));
                PDFGraphics2D g2 = page.getGraphics2D();
                chart.draw(g2, new Rectangle(width, height));
                Files.write(file, pdf.getPDFBytes());
            }
            default -> throw new IllegalStateException(name());
        }
    }
}
