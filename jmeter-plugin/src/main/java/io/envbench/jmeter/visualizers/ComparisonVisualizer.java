package io.envbench.jmeter.visualizers;

import java.awt.BorderLayout;
import java.awt.FlowLayout;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.swing.JButton;
import javax.swing.JFileChooser;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTabbedPane;
import javax.swing.JTable;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import javax.swing.filechooser.FileNameExtensionFilter;
import javax.swing.table.DefaultTableModel;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.visualizers.gui.AbstractVisualizer;
import org.jfree.chart.ChartPanel;
import org.jfree.chart.JFreeChart;

import io.envbench.report.ComparisonCharts;
import io.envbench.report.ComparisonReport;
import io.envbench.stats.Comparison;
import io.envbench.results.JtlReader;
import io.envbench.results.Sample;
import io.envbench.jmeter.EnvBenchProperties;

/**
 * EnvBench Comparison listener: the side-by-side table and charts of environments, from result files
 * (Add result files…) or live from the running test (each sample counted under the environment
 * running when it arrived), with export of the whole report (HTML, CSV, Markdown, PNG/SVG/PDF charts).
 */
public class ComparisonVisualizer extends AbstractVisualizer {
    private static final long serialVersionUID = 1L;

    private transient Comparison comparison = new Comparison();
    private final DefaultTableModel model = new DefaultTableModel(ComparisonReport.TABLE_HEAD, 0) {
        @Override
        public boolean isCellEditable(int row, int column) {
            return false;
        }
    };
    private final JTabbedPane charts = new JTabbedPane(JTabbedPane.TOP, JTabbedPane.SCROLL_TAB_LAYOUT);
    /** Keeps the listener as wide as JMeter's panel, not as wide as a chart or the table. */
    private static final java.awt.Dimension VIEW = new java.awt.Dimension(600, 380);
    private final JLabel status = new JLabel("Add result files, or run a test with EnvBench environments.");
    private volatile boolean dirty;

    public ComparisonVisualizer() {
        setLayout(new BorderLayout());
        add(makeTitlePanel(), BorderLayout.NORTH);
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.LEFT));
        JButton addFiles = new JButton("Add result files…");
        addFiles.setToolTipText("CSV JTLs; each file is one run, split by its envbench.env column");
        addFiles.addActionListener(e -> chooseFiles());
        JButton export = new JButton("Export report…");
        export.setToolTipText("Writes index.html, comparison.csv, comparison.md and every chart as PNG, SVG and PDF into a folder");
        export.addActionListener(e -> exportReport());
        buttons.add(addFiles);
        buttons.add(export);
        buttons.add(status);
        JTabbedPane tabs = new JTabbedPane();
        JTable table = new JTable(model);
        table.setAutoResizeMode(JTable.AUTO_RESIZE_OFF);
        table.setAutoCreateRowSorter(true);
        JScrollPane tableScroll = new JScrollPane(table);
        tableScroll.setPreferredSize(VIEW);
        tabs.addTab("Table", tableScroll);
        tabs.addTab("Charts", charts);
        JPanel main = new JPanel(new BorderLayout());
        main.add(buttons, BorderLayout.NORTH);
        main.add(tabs, BorderLayout.CENTER);
        add(main, BorderLayout.CENTER);
        new Timer(1000, e -> refreshIfDirty()).start();
    }

    @Override
    public String getLabelResource() {
        return "envbench_comparison"; // not in JMeter's bundle: getStaticLabel gives the name
    }

    @Override
    public String getStaticLabel() {
        return "EnvBench Comparison";
    }

    /** Live samples: counted under the environment of the sample's thread (variable envbench.env). */
    @Override
    public void add(SampleResult r) {
        // the environment the sample's own thread measured (its Environment Tag), not a JVM-wide guess
        var vars = org.apache.jmeter.threads.JMeterContextService.getContext().getVariables();
        String env = vars == null || vars.get(EnvBenchProperties.ENV_VARIABLE) == null ? "" : vars.get(EnvBenchProperties.ENV_VARIABLE);
        synchronized (this) {
            comparison.add(new Sample(env.isEmpty() ? "none" : env, r.getSampleLabel(), r.getStartTime(), r.getTime(),
                    r.isSuccessful(), r.getBytesAsLong(), r.getSentBytes()), "live");
        }
        dirty = true;
    }

    @Override
    public synchronized void clearData() {
        comparison = new Comparison();
        model.setRowCount(0);
        charts.removeAll();
    }

    private void chooseFiles() {
        JFileChooser chooser = new JFileChooser();
        chooser.setMultiSelectionEnabled(true);
        chooser.setFileFilter(new FileNameExtensionFilter("JMeter CSV results (*.jtl, *.csv)", "jtl", "csv"));
        if (chooser.showOpenDialog(this) != JFileChooser.APPROVE_OPTION) {
            return;
        }
        File[] files = chooser.getSelectedFiles();
        status.setText("Reading " + files.length + " file(s)…");
        // large JTLs take seconds: read them off the event thread
        new Thread(() -> {
            List<String> problems = new ArrayList<>();
            for (File f : files) {
                String run = f.getName().replaceFirst("\\.(jtl|csv)$", "");
                try {
                    synchronized (this) {
                        JtlReader.read(f.toPath(), s -> comparison.add(s, run));
                    }
                } catch (IOException e) {
                    problems.add(e.getMessage());
                }
            }
            dirty = true;
            refreshIfDirty();
            if (!problems.isEmpty()) {
                SwingUtilities.invokeLater(() -> JOptionPane.showMessageDialog(this, String.join("\n", problems),
                        "Some files were not read", JOptionPane.WARNING_MESSAGE));
            }
        }, "envbench-read-results").start();
    }

    private void exportReport() {
        JFileChooser chooser = new JFileChooser();
        chooser.setFileSelectionMode(JFileChooser.DIRECTORIES_ONLY);
        chooser.setDialogTitle("Folder for the report");
        if (chooser.showSaveDialog(this) != JFileChooser.APPROVE_OPTION) {
            return;
        }
        Path dir = chooser.getSelectedFile().toPath();
        try {
            synchronized (this) {
                new ComparisonReport(comparison, null).write(dir);
            }
            status.setText("Report written: " + dir.resolve("index.html"));
        } catch (IOException | RuntimeException e) {
            JOptionPane.showMessageDialog(this, e.getMessage(), "Report not written", JOptionPane.ERROR_MESSAGE);
        }
    }

    private void refreshIfDirty() {
        if (!dirty) {
            return;
        }
        dirty = false;
        List<String[]> rows;
        Map<String, JFreeChart> all;
        synchronized (this) {
            if (comparison.environments().isEmpty()) {
                return;
            }
            ComparisonReport report = new ComparisonReport(comparison, null);
            rows = report.tableRows();
            all = new ComparisonCharts(comparison, report.baseline()).all();
        }
        SwingUtilities.invokeLater(() -> {
            model.setRowCount(0);
            rows.forEach(model::addRow);
            int selected = Math.max(0, charts.getSelectedIndex());
            charts.removeAll();
            all.forEach((name, chart) -> {
                ChartPanel panel = new ChartPanel(chart);
                panel.setPreferredSize(VIEW);
                charts.addTab(name, panel);
            });
            if (selected < charts.getTabCount()) {
                charts.setSelectedIndex(selected);
            }
            status.setText(comparison.environments().size() + " environment(s): " + String.join(", ", comparison.environments()));
        });
    }
}
