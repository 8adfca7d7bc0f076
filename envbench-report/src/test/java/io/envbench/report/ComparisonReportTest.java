package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.envbench.stats.Comparison;
import io.envbench.results.Sample;

class ComparisonReportTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /** Two runs of three environments; docker-bridge clearly slower. */
    static Comparison comparison() {
        Comparison c = new Comparison();
        Random r = new Random(3);
        for (String run : List.of("run1", "run2")) {
            long t = 1_000_000;
            for (int i = 0; i < 3000; i++) {
                t += 2;
                c.add(new Sample("bare", "GET /", t, 2 + r.nextInt(3), true, 4300, 120), run);
                c.add(new Sample("docker-bridge", "GET /", t, 6 + r.nextInt(3), i % 100 != 0, 4300, 120), run);
                c.add(new Sample("docker-host", "GET /", t, 2 + r.nextInt(3), true, 4300, 120), run);
            }
        }
        return c;
    }

    @Test
    void writesEveryDocumentAndChartInEveryFormat() throws Exception {
        ComparisonReport report = new ComparisonReport(comparison(), null);
        assertEquals("bare", report.baseline());
        List<Path> files = report.write(dir);
        List<String> csv = Files.readAllLines(dir.resolve("comparison.csv"));
        assertEquals(ComparisonReport.CSV_HEADER, csv.get(0));
        assertEquals(1 + 3 * 2, csv.size(), "3 environments x (GET / + TOTAL)");
        assertTrue(csv.get(1).startsWith("bare,GET /,6000,"), csv.get(1));
        assertTrue(Files.readString(dir.resolve("index.html")).contains("charts/p90.svg"));
        assertTrue(Files.readString(dir.resolve("comparison.md")).contains("| GET / | bare vs docker-bridge |"));
        for (String chart : new ComparisonCharts(comparison(), "bare").all().keySet()) {
            BufferedImage png = ImageIO.read(dir.resolve("charts/" + chart + ".png").toFile());
            assertEquals(ComparisonReport.CHART_WIDTH, png.getWidth(), chart);
            assertEquals(ComparisonReport.CHART_HEIGHT, png.getHeight(), chart);
            assertTrue(distinctColours(png) > 5, chart + " is not blank");
            assertTrue(Files.readString(dir.resolve("charts/" + chart + ".svg")).contains("<svg"), chart);
            assertTrue(new String(Files.readAllBytes(dir.resolve("charts/" + chart + ".pdf")), 0, 5).startsWith("%PDF"), chart);
        }
        assertTrue(files.stream().noneMatch(f -> f.toString().endsWith(".part")));
    }

    @Test
    void significanceMarksTheRealDifferenceOnly() {
        var diffs = new ComparisonReport(comparison(), "bare").differences().stream()
                .filter(d -> d.label().equals("GET /")).toList();
        var bridge = diffs.stream().filter(d -> d.envB().equals("docker-bridge")).findFirst().get();
        var host = diffs.stream().filter(d -> d.envA().equals("bare") && d.envB().equals("docker-host")).findFirst().get();
        assertTrue(bridge.latencySignificant(), "bare vs bridge p=" + bridge.latencyP());
        assertTrue(!host.latencySignificant(), "bare vs host drawn from one distribution, p=" + host.latencyP());
    }

    @Test
    void anUnknownBaselineIsNamed() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ComparisonReport(comparison(), "vm"));
        assertTrue(e.getMessage().startsWith("baseline: 'vm'"), e.getMessage());
    }

    private static int distinctColours(BufferedImage img) {
        Set<Integer> c = new HashSet<>();
        for (int x = 0; x < img.getWidth(); x += 3) {
            for (int y = 0; y < img.getHeight(); y += 3) {
                c.add(img.getRGB(x, y));
            }
        }
        return c.size();
    }
}
