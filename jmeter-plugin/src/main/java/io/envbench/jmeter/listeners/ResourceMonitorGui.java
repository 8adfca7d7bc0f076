package io.envbench.jmeter.listeners;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JFileChooser;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.visualizers.gui.AbstractListenerGui;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartPanel;
import org.jfree.chart.JFreeChart;
import org.jfree.data.time.FixedMillisecond;
import org.jfree.data.time.TimeSeries;
import org.jfree.data.time.TimeSeriesCollection;

import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.metrics.MetricsCollector;

/**
 * GUI of the EnvBench Resource Monitor: interval and metrics file, and live time series of the
 * metrics chosen (CPU, memory, disk, network; host, processes and each container), or of a saved
 * metrics file. Headless runs use the element alone.
 */
public class ResourceMonitorGui extends AbstractListenerGui {
    private static final long serialVersionUID = 1L;
    private static final int MAX_SERIES = 16;

    /** Metric groups the user can show; each a regular expression over the column names. */
    private static final Map<String, String> GROUPS = new java.util.LinkedHashMap<>();

    static {
        GROUPS.put("CPU % (host, processes, containers)", "^(host\\.cpu\\.pct|process\\..*\\.cpu\\.pct|container\\..*\\.cpu\\.pct|target\\.cpu\\.pct)$");
        GROUPS.put("CPU % per core", "^host\\.cpu\\d+\\.pct$");
        GROUPS.put("Memory (bytes)", "^(host\\.mem\\.used\\.bytes|container\\..*\\.mem\\.bytes|process\\..*\\.rss\\.bytes)$");
        GROUPS.put("Disk (bytes/s)", "^(host\\.disk\\..*bytesPerSec|container\\..*\\.blk\\..*)$");
        GROUPS.put("Network (bytes/s)", "^(host\\.net\\..*\\.bytesPerSec|container\\..*\\.net\\..*)$");
        GROUPS.put("Throttling", "^container\\..*\\.cpu\\.throttled\\..*$");
    }

    private final JTextField interval = new JTextField(ResourceMonitor.DEFAULT_INTERVAL, 12);
    private final JTextField filename = new JTextField(ResourceMonitor.DEFAULT_FILENAME, 20);
    private final JComboBox<String> group = new JComboBox<>(GROUPS.keySet().toArray(new String[0]));
    private final TimeSeriesCollection data = new TimeSeriesCollection();
    private final JLabel status = new JLabel(" ");
    private transient MetricsCollector listeningTo;
    private final transient java.util.function.Consumer<MetricsCollector.Tick> onTick = this::addTick;

    public ResourceMonitorGui() {
        setLayout(new BorderLayout());
        setBorder(makeBorder());
        add(makeTitlePanel(), BorderLayout.NORTH);
        JPanel settings = new JPanel(new FlowLayout(FlowLayout.LEFT));
        settings.setBorder(BorderFactory.createTitledBorder("Collector (one per JMeter engine)"));
        interval.setToolTipText("Milliseconds between readings, 100 to 3600000 (default 1000); a bad value stops the test at its start");
        filename.setToolTipText("CSV time series written while the test runs: timestamp, environment, one column per metric. "
                + "A relative name goes next to the -l results file, else into the working directory; empty: no file");
        settings.add(new JLabel("Interval (ms):"));
        settings.add(interval);
        settings.add(new JLabel("Metrics file:"));
        settings.add(filename);
        JPanel view = new JPanel(new FlowLayout(FlowLayout.LEFT));
        group.setToolTipText("Which metrics the chart shows");
        group.addActionListener(e -> data.removeAllSeries());
        JButton open = new JButton("Open metrics file…");
        open.setToolTipText("Show a metrics CSV written by an earlier run");
        open.addActionListener(e -> openFile());
        view.add(new JLabel("Show:"));
        view.add(group);
        view.add(open);
        view.add(status);
        JFreeChart chart = ChartFactory.createTimeSeriesChart(null, "time", "", data, true, true, false);
        ChartPanel panel = new ChartPanel(chart);
        panel.setPreferredSize(new Dimension(600, 360));
        JPanel main = new JPanel(new BorderLayout());
        JPanel top = new JPanel(new BorderLayout());
        top.add(settings, BorderLayout.NORTH);
        top.add(view, BorderLayout.SOUTH);
        main.add(top, BorderLayout.NORTH);
        main.add(panel, BorderLayout.CENTER);
        add(main, BorderLayout.CENTER);
        // attach to the collector when a test starts it in this JVM
        new Timer(1000, e -> attach()).start();
    }

    @Override
    public String getLabelResource() {
        return "envbench_resource_monitor";
    }

    @Override
    public String getStaticLabel() {
        return "EnvBench Resource Monitor";
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
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        interval.setText(((ResourceMonitor) el).getInterval());
        filename.setText(((ResourceMonitor) el).getFilename());
    }

    @Override
    public void clearGui() {
        super.clearGui();
        interval.setText(ResourceMonitor.DEFAULT_INTERVAL);
        filename.setText(ResourceMonitor.DEFAULT_FILENAME);
    }

    private void attach() {
        MetricsCollector c = JMeterEnvBench.collector().orElse(null);
        if (c != listeningTo) {
            if (listeningTo != null) {
                listeningTo.removeListener(onTick);
            }
            if (c != null) {
                data.removeAllSeries();
                c.addListener(onTick);
                status.setText("live, every " + c.interval().toMillis() + " ms" + c.file().map(f -> ", writing " + f).orElse(""));
            }
            listeningTo = c;
        }
    }

    private void addTick(MetricsCollector.Tick t) {
        SwingUtilities.invokeLater(() -> add(t.epochMs(), t.values()));
    }

    private void add(long epochMs, Map<String, Double> values) {
        Pattern p = Pattern.compile(GROUPS.get((String) group.getSelectedItem()));
        values.forEach((name, v) -> {
            if (v == null || v.isNaN() || !p.matcher(name).matches()) {
                return;
            }
            TimeSeries s = data.getSeries(name);
            if (s == null) {
                if (data.getSeriesCount() >= MAX_SERIES) {
                    return;
                }
                s = new TimeSeries(name);
                s.setMaximumItemAge(3_600_000); // an hour of points
                data.addSeries(s);
            }
            s.addOrUpdate(new FixedMillisecond(epochMs), v);
        });
    }

    private void openFile() {
        JFileChooser chooser = new JFileChooser();
        if (chooser.showOpenDialog(this) != JFileChooser.APPROVE_OPTION) {
            return;
        }
        Path file = chooser.getSelectedFile().toPath();
        try (Reader r = Files.newBufferedReader(file);
             CSVParser csv = CSVParser.parse(r, CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build())) {
            List<String> header = csv.getHeaderNames();
            if (header.size() < 3 || !header.get(0).equals("timestamp") || !header.get(1).equals("environment")) {
                throw new IOException(file + " is not an EnvBench metrics file (timestamp,environment,...)");
            }
            data.removeAllSeries();
            for (CSVRecord rec : csv) {
                Map<String, Double> values = new java.util.HashMap<>();
                for (int i = 2; i < header.size() && i < rec.size(); i++) {
                    if (!rec.get(i).isEmpty()) {
                        values.put(header.get(i), Double.parseDouble(rec.get(i)));
                    }
                }
                add(Long.parseLong(rec.get(0)), values);
            }
            status.setText("showing " + file.getFileName());
        } catch (IOException | RuntimeException e) {
            JOptionPane.showMessageDialog(this, e.getMessage(), "Metrics file not read", JOptionPane.ERROR_MESSAGE);
        }
    }
}
