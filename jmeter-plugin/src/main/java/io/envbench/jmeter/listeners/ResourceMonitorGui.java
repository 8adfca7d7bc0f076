package io.envbench.jmeter.listeners;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JFileChooser;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

import io.envbench.jmeter.EnvBenchHelp;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.metrics.MetricsFile;
import org.apache.jmeter.samplers.Clearable;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.visualizers.gui.AbstractListenerGui;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartPanel;
import org.jfree.chart.JFreeChart;
import org.jfree.data.time.TimeSeries;
import org.jfree.data.time.TimeSeriesCollection;

/**
 * GUI of the EnvBench Resource Monitor: interval, metrics file, Prometheus port and InfluxDB URL (kept in the element), and time series of the
 * metrics chosen (CPU, memory, disk, network; host, processes and each container), live or of a saved metrics
 * file. Every metric seen is kept ({@link MetricHistory}), so "Show" switches views over the same data, during a
 * run, after it and for a file; Clear and Clear All drop it. Headless runs use the element alone.
 */
public class ResourceMonitorGui extends AbstractListenerGui implements Clearable {
    private static final long serialVersionUID = 1L;
    /** More lines than this make a chart nobody can read; the status says how many are left out. */
    static final int MAX_SERIES = 16;

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** Metric groups the user can show; each a regular expression over the column names. */
    static final Map<String, Pattern> VIEWS = new LinkedHashMap<>();

    static {
        VIEWS.put(
                "CPU % (host, processes, containers)",
                Pattern.compile(
                        "^(host\\.cpu\\.pct|process\\..*\\.cpu\\.pct|container\\..*\\.cpu\\.pct|target\\.cpu\\.pct)$"));
        VIEWS.put("CPU % per core", Pattern.compile("^host\\.cpu\\d+\\.pct$"));
        VIEWS.put(
                "Memory (bytes)",
                Pattern.compile(
                        "^(host\\.mem\\.used\\.bytes|container\\..*\\.mem\\.bytes|process\\..*\\.rss\\.bytes)$"));
        VIEWS.put("Disk (bytes/s)", Pattern.compile("^(host\\.disk\\..*bytesPerSec|container\\..*\\.blk\\..*)$"));
        VIEWS.put("Network (bytes/s)", Pattern.compile("^(host\\.net\\..*\\.bytesPerSec|container\\..*\\.net\\..*)$"));
        VIEWS.put("Throttling", Pattern.compile("^container\\..*\\.cpu\\.throttled\\..*$"));
    }

    // sized to their defaults (${__P(...)} expressions), so the whole value shows, not its tail
    private final JTextField interval =
            new JTextField(ResourceMonitor.DEFAULT_INTERVAL, ResourceMonitor.DEFAULT_INTERVAL.length() + 2);
    private final JTextField filename =
            new JTextField(ResourceMonitor.DEFAULT_FILENAME, ResourceMonitor.DEFAULT_FILENAME.length() + 2);
    private final JTextField prometheusPort = new JTextField("", 6);
    private final JTextField influxDbUrl = new JTextField("", 24);
    private final JComboBox<String> view = new JComboBox<>(VIEWS.keySet().toArray(new String[0]));
    /** What the chart draws: the series of {@link #history} that match the view. */
    private final TimeSeriesCollection shown = new TimeSeriesCollection();
    /** Confined to the event thread. */
    private final transient MetricHistory history = new MetricHistory();

    private final JLabel status = new JLabel(" ");
    /** Where the data came from, said before the counts in the status: live, a run that ended, a file. */
    private String source = "";

    private transient MetricsCollector listeningTo;
    private final transient Consumer<MetricsCollector.Tick> onTick = this::addTick;

    public ResourceMonitorGui() {
        setLayout(new BorderLayout());
        setBorder(makeBorder());
        JPanel title = new JPanel(new BorderLayout());
        title.add(makeTitlePanel(), BorderLayout.CENTER);
        title.add(EnvBenchHelp.buttonPanel(EnvBenchHelp.Topic.RESOURCE_MONITOR, this), BorderLayout.EAST);
        add(title, BorderLayout.NORTH);
        // one row each that gives its fields the width there is: a FlowLayout wrapped the metrics file's field onto a
        // second row its panel had no height for, so the field was not seen at all
        JPanel settings = new JPanel(new GridBagLayout());
        settings.setBorder(BorderFactory.createTitledBorder("Collector (one per JMeter engine)"));
        interval.setToolTipText(
                "Milliseconds between readings, 100 to 3600000 (default 1000); a bad value stops the test at its start");
        filename.setToolTipText(
                "CSV time series written while the test runs: timestamp, environment, one column per metric. "
                        + "A relative name goes next to the -l results file, else into the working directory; empty: no file");
        interval.setName("interval");
        filename.setName("filename");
        row(settings, "Interval (ms):", interval, 0.4, "Metrics file:", filename, 0.6);
        JPanel publish = new JPanel(new GridBagLayout());
        publish.setBorder(
                BorderFactory.createTitledBorder("Live metrics for Prometheus and InfluxDB (while the test runs)"));
        prometheusPort.setName("prometheusPort");
        prometheusPort.setToolTipText("<html>Serve Prometheus at http://127.0.0.1:PORT/metrics while the test runs"
                + " (1 to 65535, e.g. 9270; 0: none).<br>Empty: the property " + EnvBenchProperties.PROMETHEUS_PORT
                + " decides (unset: none). Loopback only (" + EnvBenchProperties.PROMETHEUS_HOST + ").</html>");
        influxDbUrl.setName("influxDbUrl");
        influxDbUrl.setToolTipText("<html>Write InfluxDB 1.x line protocol to this server while the test runs,"
                + " e.g. http://127.0.0.1:8086<br>(database: " + EnvBenchProperties.INFLUXDB_DB
                + ", default envbench, created if missing). Empty: the property " + EnvBenchProperties.INFLUXDB_URL
                + " decides (unset: none).<br>Another machine's URL needs -J" + EnvBenchProperties.INFLUXDB_ALLOW_REMOTE
                + "=true.</html>");
        row(publish, "Prometheus port:", prometheusPort, 0, "InfluxDB URL:", influxDbUrl, 1);
        JPanel viewBar = new JPanel(new FlowLayout(FlowLayout.LEFT));
        view.setName("show");
        view.setToolTipText("Which metrics the chart shows; every metric is kept, so switching loses nothing");
        view.addActionListener(e -> showView());
        JButton open = new JButton("Open metrics file…");
        open.setToolTipText("Show a metrics CSV written by an earlier run (replaces what is shown)");
        open.addActionListener(e -> chooseFile());
        status.setName("status");
        viewBar.add(new JLabel("Show:"));
        viewBar.add(view);
        viewBar.add(open);
        JFreeChart chart = ChartFactory.createTimeSeriesChart(null, "time", "", shown, true, true, false);
        ChartPanel panel = new ChartPanel(chart);
        panel.setName("chart");
        panel.setPreferredSize(new Dimension(600, 360));
        JPanel main = new JPanel(new BorderLayout());
        JPanel top = new JPanel(new BorderLayout());
        JPanel fields = new JPanel(new BorderLayout());
        fields.add(settings, BorderLayout.NORTH);
        fields.add(publish, BorderLayout.SOUTH);
        top.add(fields, BorderLayout.NORTH);
        top.add(viewBar, BorderLayout.CENTER);
        status.setBorder(BorderFactory.createEmptyBorder(0, 6, 4, 6));
        top.add(status, BorderLayout.SOUTH);
        main.add(top, BorderLayout.NORTH);
        main.add(panel, BorderLayout.CENTER);
        add(main, BorderLayout.CENTER);
        // attach to the collector when a test starts it in this JVM, and notice when it stops
        new Timer(1000, e -> attach(JMeterEnvBench.collector().orElse(null))).start();
    }

    @Override
    public String getLabelResource() {
        return "envbench_resource_monitor";
    }

    @Override
    public String getStaticLabel() {
        return "EnvBench Resource Monitor";
    }

    /** JMeter's menu, its Help item opening EnvBench's bundled page at this element (not Apache's reference). */
    @Override
    public JPopupMenu createPopupMenu() {
        return EnvBenchHelp.popupMenu(super.createPopupMenu(), EnvBenchHelp.Topic.RESOURCE_MONITOR, this);
    }

    @Override
    public String getDocAnchor() {
        return EnvBenchHelp.Topic.RESOURCE_MONITOR.anchor();
    }

    @Override
    public TestElement createTestElement() {
        ResourceMonitor m = new ResourceMonitor();
        modifyTestElement(m);
        return m;
    }

    @Override
    public void modifyTestElement(TestElement el) {
        configureTestElement(el);
        ((ResourceMonitor) el).setInterval(interval.getText());
        ((ResourceMonitor) el).setFilename(filename.getText());
        ((ResourceMonitor) el).setPrometheusPort(prometheusPort.getText().trim());
        ((ResourceMonitor) el).setInfluxDbUrl(influxDbUrl.getText().trim());
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        interval.setText(((ResourceMonitor) el).getInterval());
        filename.setText(((ResourceMonitor) el).getFilename());
        prometheusPort.setText(((ResourceMonitor) el).getPrometheusPort());
        influxDbUrl.setText(((ResourceMonitor) el).getInfluxDbUrl());
    }

    @Override
    public void clearGui() {
        super.clearGui();
        interval.setText(ResourceMonitor.DEFAULT_INTERVAL);
        filename.setText(ResourceMonitor.DEFAULT_FILENAME);
        prometheusPort.setText("");
        influxDbUrl.setText("");
    }

    /** JMeter's Clear and Clear All: drops every series kept; a run still going keeps adding to an empty chart. */
    @Override
    public void clearData() {
        Runnable clear = () -> {
            history.clear();
            source = listeningTo == null ? "" : source;
            showView();
        };
        if (SwingUtilities.isEventDispatchThread()) {
            clear.run();
        } else {
            SwingUtilities.invokeLater(clear);
        }
    }

    /** On the event thread, every second: follows the collector of this JVM; its end is the run's end. */
    void attach(MetricsCollector c) {
        if (c == listeningTo) {
            return;
        }
        if (listeningTo != null) {
            listeningTo.removeListener(onTick);
            source = "run ended at " + LocalTime.now().format(CLOCK);
        }
        if (c != null) {
            c.addListener(onTick);
            source = "live, every " + c.interval().toMillis() + " ms"
                    + c.file().map(f -> ", writing " + f.getFileName()).orElse("");
        }
        listeningTo = c;
        showStatus();
    }

    private void addTick(MetricsCollector.Tick t) {
        SwingUtilities.invokeLater(() -> add(t.epochMs(), t.values()));
    }

    /** On the event thread: one reading into the history, and onto the chart when its view shows it. */
    private void add(long epochMs, Map<String, Double> values) {
        int before = history.metrics();
        history.add(epochMs, values);
        if (history.metrics() != before) {
            showView(); // a new metric: it may belong to the view shown
        } else if (history.readings() % 10 == 1) {
            showStatus();
        }
    }

    /** Puts the series of the chosen view on the chart; the history stays whole. */
    private void showView() {
        Pattern p = VIEWS.get((String) view.getSelectedItem());
        List<TimeSeries> wanted = history.matching(p, MAX_SERIES);
        if (!wanted.equals(shownSeries())) {
            shown.removeAllSeries();
            wanted.forEach(shown::addSeries);
        }
        showStatus();
    }

    private List<TimeSeries> shownSeries() {
        List<TimeSeries> s = new ArrayList<>();
        for (Object o : shown.getSeries()) {
            s.add((TimeSeries) o);
        }
        return s;
    }

    private void showStatus() {
        StringBuilder b = new StringBuilder(source);
        if (history.readings() > 0) {
            b.append(b.length() > 0 ? ", " : "").append(history.readings()).append(" readings");
            long matching = history.countMatching(VIEWS.get((String) view.getSelectedItem()));
            if (matching > MAX_SERIES) {
                b.append(" (")
                        .append(MAX_SERIES)
                        .append(" of ")
                        .append(matching)
                        .append(" series shown)");
            }
        }
        status.setText(b.length() == 0 ? " " : b.toString());
    }

    private void chooseFile() {
        JFileChooser chooser = new JFileChooser();
        if (chooser.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            try {
                openFile(chooser.getSelectedFile().toPath());
            } catch (IOException e) {
                JOptionPane.showMessageDialog(this, e.getMessage(), "Metrics file not read", JOptionPane.ERROR_MESSAGE);
            }
        }
    }

    /** On the event thread: shows a metrics file instead of what was shown (a live run keeps adding to it). */
    void openFile(Path file) throws IOException {
        MetricHistory read = new MetricHistory();
        // series in the order of the columns; a damaged row is refused with its file and line
        MetricsFile.forEachRow(file, row -> read.add(row.epochMs(), row.values()));
        history.replaceWith(read);
        source = "showing " + file.getFileName()
                + read.lastEpochMs().stream()
                        .mapToObj(ms -> " (last reading "
                                + LocalTime.ofInstant(Instant.ofEpochMilli(ms), ZoneId.systemDefault())
                                        .format(CLOCK) + ")")
                        .findFirst()
                        .orElse("");
        showView();
    }

    /** For tests, on the event thread: the metric names on the chart. */
    List<String> shownMetricNames() {
        return shownSeries().stream().map(s -> (String) s.getKey()).toList();
    }

    /** For tests, on the event thread: how many points the chart has of one metric (0 when not shown). */
    int shownPoints(String metric) {
        TimeSeries s = shown.getSeries(metric);
        return s == null ? 0 : s.getItemCount();
    }

    /** For tests, on the event thread: the status line. */
    String statusText() {
        return status.getText();
    }

    /** Two labelled fields in one row of {@code panel}, each field as wide as its share of the width left. */
    private static void row(
            JPanel panel,
            String label1,
            JTextField field1,
            double share1,
            String label2,
            JTextField field2,
            double share2) {
        cell(panel, 0, label1, field1, share1);
        cell(panel, 2, label2, field2, share2);
    }

    private static void cell(JPanel panel, int x, String label, JTextField field, double share) {
        GridBagConstraints c = new GridBagConstraints();
        c.gridy = 0;
        c.insets = new Insets(2, 4, 2, 4);
        c.anchor = GridBagConstraints.LINE_START;
        c.gridx = x;
        JLabel l = new JLabel(label);
        l.setLabelFor(field);
        panel.add(l, c);
        c.gridx = x + 1;
        c.weightx = share;
        c.fill = share > 0 ? GridBagConstraints.HORIZONTAL : GridBagConstraints.NONE;
        panel.add(field, c);
    }
}
