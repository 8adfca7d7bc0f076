package io.envbench.report.tenants;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.report.ChartStyle;
import io.envbench.study.cpucontrol.CpuAction;
import io.envbench.study.cpucontrol.TimelineCsv;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;

/**
 * A run's CPU-control actions (its {@code timeline/RUN.csv}, read with {@link TimelineCsv#read}) as vertical markers over
 * a chart of the run's metrics, so a reader sees which action came before which change. Every row that is an action
 * (pin, release, float, IRQ and RPS steering, restore) is one; the run's own events and the controller's "no action"
 * notes ({@code note} rows) are not; steering re-applied unchanged (every step) is drawn once. Actions within
 * {@link #SAME_MOMENT_SECONDS} of each other (a controller step acts on several tenants at once) share one marker,
 * labelled e.g. {@code t1,t2,t3 pin 0; t4 float 1}. Stateless.
 */
public final class ControlMarkers {
    /** Actions closer than this share a marker: one controller step. */
    public static final double SAME_MOMENT_SECONDS = 0.5;
    /** A longer label ends in "…" (the full text is the marker's {@link Marker#detail()}). */
    public static final int MAX_LABEL_CHARS = 32;
    /** Labels step down over this many lines, so neighbouring markers' labels do not print over each other. */
    static final int LABEL_LINES = 4;

    private static final Pattern TENANT = Pattern.compile("tenant-(\\d+)");
    private static final Pattern TO_CPU = Pattern.compile("-> CPU (\\d+(?:[-,]\\d+)*)");

    private ControlMarkers() {}

    /**
     * One marker: the time on the chart's axis and what it says.
     *
     * @param seconds since the chart's zero
     * @param label   short, drawn beside the line, e.g. {@code t2 release 0-1}
     * @param detail  every action of the marker in full (time, tenant, action, reason), one per line
     * @param kind    the kind of its first action
     */
    public record Marker(double seconds, String label, String detail, CpuAction.Kind kind) {}

    /**
     * The markers of a timeline, in time order.
     *
     * @param zero the instant the chart's time axis counts its seconds from (a run's start)
     */
    public static List<Marker> of(List<TimelineCsv.Row> rows, Instant zero) {
        List<TimelineCsv.Row> actions = new ArrayList<>();
        Map<String, String> lastSteer =
                new LinkedHashMap<>(); // kind -> its last action: steering re-applied unchanged is no news
        for (TimelineCsv.Row r : rows.stream()
                .sorted(Comparator.comparing(TimelineCsv.Row::time))
                .toList()) {
            CpuAction.Kind kind = kind(r);
            if (kind == null || kind == CpuAction.Kind.NOTE) {
                continue;
            }
            if (kind == CpuAction.Kind.STEER_IRQ || kind == CpuAction.Kind.STEER_RPS) {
                if (r.action().equals(lastSteer.put(r.kind(), r.action()))) {
                    continue;
                }
            }
            actions.add(r);
        }
        List<Marker> markers = new ArrayList<>();
        List<TimelineCsv.Row> group = new ArrayList<>();
        for (TimelineCsv.Row r : actions) {
            if (!group.isEmpty() && seconds(r, zero) - seconds(group.get(0), zero) > SAME_MOMENT_SECONDS) {
                markers.add(marker(group, zero));
                group.clear();
            }
            group.add(r);
        }
        if (!group.isEmpty()) {
            markers.add(marker(group, zero));
        }
        return markers;
    }

    /**
     * Draws the markers on a plot (in the foreground, dashed, in {@link #COLOUR}), their labels at the top, stepping down
     * over {@link #LABEL_LINES} lines.
     */
    public static void draw(XYPlot plot, List<Marker> markers) {
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, ChartStyle.TICK_FONT_PX - 4);
        for (int i = 0; i < markers.size(); i++) {
            Marker m = markers.get(i);
            ValueMarker v = new ValueMarker(
                    m.seconds(),
                    COLOUR,
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f));
            v.setLabel(m.label());
            v.setLabelFont(font);
            v.setLabelPaint(COLOUR);
            v.setLabelBackgroundColor(LABEL_BACKGROUND);
            v.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            v.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            v.setLabelOffset(new RectangleInsets(4 + (i % LABEL_LINES) * (font.getSize() + 4), 3, 0, 0));
            plot.addDomainMarker(v, Layer.FOREGROUND);
        }
    }

    /** A short label of one action: {@code t2 pin 1}, {@code t4 release 0-1}, {@code t3 float 1}, {@code IRQ→1}, {@code RPS→1}, {@code t1 restore}. */
    static String shortLabel(TimelineCsv.Row r) {
        String what = shortAction(r);
        String who = shortTenant(r.tenant());
        return who.isEmpty() ? what : who + " " + what;
    }

    private static String shortAction(TimelineCsv.Row r) {
        CpuAction.Kind kind = kind(r);
        String a = r.action().strip();
        if (kind == null) {
            return a;
        }
        return switch (kind) {
            case PIN -> a;
            case RELEASE -> a.replaceFirst("^release to ", "release ");
            case FLOAT -> a.replaceFirst("^float on ", "float ");
            case STEER_IRQ -> "IRQ→" + targets(a);
            case STEER_RPS -> "RPS→" + targets(a);
            case RESTORE -> "restore";
            case NOTE -> a;
        };
    }

    /** {@code tenant-2} as {@code t2}; the host (empty) as nothing. */
    static String shortTenant(String tenant) {
        Matcher m = TENANT.matcher(tenant == null ? "" : tenant);
        return m.matches() ? "t" + m.group(1) : tenant == null ? "" : tenant;
    }

    /** The CPUs an IRQ or RPS action points at, e.g. {@code 1} or {@code 0,1}. */
    private static String targets(String action) {
        TreeSet<String> cpus = new TreeSet<>();
        Matcher m = TO_CPU.matcher(action);
        while (m.find()) {
            cpus.add(m.group(1));
        }
        return cpus.isEmpty() ? "?" : String.join(",", cpus);
    }

    private static Marker marker(List<TimelineCsv.Row> group, Instant zero) {
        // same action of several tenants at once: one part, its tenants joined (t1,t2,t3 pin 0)
        Map<String, List<String>> byAction = new LinkedHashMap<>();
        for (TimelineCsv.Row r : group) {
            String who = shortTenant(r.tenant());
            List<String> tenants = byAction.computeIfAbsent(shortAction(r), k -> new ArrayList<>());
            if (!who.isEmpty()) {
                tenants.add(who);
            }
        }
        List<String> parts = new ArrayList<>();
        byAction.forEach(
                (action, tenants) -> parts.add(tenants.isEmpty() ? action : String.join(",", tenants) + " " + action));
        String label = String.join("; ", parts);
        if (label.length() > MAX_LABEL_CHARS) {
            label = label.substring(0, MAX_LABEL_CHARS - 1) + "…";
        }
        StringBuilder detail = new StringBuilder();
        for (TimelineCsv.Row r : group) {
            detail.append(String.format(
                    Locale.ROOT,
                    "%.1f s %s%s: %s%n",
                    seconds(r, zero),
                    r.tenant().isEmpty() ? "" : r.tenant() + " ",
                    r.action(),
                    r.reason()));
        }
        return new Marker(seconds(group.get(0), zero), label, detail.toString().strip(), kind(group.get(0)));
    }

    private static double seconds(TimelineCsv.Row r, Instant zero) {
        return Duration.between(zero, r.time()).toNanos() / 1e9;
    }

    /** The row's kind, or null for a kind this build does not know (a newer file): not drawn. */
    private static CpuAction.Kind kind(TimelineCsv.Row r) {
        try {
            return CpuAction.Kind.valueOf(r.kind().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** One colour for every action, none of the tenants' (Okabe-Ito, {@link io.envbench.report.EnvironmentPalette}): the label says which. */
    public static final Color COLOUR = new Color(0x444444);
    /** Behind a marker's label: the lines under it still show. */
    static final Color LABEL_BACKGROUND = new Color(255, 255, 255, 200);
}
