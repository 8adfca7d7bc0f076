package io.envbench.controller.results;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import javax.swing.BorderFactory;
import javax.swing.DefaultListModel;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JFileChooser;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JProgressBar;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.JTabbedPane;
import javax.swing.JTextArea;
import javax.swing.ListSelectionModel;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

import io.envbench.controller.keyboard.TabLeaves;
import io.envbench.measure.results.ResultFiles;
import io.envbench.report.ChartFormat;
import io.envbench.report.ComparisonReport;
import io.envbench.report.RunConclusion;
import io.envbench.report.command.CommandReport;
import io.envbench.report.header.RunHeader;
import io.envbench.report.table.ComparisonTable;
import io.envbench.report.tenants.TenantsReport;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.TenantResults;
import io.envbench.study.experiment.ExperimentException;
import org.jfree.chart.ChartPanel;
import org.jfree.chart.JFreeChart;

/**
 * The results view: past run directories to reopen, the comparison of one (across runs with intervals and
 * verdicts, JMeter's per-sample figures, resources, notes and hints), its charts, and the export of charts
 * (PNG, SVG, PDF) and of the report; two run directories side by side.
 */
public final class ResultsView extends JPanel {
    private final Path resultsDir;
    private final Path targets;
    private final DefaultListModel<RunDirectoryEntry> history = new DefaultListModel<>();
    private final JList<RunDirectoryEntry> historyList = new JList<>(history);
    private final JLabel heading = new JLabel("No results yet: run an experiment, or open a run directory");
    /** Shown while a run directory is read (its JTLs take seconds): what is read and for how long so far. */
    private final JProgressBar reading = new JProgressBar();

    private final Timer readingClock = new Timer(500, e -> tickReading());
    private String readingWhat = "";
    private long readingSince;
    private final ComparisonTable acrossRuns = table("results.acrossRuns", ComparisonReport.RUN_HEAD);
    private final ComparisonTable samples = table("results.samples", ComparisonReport.TABLE_HEAD);
    private final ComparisonTable resources = table("results.resources", ComparisonReport.METRICS_HEAD);
    private final ComparisonTable noiseFloor = table("results.noiseFloor", ComparisonReport.NOISE_HEAD);
    private final ComparisonTable cost = table("results.cost", ComparisonReport.COST_HEAD);
    private final ComparisonTable costByLabel = table("results.costByLabel", ComparisonReport.COST_LABEL_HEAD);
    /** A multi-tenant run's figures per configuration x tenant: the first tab, shown only for one. */
    private final ComparisonTable perTenant = table("results.tenants", TenantResults.HEADER);

    private final JScrollPane perTenantTab = new JScrollPane(perTenant);
    private TenantsReport tenantsReport;
    private final JTextArea notes = new JTextArea();
    private final JComboBox<String> chartChoice = new JComboBox<>();
    private final ChartPanel chartPanel = new ChartPanel(null);
    private final JTabbedPane tabs = new JTabbedPane();
    private final JButton exportCharts = new JButton("Export charts…");
    private final JButton exportReport = new JButton("Export report…");
    private Map<String, JFreeChart> charts = new LinkedHashMap<>();
    private Path shownDirectory;
    private boolean selecting;
    private ComparisonReport report;

    /**
     * @param resultsDir where run directories are (the list of past runs)
     * @param targets    the recipes (reading an experiment back checks its target)
     */
    public ResultsView(Path resultsDir, Path targets) {
        super(new BorderLayout());
        this.resultsDir = resultsDir;
        this.targets = targets;
        setName("results.view");

        historyList.setName("results.history");
        historyList.setSelectionMode(ListSelectionModel.MULTIPLE_INTERVAL_SELECTION);
        historyList.setToolTipText("past run directories under " + resultsDir
                + "; select one to open it, two to compare them side by side");
        historyList.addListSelectionListener(e -> {
            if (!e.getValueIsAdjusting()
                    && !selecting
                    && historyList.getSelectedValuesList().size() == 1) {
                open(historyList.getSelectedValue().directory());
            }
        });
        JButton refresh = new JButton("Refresh");
        refresh.addActionListener(e -> refreshHistory());
        JButton sideBySide = new JButton("Side by side");
        sideBySide.setName("results.sideBySide");
        sideBySide.setToolTipText(
                "select two run directories: the second's figures next to the first's, compared with the first's baseline");
        sideBySide.addActionListener(e -> sideBySide());
        JButton openOther = new JButton("Open…");
        openOther.addActionListener(e -> chooseDirectory());
        JPanel historyButtons = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 2));
        historyButtons.add(openOther);
        historyButtons.add(sideBySide);
        historyButtons.add(refresh);
        JPanel left = new JPanel(new BorderLayout());
        JLabel pastRuns = new JLabel("Past runs");
        pastRuns.setBorder(BorderFactory.createEmptyBorder(6, 6, 4, 6));
        left.add(pastRuns, BorderLayout.NORTH);
        left.add(new JScrollPane(historyList));
        left.add(historyButtons, BorderLayout.SOUTH);
        left.setPreferredSize(new Dimension(380, 400));

        heading.setName("results.heading");
        heading.setFont(heading.getFont().deriveFont(Font.BOLD));
        heading.setBorder(BorderFactory.createEmptyBorder(6, 8, 6, 8));
        notes.setName("results.notes");
        notes.setEditable(false);
        notes.setLineWrap(true);
        notes.setWrapStyleWord(true);
        chartChoice.setName("results.chartChoice");
        chartChoice.addActionListener(e -> showChart());
        chartPanel.setName("results.chart");
        JPanel chartTab = new JPanel(new BorderLayout());
        chartTab.add(chartChoice, BorderLayout.NORTH);
        chartTab.add(chartPanel);
        tabs.setName("results.tabs");
        tabs.addTab("Across runs", new JScrollPane(acrossRuns));
        tabs.addTab("Samples (JMeter's figures)", new JScrollPane(samples));
        tabs.addTab("Resources", new JScrollPane(resources));
        tabs.addTab("Charts", chartTab);
        // what a "~" stands on: the smallest change each comparison could have shown, and what each request cost
        tabs.addTab("Noise floor", new JScrollPane(noiseFloor));
        noiseFloor.setToolTipText(ComparisonReport.NOISE_NOTE);
        tabs.addTab("CPU per request", new JScrollPane(cost));
        cost.setToolTipText(ComparisonReport.COST_NOTE);
        tabs.addTab("CPU per label", new JScrollPane(costByLabel));
        costByLabel.setToolTipText(ComparisonReport.COST_LABEL_NOTE);
        tabs.addTab("Notes and hints", new JScrollPane(notes));
        exportCharts.setName("results.exportCharts");
        exportCharts.setMnemonic('E');
        exportCharts.addActionListener(e -> exportCharts());
        exportReport.setName("results.exportReport");
        exportReport.addActionListener(e -> exportReport());
        JPanel exports = new JPanel(new FlowLayout(FlowLayout.RIGHT, 4, 2));
        exports.add(exportCharts);
        exports.add(exportReport);
        reading.setName("results.reading");
        reading.setIndeterminate(true);
        reading.setStringPainted(true);
        reading.setVisible(false);
        JPanel top = new JPanel(new BorderLayout());
        top.add(heading, BorderLayout.NORTH);
        top.add(reading, BorderLayout.SOUTH);
        JPanel right = new JPanel(new BorderLayout());
        right.add(top, BorderLayout.NORTH);
        right.add(tabs);
        right.add(exports, BorderLayout.SOUTH);
        JSplitPane split = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, left, right);
        split.setName("results.split");
        split.setDividerLocation(400); // room for a run directory's name and time
        add(split);
        setExportsEnabled(false);
        refreshHistory();
    }

    private static ComparisonTable table(String name, String[] head) {
        ComparisonTable t = TabLeaves.of(new ComparisonTable(head));
        t.setName(name);
        return t;
    }

    /** Re-reads the list of run directories, newest first. */
    public void refreshHistory() {
        history.clear();
        RunDirectoryEntry.list(resultsDir).forEach(history::addElement);
    }

    /**
     * What was last asked to be shown (event thread only): a reading off the event thread shows its result only when
     * nothing was asked for since, so a slow read never covers a newer view (side by side, another run).
     */
    private int requests;

    /**
     * Opens a run directory (from the list, after a run, or chosen): read off the event thread, then shown, with a
     * progress bar meanwhile. Writes nothing into the directory ({@link RunConclusion#read}).
     */
    public void open(Path dir) {
        heading.setText("reading " + dir + " …");
        startReading(describeReading(dir));
        int asked = ++requests;
        Thread reader = new Thread(
                () -> {
                    try {
                        RunConclusion c = RunConclusion.read(new RunDirectory(dir), targets);
                        SwingUtilities.invokeLater(() -> {
                            if (asked == requests) { // nothing else was asked for meanwhile (side by side, another run)
                                stopReading();
                                show(c);
                            }
                        });
                    } catch (IOException | ExperimentException | RuntimeException e) {
                        SwingUtilities.invokeLater(() -> {
                            if (asked != requests) {
                                return;
                            }
                            stopReading();
                            heading.setText("cannot open " + dir.getFileName());
                            JOptionPane.showMessageDialog(
                                    this,
                                    e.getMessage(),
                                    "Cannot open " + dir.getFileName(),
                                    JOptionPane.ERROR_MESSAGE);
                        });
                    }
                },
                "envbench-results-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * "12 result files, 84 MB": what reading a run directory has to go through, from its jtl/ folder's files (as kept, compressed or not); a run that
     * ended with a summary ({@link io.envbench.study.analysis.RunSummary}) is read from it, the JTLs only when it no
     * longer matches them.
     */
    private static String describeReading(Path dir) {
        Path jtl = dir.resolve("jtl");
        if (!Files.isDirectory(jtl)) {
            return "reading " + dir.getFileName();
        }
        if (Files.isRegularFile(new RunDirectory(dir).summary())) {
            return "reading " + dir.getFileName() + ": its summary";
        }
        try (Stream<Path> files = Files.list(jtl)) {
            List<Path> all = files.filter(ResultFiles::isResultFile).toList();
            long bytes = 0;
            for (Path f : all) {
                bytes += Files.size(f);
            }
            return String.format(
                    Locale.ROOT,
                    "reading %s: %d result files, %.1f MB",
                    dir.getFileName(),
                    all.size(),
                    bytes / (1024.0 * 1024));
        } catch (IOException e) {
            return "reading " + dir.getFileName();
        }
    }

    private void startReading(String what) {
        readingWhat = what;
        readingSince = System.nanoTime();
        reading.setString(what + " …");
        reading.setVisible(true);
        readingClock.start();
    }

    private void tickReading() {
        long seconds = (System.nanoTime() - readingSince) / 1_000_000_000L;
        reading.setString(readingWhat + " … " + seconds + " s");
    }

    private void stopReading() {
        readingClock.stop();
        reading.setVisible(false);
    }

    /** Whether a run directory is being read (tests wait for the end). */
    public boolean isReading() {
        return reading.isVisible();
    }

    /**
     * Shows a run's conclusion, and selects its directory in the list of past runs. A multi-tenant run's per-tenant
     * figures and charts ({@link TenantsReport}, as {@code envbench run} writes them) are read off the event thread first.
     */
    public void show(RunConclusion c) {
        int asked = ++requests;
        if (c.experiment().tenancy().isEmpty() || !c.hasFigures()) {
            show(c, null, Map.of());
            return;
        }
        heading.setText("reading the tenants' figures of " + c.directory().root() + " …");
        startReading("reading the tenants' figures");
        Thread reader = new Thread(
                () -> {
                    try {
                        // the tenants table the conclusion read with its figures: the JTLs are not read again
                        TenantsReport t = TenantsReport.of(c);
                        Map<String, JFreeChart> tenantCharts = t.charts();
                        SwingUtilities.invokeLater(() -> {
                            if (asked == requests) {
                                stopReading();
                                show(c, t, tenantCharts);
                            }
                        });
                    } catch (IOException | RuntimeException e) {
                        SwingUtilities.invokeLater(() -> {
                            if (asked != requests) {
                                return;
                            }
                            stopReading();
                            show(c, null, Map.of());
                            notes.setText("The per-tenant figures could not be read: " + e.getMessage() + "\n\n"
                                    + notes.getText());
                        });
                    }
                },
                "envbench-results-tenants");
        reader.setDaemon(true);
        reader.start();
    }

    private void show(RunConclusion c, TenantsReport tenants, Map<String, JFreeChart> tenantCharts) {
        shownDirectory = c.directory().root();
        for (int i = 0; i < history.size(); i++) {
            if (history.get(i).directory().equals(shownDirectory) && !historyList.isSelectedIndex(i)) {
                selecting = true;
                try {
                    historyList.setSelectedIndex(i);
                } finally {
                    selecting = false;
                }
            }
        }
        String verdict = c.outcome();
        if (c.experiment().load().command().isPresent()) {
            showCommandReport(c, verdict);
            return;
        }
        if (!c.hasFigures()) {
            clear(c.experiment().name() + ": no completed run, nothing to compare (" + verdict + "); see "
                    + c.directory().root().resolve("logs"));
            return;
        }
        ComparisonReport r = c.report();
        // a multi-tenant run's charts first: the paper's bars, then each run's with the control's actions
        Map<String, JFreeChart> all = new LinkedHashMap<>(tenantCharts);
        all.putAll(r.charts());
        StringBuilder n = new StringBuilder();
        if (tenants != null) {
            n.append(tenants.results().text()).append("\nThe other tabs pool every tenant of a configuration.\n\n");
        }
        c.notices().forEach(x -> n.append(x).append("\n\n"));
        // the report's header: what ran where, on which host
        RunHeader header = r.header();
        header.facts().forEach(f -> n.append(f[0]).append(": ").append(f[1]).append('\n'));
        if (!header.environments().isEmpty()) {
            n.append("Environments:\n");
            header.environments()
                    .forEach(e -> n.append("  ")
                            .append(e[0])
                            .append(": ")
                            .append(e[1])
                            .append("; ")
                            .append(e[2])
                            .append('\n'));
        }
        n.append('\n');
        if (!c.verdicts().isEmpty()) {
            n.append("Criteria (on the medians of the runs):\n");
            c.verdicts()
                    .forEach(v -> n.append(v.passed() ? "  PASS " : "  FAIL ")
                            .append(v.explanation())
                            .append('\n'));
            n.append('\n');
        }
        if (!c.hints().isEmpty()) {
            n.append("Hints:\n");
            c.hints().forEach(h -> n.append("  ").append(h).append('\n'));
            n.append('\n');
        }
        n.append(r.familyNote()).append("\n\n");
        n.append(ComparisonReport.RUN_NOTE).append("\n\n").append(ComparisonReport.TABLE_NOTE);
        display(
                c.experiment().name() + " — " + verdict + " — " + (c.results().plannedRuns() - c.missingRuns()) + " of "
                        + c.results().plannedRuns() + " runs, baseline " + r.baseline() + " — "
                        + c.directory().root(),
                r,
                all,
                n.toString());
        showTenants(tenants);
    }

    /**
     * A command load's run (bonnie++, psql): its tables per figure in the notes, its charts relative to the baseline in the
     * chart view; JMeter's tables stay empty (there are no samples).
     */
    private void showCommandReport(RunConclusion c, String verdict) {
        String title =
                c.experiment().name() + " — " + verdict + " — " + (c.results().plannedRuns() - c.missingRuns()) + " of "
                        + c.results().plannedRuns() + " runs, baseline "
                        + c.experiment().baseline() + " — " + c.directory().root();
        try {
            Optional<CommandReport> found = CommandReport.of(c.directory(), c.experiment());
            if (found.isEmpty()) {
                clear(title + ": no completed run");
                return;
            }
            CommandReport b = found.get();
            clear(title);
            charts = b.charts();
            charts.forEach((name, chart) -> chartChoice.addItem(chartTitle(name, chart)));
            StringBuilder n = new StringBuilder();
            c.notices().forEach(x -> n.append(x).append("\n\n"));
            notes.setText(n + b.markdown());
            notes.setCaretPosition(0);
            exportCharts.setEnabled(true);
        } catch (IOException | RuntimeException e) {
            clear(title + ": " + e.getMessage());
        }
    }

    /** Two run directories as one comparison: every environment of each, named after its run directory. */
    public void sideBySide(Path first, Path second) {
        ++requests; // a run still being read for the list's selection is not shown over it
        try {
            SideBySide s = SideBySide.of(new RunDirectory(first), new RunDirectory(second), targets);
            ComparisonReport r = new ComparisonReport(s.comparison(), s.baseline()).judgedAsItsLoadWas();
            display(
                    "Side by side: " + first.getFileName() + " and " + second.getFileName() + " — baseline "
                            + s.baseline(),
                    r,
                    r.charts(),
                    s.description() + "\n\n" + r.familyNote() + "\n\n" + ComparisonReport.RUN_NOTE);
        } catch (IOException | ExperimentException | RuntimeException e) {
            JOptionPane.showMessageDialog(this, e.getMessage(), "Cannot compare", JOptionPane.ERROR_MESSAGE);
        }
    }

    public Map<String, JFreeChart> charts() {
        return charts;
    }

    /** Writes every chart of the shown comparison into {@code dir}; returns the files. */
    public List<Path> exportCharts(Path dir, ChartFormat format) throws IOException {
        return ComparisonReport.writeCharts(charts, dir, format);
    }

    /** The per-tenant tab, first and selected for a multi-tenant run; gone for any other. */
    private void showTenants(TenantsReport t) {
        tenantsReport = t;
        int at = tabs.indexOfComponent(perTenantTab);
        if (t == null) {
            if (at >= 0) {
                tabs.removeTabAt(at);
            }
            perTenant.setRows(List.of());
            return;
        }
        perTenant.setRows(t.results().tableRows());
        if (at < 0) {
            tabs.insertTab(
                    "Per tenant",
                    null,
                    perTenantTab,
                    "each tenant's figures per configuration: mean of runs ± 95% interval",
                    0);
        }
        tabs.setSelectedComponent(perTenantTab);
    }

    private void display(String title, ComparisonReport r, Map<String, JFreeChart> all, String noteText) {
        showTenants(null);
        report = r;
        charts = all;
        heading.setText(title);
        heading.setToolTipText(title);
        acrossRuns.setRows(r.runRows());
        samples.setRows(r.tableRows());
        resources.setRows(r.metricsRows());
        noiseFloor.setRows(r.noiseRows());
        cost.setRows(r.costRows());
        costByLabel.setRows(r.costLabelRows());
        notes.setText(noteText);
        notes.setCaretPosition(0);
        chartChoice.removeAllItems();
        all.forEach((name, chart) -> chartChoice.addItem(chartTitle(name, chart)));
        setExportsEnabled(true);
    }

    private void clear(String title) {
        showTenants(null);
        report = null;
        charts = new LinkedHashMap<>();
        heading.setText(title);
        acrossRuns.setRows(List.of());
        samples.setRows(List.of());
        resources.setRows(List.of());
        noiseFloor.setRows(List.of());
        cost.setRows(List.of());
        costByLabel.setRows(List.of());
        notes.setText("");
        chartChoice.removeAllItems();
        chartPanel.setChart(null);
        setExportsEnabled(false);
    }

    private void setExportsEnabled(boolean on) {
        exportCharts.setEnabled(on);
        exportReport.setEnabled(on);
    }

    private void showChart() {
        int i = chartChoice.getSelectedIndex();
        chartPanel.setChart(i < 0 ? null : List.copyOf(charts.values()).get(i));
    }

    /** What the chart list shows: the chart's title, and the file name its export gets. */
    private static String chartTitle(String name, JFreeChart chart) {
        return (chart.getTitle() == null ? name : chart.getTitle().getText()) + "  (" + name + ")";
    }

    private void sideBySide() {
        List<RunDirectoryEntry> chosen = historyList.getSelectedValuesList();
        if (chosen.size() != 2) {
            JOptionPane.showMessageDialog(
                    this,
                    "Select two run directories in the list (Ctrl+click): the older one is the baseline.",
                    "Side by side",
                    JOptionPane.INFORMATION_MESSAGE);
            return;
        }
        // the list is newest first: the older run is the reference
        sideBySide(chosen.get(1).directory(), chosen.get(0).directory());
    }

    private void chooseDirectory() {
        JFileChooser c = new JFileChooser(resultsDir.toFile());
        c.setFileSelectionMode(JFileChooser.DIRECTORIES_ONLY);
        c.setDialogTitle("Open a run directory (written by ./envbench run or the controller)");
        if (c.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            open(c.getSelectedFile().toPath());
        }
    }

    private void exportCharts() {
        JComboBox<ChartFormat> format = new JComboBox<>(ChartFormat.values());
        format.setName("export.format");
        JFileChooser c = exportChooser("Export the charts into a folder");
        JPanel accessory = new JPanel(new BorderLayout());
        accessory.add(new JLabel("Format"), BorderLayout.NORTH);
        accessory.add(format, BorderLayout.SOUTH);
        c.setAccessory(accessory);
        if (c.showSaveDialog(this) == JFileChooser.APPROVE_OPTION) {
            Path to = c.getSelectedFile().toPath();
            ChartFormat f = (ChartFormat) format.getSelectedItem();
            inBackground("exporting charts", () -> exportCharts(to, f).size() + " charts written to " + to);
        }
    }

    private void exportReport() {
        JFileChooser c = exportChooser("Export the report (HTML, CSV, Markdown, charts) into a folder");
        if (c.showSaveDialog(this) == JFileChooser.APPROVE_OPTION && report != null) {
            Path to = c.getSelectedFile().toPath();
            ComparisonReport r = report;
            TenantsReport t = tenantsReport;
            inBackground(
                    "exporting the report",
                    () -> (r.write(to).size() + (t == null ? 0 : t.write(to).size())) + " files written to " + to);
        }
    }

    /**
     * Where an export goes unless the user picks another folder: {@code ~/RUN-report}, outside the run directory (which
     * is the run's record, as CI keeps it) and outside the results folder (whose every folder is a run).
     */
    Path exportFolder() {
        Path home = Path.of(System.getProperty("user.home"));
        return home.resolve((shownDirectory != null ? shownDirectory.getFileName() : "envbench") + "-report");
    }

    /** A folder chooser opened in the export folder's parent with the export folder's name filled in. */
    private JFileChooser exportChooser(String title) {
        Path to = exportFolder();
        JFileChooser c = new JFileChooser(to.getParent().toFile());
        c.setFileSelectionMode(JFileChooser.DIRECTORIES_ONLY);
        c.setDialogTitle(title);
        c.setSelectedFile(to.toFile());
        return c;
    }

    private interface Export {
        String run() throws IOException;
    }

    /** Writes off the event thread (charts of long runs take a while), then says what was written or what failed. */
    private void inBackground(String what, Export export) {
        setExportsEnabled(false);
        heading.setToolTipText(what + " …");
        Thread t = new Thread(
                () -> {
                    String done;
                    boolean ok;
                    try {
                        done = export.run();
                        ok = true;
                    } catch (IOException | RuntimeException e) {
                        done = e.getMessage();
                        ok = false;
                    }
                    String message = done;
                    boolean success = ok;
                    SwingUtilities.invokeLater(() -> {
                        setExportsEnabled(true);
                        JOptionPane.showMessageDialog(
                                this,
                                message,
                                success ? "Export" : "Export failed",
                                success ? JOptionPane.INFORMATION_MESSAGE : JOptionPane.ERROR_MESSAGE);
                    });
                },
                "envbench-export");
        t.start();
    }

    /** The tab component holding the tables and charts (tests select tabs on it). */
    public JComponent tabs() {
        return tabs;
    }
}
