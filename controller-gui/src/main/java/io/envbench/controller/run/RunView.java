package io.envbench.controller.run;

import java.awt.BorderLayout;
import java.awt.Font;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JProgressBar;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.JTable;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import javax.swing.table.DefaultTableModel;

import io.envbench.controller.keyboard.TabLeaves;
import io.envbench.report.ChartStyle;
import io.envbench.report.EnvironmentPalette;
import io.envbench.report.RunConclusion;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartPanel;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The run view: a progress bar (run, environment, repetition, time left), the live throughput, 90% line and CPU
 * of each environment, the current run's throughput over time, the runner's log, and Cancel. It reads the
 * execution's {@link LiveBoard} on a timer, so the event thread does a few table cells and chart points per tick
 * however fast samples arrive.
 */
public final class RunView extends JPanel {
    /** How often the view reads the board. */
    public static final Duration REFRESH = Duration.ofMillis(500);

    private static final int MAX_LOG_CHARS = 200_000;
    private static final String[] COLUMNS = {
        "environment", "runs done", "throughput /s", "90% line ms", "errors %", "target CPU %", "host CPU %"
    };
    /** A multi-tenant run's rows: its tenants, each with its container's CPU. */
    private static final String[] TENANT_COLUMNS = {
        "tenant", "runs done", "throughput /s", "90% line ms", "errors %", "tenant CPU %", "host CPU %"
    };

    private final JLabel title = new JLabel("No run yet: build an experiment, then Run (Ctrl+R)");
    private final JProgressBar progress = new JProgressBar();
    private final DefaultTableModel figures = new DefaultTableModel(COLUMNS, 0) {
        @Override
        public boolean isCellEditable(int row, int column) {
            return false;
        }
    };
    private final JTextArea log = new JTextArea();
    private final JButton cancel = new JButton("Cancel");
    private final XYSeriesCollection throughput = new XYSeriesCollection();
    private final JFreeChart chart;
    private final Timer refresh = new Timer((int) REFRESH.toMillis(), e -> refresh());
    private ExperimentExecution execution;
    private Consumer<RunConclusion> onFinished = c -> {};

    public RunView() {
        super(new BorderLayout());
        setName("run.view");
        JPanel top = new JPanel(new BorderLayout(8, 4));
        top.setBorder(BorderFactory.createEmptyBorder(8, 8, 8, 8));
        title.setFont(title.getFont().deriveFont(Font.BOLD));
        title.setName("run.title");
        top.add(title, BorderLayout.NORTH);
        progress.setName("run.progress");
        progress.setStringPainted(true);
        progress.setString("");
        top.add(progress);
        cancel.setName("run.cancel");
        cancel.setMnemonic('C');
        cancel.setEnabled(false);
        cancel.setToolTipText(
                "stop the load and the environment now; what was recorded is kept and the report marked partial");
        cancel.addActionListener(e -> {
            if (execution != null) {
                cancel.setEnabled(false);
                execution.cancel();
            }
        });
        top.add(cancel, BorderLayout.EAST);
        add(top, BorderLayout.NORTH);

        JTable table = TabLeaves.of(new JTable(figures));
        table.setName("run.figures");
        table.setFillsViewportHeight(true);
        chart = ChartFactory.createXYLineChart(
                "Throughput of each environment's current run — higher is better",
                "seconds since the run's first sample",
                "samples/s",
                throughput,
                PlotOrientation.VERTICAL,
                true,
                true,
                false);
        ChartStyle.flat(chart);
        NumberAxis seconds = (NumberAxis) chart.getXYPlot().getDomainAxis();
        seconds.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        ((NumberAxis) chart.getXYPlot().getRangeAxis()).setAutoRangeMinimumSize(10);
        ChartPanel chartPanel = new ChartPanel(chart);
        chartPanel.setName("run.chart");
        JSplitPane liveSplit = new JSplitPane(JSplitPane.VERTICAL_SPLIT, new JScrollPane(table), chartPanel);
        liveSplit.setResizeWeight(0.3);
        log.setName("run.log");
        log.setEditable(false);
        log.setFont(new Font(Font.MONOSPACED, Font.PLAIN, log.getFont().getSize()));
        JSplitPane split = new JSplitPane(JSplitPane.VERTICAL_SPLIT, liveSplit, new JScrollPane(log));
        split.setResizeWeight(0.75);
        add(split);
    }

    /** Told on the event thread when a run has concluded (or failed: then with null). */
    public void onFinished(Consumer<RunConclusion> l) {
        onFinished = l;
    }

    public boolean running() {
        return execution != null && !execution.conclusion().isDone();
    }

    /** Shows an execution (already started) until it concludes. */
    public void show(ExperimentExecution e) {
        execution = e;
        boolean tenants = e.board().tenants();
        title.setText("Running " + e.experiment().name() + " — "
                + e.experiment()
                        .tenancy()
                        .map(t -> count(t.tenants().size(), "tenant") + " under "
                                + count(t.configurations().size(), "configuration"))
                        .orElse(count(e.experiment().environmentNames().size(), "environment"))
                + " x "
                + (e.experiment().repetitions().isAuto()
                        ? e.experiment().repetitions().describe() + " repetitions"
                        : count(e.experiment().repetitions().max(), "repetition"))
                + ", "
                + e.experiment().order().yamlName() + " — "
                + e.directory().root());
        figures.setColumnIdentifiers(tenants ? TENANT_COLUMNS : COLUMNS);
        chart.setTitle(
                tenants
                        ? "Throughput of each tenant in the current run — higher is better"
                        : "Throughput of each environment's current run — higher is better");
        figures.setRowCount(0);
        throughput.removeAllSeries();
        List<String> envs = e.board().environmentNames();
        EnvironmentPalette palette = EnvironmentPalette.of(envs);
        XYPlot plot = chart.getXYPlot();
        for (int i = 0; i < envs.size(); i++) {
            throughput.addSeries(new XYSeries(envs.get(i), true, false));
            plot.getRenderer().setSeriesPaint(i, palette.colour(envs.get(i)));
            plot.getRenderer().setSeriesStroke(i, ChartStyle.SOLID);
            figures.addRow(new Object[] {envs.get(i), 0, "", "", "", "", ""});
        }
        log.setText("");
        cancel.setEnabled(true);
        progress.setIndeterminate(true);
        progress.setString("starting");
        refresh.start();
        e.conclusion().whenComplete((c, ex) -> SwingUtilities.invokeLater(() -> finished(c, ex)));
    }

    private void finished(RunConclusion c, Throwable ex) {
        refresh();
        refresh.stop();
        cancel.setEnabled(false);
        progress.setIndeterminate(false);
        if (ex != null) {
            progress.setString("could not run: " + ex.getMessage());
            append(List.of("could not run: " + ex));
            onFinished.accept(null);
            return;
        }
        progress.setValue(progress.getMaximum());
        progress.setString(
                (c.cancelled() ? "cancelled" : c.passed() ? "passed" : c.complete() ? "criteria failed" : "partial")
                        + " — " + (c.results().plannedRuns() - c.missingRuns()) + " of "
                        + c.results().plannedRuns() + " runs ok");
        onFinished.accept(c);
    }

    private void refresh() {
        if (execution == null) {
            return;
        }
        LiveBoard.Snapshot s = execution.board().snapshot();
        if (s.runIndex() > 0) {
            progress.setIndeterminate(false);
            progress.setMaximum(s.runs());
            progress.setValue(s.runIndex() - 1);
            progress.setString(
                    s.running() == null
                            ? "run " + s.runIndex() + " of " + s.runs() + " ended"
                            : String.format(
                                    Locale.ROOT,
                                    "run %d of %d: %s #%d — about %s left",
                                    s.runIndex(),
                                    s.runs(),
                                    s.running().environment(),
                                    s.running().repetition(),
                                    minutesSeconds(s.timeLeft())));
        }
        for (int r = 0; r < s.environments().size(); r++) {
            LiveBoard.EnvironmentFigures f = s.environments().get(r);
            figures.setValueAt(f.runsDone(), r, 1);
            figures.setValueAt(number(f.throughputPerSec(), "%.0f"), r, 2);
            figures.setValueAt(number(f.p90Ms(), "%.0f"), r, 3);
            figures.setValueAt(number(f.errorPct(), "%.2f"), r, 4);
            figures.setValueAt(number(f.targetCpuPct(), "%.0f"), r, 5);
            figures.setValueAt(number(f.hostCpuPct(), "%.0f"), r, 6);
        }
        int i = 0;
        double lastSecond = 0;
        for (Map.Entry<String, List<double[]>> e : s.throughputSeries().entrySet()) {
            XYSeries series = throughput.getSeries(i++);
            List<double[]> points = e.getValue();
            if (points.size() < series.getItemCount()) {
                series.clear(); // a new run of this environment began
            }
            series.setNotify(false);
            for (double[] p : points) {
                series.addOrUpdate(p[0], p[1]);
                lastSecond = Math.max(lastSecond, p[0]);
            }
            series.setNotify(true);
        }
        // from the run's first second, at least 10 s wide, so a short or empty run still reads
        ((NumberAxis) chart.getXYPlot().getDomainAxis()).setRange(0, Math.max(10, lastSecond + 1));
        append(s.newLogLines());
    }

    private void append(List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        log.append(String.join("\n", lines) + "\n");
        if (log.getDocument().getLength() > MAX_LOG_CHARS) {
            log.replaceRange("", 0, log.getDocument().getLength() - MAX_LOG_CHARS / 2);
        }
        log.setCaretPosition(log.getDocument().getLength());
    }

    private static String number(double v, String format) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v);
    }

    /** {@code 1 tenant}, {@code 2 tenants}. */
    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String minutesSeconds(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s / 60 + ":" + String.format(Locale.ROOT, "%02d", s % 60);
    }
}
