package io.envbench.report;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.imageio.ImageIO;
import javax.imageio.stream.MemoryCacheImageOutputStream;

import org.jfree.chart.JFreeChart;
import org.jfree.pdf.PDFDocument;
import org.jfree.pdf.PDFGraphics2D;
import org.jfree.pdf.Page;
import org.jfree.svg.SVGGraphics2D;

/** The formats a chart is exported in: PNG for screens, SVG and PDF (vector) for reports. */
public enum ChartFormat {
    PNG,
    SVG,
    PDF;

    public String extension() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Renders the chart (headless is fine) into {@code file}. */
    public void write(JFreeChart chart, Path file, int width, int height) throws IOException {
        switch (this) {
            case PNG -> writePng(chart, width, height, file);
            case SVG -> {
                SVGGraphics2D g2 = new SVGGraphics2D(width, height);
                chart.draw(g2, new Rectangle(width, height));
                Files.writeString(file, g2.getSVGDocument(), StandardCharsets.UTF_8);
            }
            case PDF -> {
                PDFDocument pdf = new PDFDocument();
                pdf.setTitle(
                        chart.getTitle() == null
                                ? "EnvBench chart"
                                : chart.getTitle().getText());
                Page page = pdf.createPage(new Rectangle(width, height));
                PDFGraphics2D g2 = page.getGraphics2D();
                chart.draw(g2, new Rectangle(width, height));
                Files.write(file, pdf.getPDFBytes());
            }
            default -> throw new IllegalStateException(name());
        }
    }

    /**
     * Through an in-memory cache: ImageIO's default file cache registers a JVM shutdown hook, which fails
     * while the JVM shuts down, and a report is written then too (Ctrl-C during {@code envbench run}).
     */
    private static void writePng(JFreeChart chart, int width, int height, Path file) throws IOException {
        BufferedImage image = chart.createBufferedImage(width, height);
        try (OutputStream out = Files.newOutputStream(file);
                MemoryCacheImageOutputStream images = new MemoryCacheImageOutputStream(out)) {
            if (!ImageIO.write(image, "png", images)) {
                throw new IOException("no PNG writer in this Java runtime");
            }
        }
    }
}
