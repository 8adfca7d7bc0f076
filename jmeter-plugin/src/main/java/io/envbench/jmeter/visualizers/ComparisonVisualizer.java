package io.envbench.jmeter.visualizers;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import javax.swing.JButton;
import javax.swing.JFileChooser;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JScrollPane;
import javax.swing.JTabbedPane;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import javax.swing.filechooser.FileNameExtensionFilter;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.jmeter.EnvBenchHelp;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.Comparison;
import io.envbench.report.ComparisonCharts;
import io.envbench.report.ComparisonReport;
import io.envbench.report.table.ComparisonTable;
import io.envbench.study.analysis.RunDirectory;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.visualizers.gui.AbstractVisualizer;
import org.jfree.chart.ChartPanel;
import org.jfree.chart.JFreeChart;

/**
 * EnvBench Comparison listener: the side-by-side table and charts of environments, from result files
 * (Add result files…) or live from the running test (each sample counted under its thread's
 * {@code envbench.env}, as its Environment Tag set it), with export of the whole report (HTML, CSV, Markdown, PNG/SVG/PDF charts).
 *
 * <p>Thread-safety: {@link #add} is called by every JMeter thread and only queues the sample (lock-free).
 * One refresher thread owns the {@link Comparison}: it counts the queued samples every 100 ms, reads
 * result files, writes reports, and once a second builds the table rows and charts, which it hands to
 * the event thread finished. Swing components are touched on the event thread only.
 */
public class ComparisonVisualizer extends AbstractVisualizer {
    private static final long serialVersionUID = 1L;
    private static final String LIVE_RUN = "live";
    private static final long BUILD_EVERY_NANOS = 1_000_000_000L;
    /** The element's property for the "Exclude labels" field. */
    public static final String EXCLUDE = "EnvBenchComparison.exclude";
    /**
     * EnvBench's own samples: the Target Environment and Container Options samplers as the templates and plans name
     * them ("EnvBench start bare", "EnvBench stop", ...) and under their default names.
     */
    public static final String DEFAULT_EXCLUDE =
            "^EnvBench (start|stop|switch|Target Environment|Container Options)\\b";

    /** Samples of the running test, not yet counted. */
    private final transient Queue<Sample> arrived = new ConcurrentLinkedQueue<>();
    /** The refresher: one thread, started when there is work, gone after 10 s without. */
    private final transient ThreadPoolExecutor refresher =
            new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "envbench-comparison");
                t.setDaemon(true);
                return t;
            });

    private final transient AtomicBoolean refreshQueued = new AtomicBoolean();
    /** Confined to the refresher thread. */
    private transient Comparison comparison = new Comparison();
    /** Whether the models shown are older than the comparison; written by the refresher only. */
    private transient volatile boolean changed;
    /** Confined to the refresher thread: when the table and charts were last built. */
    private transient long builtNanos;

    /** Labels to leave out; written on the event thread, read by the refresher. */
    private transient volatile Predicate<String> excluded = compileExclude(DEFAULT_EXCLUDE);
    /** The metrics file whose resources the export adds: the live run's, or one the user chose. */
    private transient volatile Path metricsFile;

    private final ComparisonTable table = new ComparisonTable(ComparisonReport.TABLE_HEAD);
    /** Per environment, the smallest change its runs could show: from result files of several runs each. */
    private final ComparisonTable noiseFloor = new ComparisonTable(ComparisonReport.NOISE_HEAD);

    private final JTextField exclude = new JTextField(DEFAULT_EXCLUDE, 44);
    private final JLabel excludeProblem = new JLabel();
    private final JTabbedPane charts = new JTabbedPane(JTabbedPane.TOP, JTabbedPane.SCROLL_TAB_LAYOUT);
    /** Keeps the listener as wide as JMeter's panel, not as wide as a chart or the table. */
    private static final Dimension VIEW = new Dimension(600, 380);

    private final JLabel status = new JLabel("Add result files, or run a test with EnvBench environments.");

    { // found by tests, as users read it
        status.setName("comparison-status");
    }

    public ComparisonVisualizer() {
        refresher.allowCoreThreadTimeOut(true);
        setLayout(new BorderLayout());
        JPanel title = new JPanel(new BorderLayout());
        title.add(makeTitlePanel(), BorderLayout.CENTER);
        title.add(EnvBenchHelp.buttonPanel(EnvBenchHelp.Topic.COMPARISON, this), BorderLayout.EAST);
        add(title, BorderLayout.NORTH);
        JPanel filter = new JPanel(new FlowLayout(FlowLayout.LEFT));
        exclude.setName("exclude");
        exclude.setToolTipText(
                "Regular expression: labels it finds are not counted (as envbench report --exclude). "
                        + "Default: EnvBench's own start/stop samples. Empty: count every label. Applies to samples counted after the change");
        exclude.getDocument().addDocumentListener(new DocumentListener() {
            @Override
            public void insertUpdate(DocumentEvent e) {
                excludeChanged();
            }

            @Override
            public void removeUpdate(DocumentEvent e) {
                excludeChanged();
            }

            @Override
            public void changedUpdate(DocumentEvent e) {
                excludeChanged();
            }
        });
        excludeProblem.setName("exclude-problem");
        excludeProblem.setForeground(Color.RED.darker());
        filter.add(new JLabel("Exclude labels:"));
        filter.add(exclude);
        filter.add(excludeProblem);
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.LEFT));
        JButton addFiles = new JButton("Add result files…");
        addFiles.setToolTipText(
                "CSV JTLs; each file is one run (files of the same name by their folders), split by its envbench.env column");
        addFiles.addActionListener(e -> chooseFiles());
        JButton export = new JButton("Export report…");
        export.setToolTipText(
                "Writes index.html, comparison.csv, comparison.md and every chart as PNG, SVG and PDF into a folder");
        export.addActionListener(e -> exportReport());
        JButton metrics = new JButton("Metrics file…");
        metrics.setToolTipText(
                "The Resource Monitor's metrics CSV whose resources the export adds (a live run's is taken by itself)");
        metrics.addActionListener(e -> chooseMetricsFile());
        buttons.add(addFiles);
        buttons.add(metrics);
        buttons.add(export);
        buttons.add(status);
        JTabbedPane tabs = new JTabbedPane();
        table.setName("comparison-table");
        JScrollPane tableScroll = new JScrollPane(table);
        tableScroll.setPreferredSize(VIEW);
        tabs.addTab("Table", tableScroll);
        tabs.addTab("Charts", charts);
        noiseFloor.setName("noise-floor");
        noiseFloor.setToolTipText(ComparisonReport.NOISE_NOTE
                + " Needs several runs per environment: add one result file per run (a live test is one run).");
        tabs.addTab("Noise floor", new JScrollPane(noiseFloor));
        JPanel main = new JPanel(new BorderLayout());
        JPanel bars = new JPanel(new BorderLayout());
        bars.add(filter, BorderLayout.NORTH);
        bars.add(buttons, BorderLayout.SOUTH);
        main.add(bars, BorderLayout.NORTH);
        main.add(tabs, BorderLayout.CENTER);
        add(main, BorderLayout.CENTER);
        // samples are counted every 100 ms (so few wait in the queue), the table and charts built once a second
        new Timer(100, e -> {
                    if (!arrived.isEmpty() || changed) {
                        scheduleRefresh();
                    }
                    JMeterEnvBench.collector().flatMap(c -> c.file()).ifPresent(f -> metricsFile = f);
                })
                .start();
    }

    @Override
    public void modifyTestElement(TestElement el) {
        super.modifyTestElement(el);
        el.setProperty(EXCLUDE, exclude.getText(), DEFAULT_EXCLUDE);
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        exclude.setText(el.getPropertyAsString(EXCLUDE, DEFAULT_EXCLUDE));
    }

    @Override
    public void clearGui() {
        super.clearGui();
        exclude.setText(DEFAULT_EXCLUDE);
    }

    /** On the event thread: a good expression applies from now on; a bad one is named, and the last good one stays. */
    private void excludeChanged() {
        try {
            excluded = compileExclude(exclude.getText());
            excludeProblem.setText("");
        } catch (PatternSyntaxException e) {
            excludeProblem.setText(
                    "Exclude labels: '" + exclude.getText() + "' is not a regular expression (" + e.getDescription()
                            + " at " + e.getIndex() + "); correct it, or empty the field to count every label");
        }
    }

    /** The labels an exclude expression leaves out, found anywhere in the label as {@code envbench report --exclude}. */
    static Predicate<String> compileExclude(String regex) {
        if (regex == null || regex.isBlank()) {
            return label -> false;
        }
        Pattern p = Pattern.compile(regex);
        return label -> p.matcher(label).find();
    }

    @Override
    public String getLabelResource() {
        return "envbench_comparison"; // not in JMeter's bundle: getStaticLabel gives the name
    }

    @Override
    public String getStaticLabel() {
        return "EnvBench Comparison";
    }

    /** JMeter's menu, its Help item opening EnvBench's bundled page at this element (not Apache's reference). */
    @Override
    public JPopupMenu createPopupMenu() {
        return EnvBenchHelp.popupMenu(super.createPopupMenu(), EnvBenchHelp.Topic.COMPARISON, this);
    }

    @Override
    public String getDocAnchor() {
        return EnvBenchHelp.Topic.COMPARISON.anchor();
    }

    /**
     * Live samples: counted under the environment of the sample's thread (variable envbench.env, set by its
     * Environment Tag). Called by every JMeter thread: no lock, no work.
     */
    @Override
    public void add(SampleResult r) {
        var vars = JMeterContextService.getContext().getVariables();
        String env = vars == null ? null : vars.get(EnvBenchProperties.ENV_VARIABLE);
        arrived.add(new Sample(
                env == null || env.isEmpty() ? "none" : env,
                r.getSampleLabel(),
                r.getStartTime(),
                r.getTime(),
                r.isSuccessful(),
                r.getBytesAsLong(),
                r.getSentBytes()));
    }

    @Override
    public void clearData() {
        refresher.execute(() -> {
            arrived.clear();
            comparison = new Comparison();
            warmups.clear();
            liveSeen = false;
            changed = false;
            SwingUtilities.invokeLater(() -> show(List.of(), List.of(), Map.of(), " "));
        });
    }

    private void scheduleRefresh() {
        if (refreshQueued.compareAndSet(false, true)) {
            refresher.execute(() -> {
                refreshQueued.set(false);
                refresh(false);
            });
        }
    }

    /** For tests: a refresh on the refresher, done when the models are built and handed to the event thread. */
    Future<?> refreshNow() {
        return refresher.submit(() -> refresh(true));
    }

    /**
     * On the refresher: counts the samples that arrived and, if anything changed and the last build is a
     * second old (or {@code now}), builds what Swing shows.
     */
    private void refresh(boolean now) {
        drain();
        if (!changed || !now && System.nanoTime() - builtNanos < BUILD_EVERY_NANOS) {
            return;
        }
        changed = false;
        builtNanos = System.nanoTime();
        if (comparison.environments().isEmpty()) {
            return;
        }
        ComparisonReport report = new ComparisonReport(comparison, null).judgedAsItsLoadWas();
        List<String[]> rows = report.tableRows();
        List<String[]> noise = report.noiseRows();
        Map<String, JFreeChart> all = new ComparisonCharts(comparison, report.baseline()).all();
        String text = comparison.environments().size() + " environment(s): "
                + String.join(", ", comparison.environments()) + warmupNote();
        SwingUtilities.invokeLater(() -> show(rows, noise, all, text));
    }

    /** Each file read, and the warm-up left out of it (empty: counted whole). On the refresher. */
    private final transient Map<Path, Optional<Duration>> warmups = new LinkedHashMap<>();

    /**
     * Whether the figures leave each run's warm-up out, as the runner's report does, or count it: the two disagree on
     * the same files otherwise, and neither would say why.
     */
    private String warmupNote() {
        String live = liveSeen ? "; live samples: every one counted, warm-up included" : "";
        if (warmups.isEmpty()) {
            return live;
        }
        Set<Duration> left = new TreeSet<>();
        long whole = 0;
        for (Optional<Duration> w : warmups.values()) {
            if (w.isPresent()) {
                left.add(w.get());
            } else {
                whole++;
            }
        }
        String note = left.isEmpty()
                ? ""
                : "; warm-up left out as the runner does (first "
                        + String.join(
                                "/",
                                left.stream().map(d -> d.toSeconds() + " s").toList())
                        + " of each run, from its experiment.yaml)";
        return note
                + (whole == 0 ? "" : "; " + whole + " file(s) outside a run directory counted whole, warm-up included")
                + live;
    }

    /** Whether live samples were counted since the last clear. On the refresher. */
    private transient boolean liveSeen;

    /** The last message about refused live samples: each is shown once. On the refresher. */
    private transient String refusedLive;

    /** On the refresher. */
    private void drain() {
        Sample s = arrived.poll();
        if (s == null) {
            return;
        }
        Predicate<String> out = excluded;
        for (; s != null; s = arrived.poll()) {
            if (!out.test(s.label())) {
                try {
                    comparison.add(s, LIVE_RUN);
                    liveSeen = true;
                } catch (InvalidSettingException e) {
                    // a sample labelled as a row EnvBench adds itself: left out, and said once (not once per sample)
                    if (!e.getMessage().equals(refusedLive)) {
                        refusedLive = e.getMessage();
                        String shown = "Live samples left out: " + e.getMessage();
                        SwingUtilities.invokeLater(() -> JOptionPane.showMessageDialog(
                                this, shown, "Samples left out", JOptionPane.WARNING_MESSAGE));
                    }
                }
            }
        }
        changed = true;
    }

    /** On the event thread: installs finished models. */
    private void show(List<String[]> rows, List<String[]> noise, Map<String, JFreeChart> all, String text) {
        table.setRows(rows);
        noiseFloor.setRows(noise);
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
        status.setText(text);
    }

    private void chooseFiles() {
        JFileChooser chooser = new JFileChooser();
        chooser.setMultiSelectionEnabled(true);
        chooser.setFileFilter(
                new FileNameExtensionFilter("JMeter CSV results (*.jtl, *.csv, *.jtl.gz)", "jtl", "csv", "gz"));
        if (chooser.showOpenDialog(this) != JFileChooser.APPROVE_OPTION) {
            return;
        }
        File[] files = chooser.getSelectedFiles();
        status.setText("Reading " + files.length + " file(s)…");
        addFiles(Arrays.stream(files).map(File::toPath).toList());
    }

    /**
     * Reads result files on the refresher, each as one run named after its file (by its folder when another file of
     * the same name was added: never pooled); says which could not be read.
     */
    Future<?> addFiles(List<Path> files) {
        return refresher.submit(() -> {
            List<String> problems = new ArrayList<>();
            // one run directory's experiment.yaml read once, not once per run's file
            Map<Path, Optional<Duration>> warmupOfFolder = new HashMap<>();
            for (Path f : files) {
                try {
                    Predicate<String> out = excluded;
                    // a run's file from a run directory: its warm-up left out as the runner's report does
                    Optional<Duration> warmup = warmupOfFolder.computeIfAbsent(
                            f.toAbsolutePath().normalize().getParent(),
                            folder -> RunDirectory.warmupOf(f, EnvBenchProperties.targetsDir()));
                    comparison.addFile(f, label -> !out.test(label), warmup.orElse(Duration.ZERO));
                    warmups.put(f, warmup);
                } catch (IOException | RuntimeException e) { // a bad file (or a label EnvBench adds itself) is said
                    String why = String.valueOf(e.getMessage());
                    problems.add(why.startsWith(f.toString()) ? why : f + ": " + why);
                }
                changed = true;
            }
            refresh(true);
            if (!problems.isEmpty()) {
                SwingUtilities.invokeLater(() -> JOptionPane.showMessageDialog(
                        this, String.join("\n", problems), "Some files were not read", JOptionPane.WARNING_MESSAGE));
            }
        });
    }

    private void exportReport() {
        JFileChooser chooser = new JFileChooser();
        chooser.setFileSelectionMode(JFileChooser.DIRECTORIES_ONLY);
        chooser.setDialogTitle("Folder for the report");
        if (chooser.showSaveDialog(this) != JFileChooser.APPROVE_OPTION) {
            return;
        }
        Path dir = chooser.getSelectedFile().toPath();
        status.setText("Writing the report…");
        exportTo(dir)
                .thenAccept(written -> SwingUtilities.invokeLater(
                        () -> status.setText("Report written: " + dir.resolve("index.html"))))
                .exceptionally(e -> {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    SwingUtilities.invokeLater(() -> {
                        status.setText(" ");
                        JOptionPane.showMessageDialog(
                                this, cause.getMessage(), "Report not written", JOptionPane.ERROR_MESSAGE);
                    });
                    return null;
                });
    }

    /**
     * On the refresher: writes the report of what was counted into {@code dir}, with the resources table when a
     * metrics file is known; completes with the files written, or with the reason none were.
     */
    CompletableFuture<List<Path>> exportTo(Path dir) {
        CompletableFuture<List<Path>> done = new CompletableFuture<>();
        Path metricsOf = metricsFile;
        refresher.execute(() -> {
            drain();
            try {
                MetricsFile metrics = metricsOf == null ? null : MetricsFile.read(metricsOf);
                done.complete(new ComparisonReport(comparison, null, metrics)
                        .judgedAsItsLoadWas()
                        .write(dir));
            } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private void chooseMetricsFile() {
        JFileChooser chooser = new JFileChooser();
        chooser.setFileFilter(new FileNameExtensionFilter("EnvBench metrics (*.csv)", "csv"));
        if (chooser.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            useMetricsFile(chooser.getSelectedFile().toPath());
        }
    }

    /** The metrics file whose resources the export adds (a live run's replaces it when the next run starts). */
    void useMetricsFile(Path file) {
        metricsFile = file;
        status.setText("Resources from " + file.getFileName() + " go into the export");
    }

    /** For tests, on the event thread: the rows shown. */
    List<String[]> shownRows() {
        return table.rows();
    }

    /** For tests, on the event thread: the chart tabs shown. */
    int shownCharts() {
        return charts.getTabCount();
    }
}
