package io.envbench.report.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

import io.envbench.measure.metrics.MetricsCsvWriter;
import io.envbench.report.RunConclusion;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.cpucontrol.CpuAction;
import io.envbench.study.cpucontrol.TimelineCsv;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.experiment.Schedule;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multi-tenant run directory written by the real writers (the timeline by {@link TimelineCsv}, the metrics by
 * {@link MetricsCsvWriter}, a JTL as JMeter writes it): its report draws each run's CPU and throughput with one dashed
 * marker per control action (actions of one step share one; steering re-applied unchanged and notes are not drawn),
 * labelled t1 = tenant-1, and the markers are in the rendered image where the axis puts their time.
 */
class TenantsReportTest {
    static final Path ROOT =
            Path.of(System.getProperty("envbench.root", "..")).toAbsolutePath().normalize();
    static final String JTL_HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                    + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,envbench.env\n";
    static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path temp;

    static CpuAction action(double seconds, String tenant, CpuAction.Kind kind, String what, String why) {
        return new CpuAction(
                Instant.ofEpochMilli(T0 + (long) (seconds * 1000)),
                Duration.ofMillis((long) (seconds * 1000)),
                tenant,
                kind,
                what,
                why);
    }

    /** A dynamic run's timeline as the runner writes it: its own notes, the controller's first step, an unchanged re-steer, a release, the restore. */
    static void writeTimeline(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        try (TimelineCsv t = new TimelineCsv(file)) {
            t.acted(action(0.1, "", CpuAction.Kind.NOTE, "run dynamic-r1", "configuration dynamic"));
            t.acted(action(20, "", CpuAction.Kind.NOTE, "control started: dynamic", "the warm-up has passed"));
            t.acted(action(21.0, "tenant-1", CpuAction.Kind.PIN, "pin 0", "a low tenant"));
            t.acted(action(21.0, "tenant-2", CpuAction.Kind.PIN, "pin 0", "a low tenant"));
            t.acted(action(21.1, "tenant-3", CpuAction.Kind.PIN, "pin 0", "a low tenant"));
            t.acted(action(21.2, "tenant-4", CpuAction.Kind.FLOAT, "float on 1", "a high tenant"));
            t.acted(action(
                    23, "", CpuAction.Kind.STEER_IRQ, "steer IRQ 37 -> CPU 1, IRQ 38 -> CPU 1", "free CPUs 1, step 0"));
            t.acted(action(
                    33, "", CpuAction.Kind.STEER_IRQ, "steer IRQ 37 -> CPU 1, IRQ 38 -> CPU 1", "free CPUs 1, step 1"));
            t.acted(action(36, "tenant-2", CpuAction.Kind.NOTE, "no action", "cpu 40% of its home"));
            t.acted(action(
                    41,
                    "tenant-2",
                    CpuAction.Kind.RELEASE,
                    "release to 0-1",
                    "cpu 97% of its 1 CPU (0) for 3 steps, at least 90%"));
            t.acted(action(55, "tenant-1", CpuAction.Kind.RESTORE, "cpuset back to 0-1", "the cpu controller stopped"));
            t.acted(action(
                    55.01, "tenant-2", CpuAction.Kind.RESTORE, "cpuset back to 0-1", "the cpu controller stopped"));
            t.acted(action(55.5, "", CpuAction.Kind.NOTE, "control stopped", "the load ended"));
        }
    }

    @Test
    void theMarkersOfATimelineAreItsActionsOnePerStep() throws Exception {
        Path file = temp.resolve("timeline/dynamic-r1.csv");
        writeTimeline(file);
        List<ControlMarkers.Marker> markers = ControlMarkers.of(TimelineCsv.read(file), Instant.ofEpochMilli(T0));
        assertEquals(
                List.of("t1,t2,t3 pin 0; t4 float 1", "IRQ→1", "t2 release 0-1", "t1,t2 restore"),
                markers.stream().map(ControlMarkers.Marker::label).toList());
        assertEquals(
                List.of(21.0, 23.0, 41.0, 55.0),
                markers.stream().map(ControlMarkers.Marker::seconds).toList());
        assertTrue(
                markers.get(2).detail().contains("cpu 97% of its 1 CPU (0) for 3 steps"),
                markers.get(2).detail());
        assertEquals(CpuAction.Kind.RELEASE, markers.get(2).kind());
    }

    @Test
    void aLongLabelEndsInAnEllipsis() {
        List<TimelineCsv.Row> rows = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            rows.add(new TimelineCsv.Row(Instant.ofEpochMilli(T0), 0, "tenant-" + i, "pin", "pin " + i, ""));
        }
        String label = ControlMarkers.of(rows, Instant.ofEpochMilli(T0)).get(0).label();
        assertEquals(ControlMarkers.MAX_LABEL_CHARS, label.length());
        assertTrue(label.startsWith("t1 pin 1; t2 pin 2") && label.endsWith("…"), label);
    }

    @Test
    void eachRunsChartsCarryItsControlActions() throws Exception {
        Experiment e = ExperimentFile.parse("""
                name: mt
                target: daytrader
                tenants:
                  cpus: 1
                  count: 4
                  highTenants: 1
                  low: { threads: 1, requestsPerSecond: 10 }
                  high: { threads: 1, requestsPerSecond: 100 }
                configurations:
                  - { name: dynamic, cpuControl: dynamic }
                repetitions: 1
                load:
                  plan: testplans/daytrader.jmx
                  warmupSeconds: 10
                  durationSeconds: 60
                """, ROOT.resolve("mt.yaml"), ROOT.resolve("targets"));
        RunDirectory d = new RunDirectory(temp.resolve("run"));
        d.create();
        PlannedRun run = Schedule.of(e).get(0);
        writeTimeline(d.timeline(run));
        StringBuilder jtl = new StringBuilder(JTL_HEADER);
        try (MetricsCsvWriter m = new MetricsCsvWriter(d.metrics(run))) {
            for (int s = 0; s < 60; s++) {
                m.write(
                        T0 + s * 1000L,
                        "tenant-1,tenant-2,tenant-3,tenant-4",
                        Map.of(
                                "host.cpu.pct",
                                80.0,
                                "host.cpu0.pct",
                                80.0,
                                "host.cpu1.pct",
                                80.0,
                                "container.tenant-1.cpu.pct",
                                20.0,
                                "container.tenant-2.cpu.pct",
                                s < 41 ? 30.0 : 60.0,
                                "container.tenant-3.cpu.pct",
                                20.0,
                                "container.tenant-4.cpu.pct",
                                50.0));
                if (s >= 5) {
                    for (int t = 1; t <= 4; t++) {
                        jtl.append(T0 + s * 1000L + 10 * t)
                                .append(",5,home,200,OK,tenant-")
                                .append(t)
                                .append(" 1-1,text,true,,100,10,1,1,")
                                .append("http://x,1,0,0,tenant-")
                                .append(t)
                                .append('\n');
                    }
                }
            }
        }
        Files.writeString(d.jtl(run), jtl);
        RunRecord rec = new RunRecord(
                run,
                Instant.ofEpochMilli(T0),
                Instant.ofEpochMilli(T0 + 60_000),
                RunRecord.OK,
                220,
                100,
                Instant.ofEpochMilli(T0 + 5000));
        TenantsReport report = TenantsReport.read(d, e, List.of(rec));
        Map<String, JFreeChart> charts = report.charts();
        assertEquals(
                List.of(
                        "tenants-throughput",
                        "tenants-mean",
                        "tenants-cpu-dynamic-r1",
                        "tenants-throughput-dynamic-r1"),
                List.copyOf(charts.keySet()));
        for (String name : List.of("tenants-cpu-dynamic-r1", "tenants-throughput-dynamic-r1")) {
            XYPlot plot = charts.get(name).getXYPlot();
            List<ValueMarker> actions = valueMarkers(plot.getDomainMarkers(Layer.FOREGROUND));
            assertEquals(
                    List.of("t1,t2,t3 pin 0; t4 float 1", "IRQ→1", "t2 release 0-1", "t1,t2 restore"),
                    actions.stream().map(Marker::getLabel).toList(),
                    name);
            assertEquals(
                    List.of(21.0, 23.0, 41.0, 55.0),
                    actions.stream().map(ValueMarker::getValue).toList(),
                    name);
            // the warm-up shaded: from the run's start to its first sample + 10 s
            IntervalMarker warmup = (IntervalMarker)
                    plot.getDomainMarkers(Layer.BACKGROUND).iterator().next();
            assertEquals(15.0, warmup.getEndValue(), 1e-9);
            // drawn: the marker's colour down the data area where the axis puts each action
            ChartRenderingInfo info = new ChartRenderingInfo();
            BufferedImage img = charts.get(name).createBufferedImage(900, 500, info);
            Rectangle2D area = info.getPlotInfo().getDataArea();
            for (ValueMarker m : actions) {
                int x = (int)
                        Math.round(plot.getDomainAxis().valueToJava2D(m.getValue(), area, plot.getDomainAxisEdge()));
                int dark = 0;
                for (int y = (int) area.getMinY(); y < area.getMaxY(); y++) {
                    for (int dx = -2; dx <= 2; dx++) {
                        if (nearMarkerColour(img.getRGB(x + dx, y))) {
                            dark++;
                            break;
                        }
                    }
                }
                System.out.printf(
                        "%s: marker '%s' at %.0f s, x=%d px: %d of %.0f px in its colour%n",
                        name, m.getLabel(), m.getValue(), x, dark, area.getHeight());
                assertTrue(
                        dark > area.getHeight() / 4,
                        name + ": marker '" + m.getLabel() + "' at x " + x + " is not drawn: " + dark + " px");
            }
            Path png = temp.resolve(name + ".png");
            ImageIO.write(img, "png", png.toFile());
        }
        List<Path> written = report.write(d.report());
        assertTrue(written.contains(d.report().resolve("charts/tenants-cpu-dynamic-r1.png")), written.toString());
        assertTrue(written.contains(d.report().resolve("tenants.md")), written.toString());
        Path samples = ROOT.resolve("envbench-report/target/chart-samples");
        Files.createDirectories(samples);
        Files.copy(
                d.report().resolve("charts/tenants-cpu-dynamic-r1.png"),
                samples.resolve("tenants-cpu-dynamic-r1.png"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The report of a concluded run directory takes the tenants table the conclusion read along with the other figures
     * (no second reading of the JTLs), and it says what a report read on its own says.
     */
    @Test
    void aConcludedDirectorysReportIsTheOneReadOnItsOwn() throws Exception {
        Experiment e = ExperimentFile.parse("""
                name: mt
                target: daytrader
                tenants:
                  cpus: 1
                  count: 2
                  highTenants: 1
                  low: { threads: 1, requestsPerSecond: 10 }
                  high: { threads: 1, requestsPerSecond: 100 }
                configurations:
                  - { name: none, cpuControl: none }
                  - { name: dynamic, cpuControl: dynamic }
                repetitions: 2
                load:
                  plan: testplans/daytrader.jmx
                  warmupSeconds: 10
                  durationSeconds: 60
                """, ROOT.resolve("mt.yaml"), ROOT.resolve("targets"));
        RunDirectory d = new RunDirectory(temp.resolve("run"));
        d.create();
        int n = 0;
        for (PlannedRun run : Schedule.of(e)) {
            n++;
            long t0 = T0 + n * 100_000L;
            StringBuilder jtl = new StringBuilder(JTL_HEADER);
            try (MetricsCsvWriter m = new MetricsCsvWriter(d.metrics(run))) {
                for (int s = 0; s < 60; s++) {
                    m.write(
                            t0 + s * 1000L,
                            "tenant-1,tenant-2",
                            Map.of(
                                    "host.cpu.pct",
                                    50.0 + n,
                                    "container.tenant-1.cpu.pct",
                                    20.0 + n + s % 3,
                                    "container.tenant-2.cpu.pct",
                                    40.0 - n));
                    for (int t = 1; t <= 2; t++) {
                        jtl.append(t0 + s * 1000L + 10 * t)
                                .append(',')
                                .append(5 + (s * t + n) % 7)
                                .append(",home,200,OK,tenant-")
                                .append(t)
                                .append(" 1-1,text,")
                                .append(s % 11 != n)
                                .append(",,100,10,1,1,http://x,1,0,0,tenant-")
                                .append(t)
                                .append('\n');
                    }
                }
            }
            Files.writeString(d.jtl(run), jtl);
            d.runs()
                    .append(new RunRecord(
                            run,
                            Instant.ofEpochMilli(t0),
                            Instant.ofEpochMilli(t0 + 60_000),
                            RunRecord.OK,
                            120,
                            100,
                            Instant.ofEpochMilli(t0 + 10)));
        }
        RunConclusion c = RunConclusion.of(d, e, d.runs().read(), true, false);
        TenantsReport concluded = TenantsReport.of(c);
        TenantsReport alone = TenantsReport.read(d, e, d.runs().read());
        assertSame(c.results().tenants().orElseThrow(), concluded.results(), "the conclusion's reading, not another");
        assertTrue(alone.hasFigures());
        assertEquals(alone.results().text(), concluded.results().text());
        assertEquals(alone.results().markdown(), concluded.results().markdown());
        Path a = temp.resolve("alone.csv");
        Path b = temp.resolve("concluded.csv");
        alone.results().writeCsv(a);
        concluded.results().writeCsv(b);
        assertEquals(Files.readString(a), Files.readString(b));
        assertEquals(alone.charts().keySet(), concluded.charts().keySet());
    }

    private static List<ValueMarker> valueMarkers(Collection<?> markers) {
        List<ValueMarker> out = new ArrayList<>();
        for (Object o : markers) {
            if (o instanceof ValueMarker v) {
                out.add(v);
            }
        }
        return out;
    }

    /** The marker's grey, or it blended half into the white (a line between two pixels, antialiased); the tenants' lines are coloured. */
    private static boolean nearMarkerColour(int rgb) {
        Color c = new Color(rgb);
        int max = Math.max(c.getRed(), Math.max(c.getGreen(), c.getBlue()));
        int min = Math.min(c.getRed(), Math.min(c.getGreen(), c.getBlue()));
        return max - min < 16 && max <= (ControlMarkers.COLOUR.getRed() + 255) / 2 + 8;
    }
}
