package io.envbench.controller;

import java.awt.BorderLayout;
import java.awt.Cursor;
import java.awt.Rectangle;
import java.awt.Toolkit;
import java.awt.event.KeyEvent;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.prefs.Preferences;
import java.util.stream.Stream;
import javax.swing.JFileChooser;
import javax.swing.JFrame;
import javax.swing.JMenu;
import javax.swing.JMenuBar;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JTabbedPane;
import javax.swing.KeyStroke;
import javax.swing.WindowConstants;
import javax.swing.filechooser.FileNameExtensionFilter;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.controller.editor.ExperimentEditor;
import io.envbench.controller.results.ResultsView;
import io.envbench.controller.run.CapacityDialog;
import io.envbench.controller.run.ExperimentExecution;
import io.envbench.controller.run.RunView;
import io.envbench.controller.setup.ImageCheck;
import io.envbench.controller.setup.RebuildDialog;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.Objective;
import io.envbench.study.runner.ExperimentRun;

/**
 * The EnvBench controller's window: Experiment (the editor), Run (progress and live figures) and Results (the
 * comparison, charts and exports), with the menus and keys to go between them. It remembers the last experiment
 * and its layout in the {@link Preferences} node it is given.
 */
public final class ControllerWindow extends JFrame {
    static final String LAST_EXPERIMENT = "lastExperiment";
    static final String BOUNDS = "windowBounds";
    static final String TAB = "tab";

    private final Path root;
    private final Path resultsDir;
    private final Preferences prefs;
    private final ExperimentEditor editor;
    private final RunView runView = new RunView();
    private final ResultsView resultsView;
    private final JTabbedPane tabs = new JTabbedPane();
    private final JMenuItem runItem = new JMenuItem("Run");
    private final JMenuItem quickItem = new JMenuItem("Run quick (each run 3 s)");
    private final JMenuItem cancelItem = new JMenuItem("Cancel run");
    private ExperimentExecution execution;
    private CapacityDialog capacity;
    private boolean quitWhenStopped;

    /**
     * @param root       the EnvBench folder (targets/, testplans/, the assembled JMeter)
     * @param resultsDir where run directories are written and listed (./envbench gui: ROOT/results)
     * @param prefs      where the last experiment and the window's layout are kept
     */
    public ControllerWindow(Path root, Path resultsDir, Preferences prefs) {
        super("EnvBench controller");
        this.root = root;
        this.resultsDir = resultsDir;
        this.prefs = prefs;
        this.editor = new ExperimentEditor(root);
        this.resultsView = new ResultsView(resultsDir, root.resolve("targets"));
        setName("envbench.controller");
        setDefaultCloseOperation(WindowConstants.DO_NOTHING_ON_CLOSE);
        addWindowListener(new WindowAdapter() {
            @Override
            public void windowClosing(WindowEvent e) {
                quit();
            }
        });
        tabs.setName("controller.tabs");
        tabs.addTab("Experiment", editor);
        tabs.addTab("Run", runView);
        tabs.addTab("Results", resultsView);
        tabs.setMnemonicAt(0, KeyEvent.VK_1);
        tabs.setMnemonicAt(1, KeyEvent.VK_2);
        tabs.setMnemonicAt(2, KeyEvent.VK_3);
        add(tabs, BorderLayout.CENTER);
        setJMenuBar(menus());
        editor.onChange(e -> updateTitle());
        runView.onFinished(c -> {
            setRunning(false);
            resultsView.refreshHistory();
            if (c != null) {
                resultsView.show(c);
                tabs.setSelectedComponent(resultsView);
            }
            if (quitWhenStopped) {
                closeNow();
            }
        });
        restoreLayout();
        openLast();
        updateTitle();
    }

    public ExperimentEditor editor() {
        return editor;
    }

    public ResultsView results() {
        return resultsView;
    }

    /** Whether the Results tab is the one shown. */
    public boolean resultsShowing() {
        return tabs.getSelectedComponent() == resultsView;
    }

    /** Opens an experiment file in the editor. */
    public void openExperiment(Path file) {
        try {
            editor.open(file);
            prefs.put(LAST_EXPERIMENT, file.toAbsolutePath().normalize().toString());
            tabs.setSelectedComponent(editor);
        } catch (IOException e) {
            JOptionPane.showMessageDialog(
                    this, file + ": " + e.getMessage(), "Cannot open the experiment", JOptionPane.ERROR_MESSAGE);
        }
    }

    /** Opens a shipped example as a new, unsaved experiment: saving never overwrites the example. */
    public void openExample(Path file) {
        try {
            editor.openCopy(file);
            tabs.setSelectedComponent(editor);
            updateTitle();
        } catch (IOException e) {
            JOptionPane.showMessageDialog(
                    this, file + ": " + e.getMessage(), "Cannot open the example", JOptionPane.ERROR_MESSAGE);
        }
    }

    /**
     * Runs the editor's experiment (as shown, saved or not) into a new run directory under results/.
     *
     * @param quick each run shortened to 3 s, as {@code envbench run --quick}
     * @return false when the experiment has a problem (shown to the user) or a run is going on
     */
    public boolean run(boolean quick) {
        if (runView.running()) {
            return false;
        }
        if (searching()) {
            JOptionPane.showMessageDialog(
                    this,
                    "A capacity search is loading the target; run when it has ended (or cancel it).",
                    "Run",
                    JOptionPane.INFORMATION_MESSAGE);
            return false;
        }
        Optional<Experiment> parsed = formExperiment();
        if (parsed.isEmpty()) {
            return false;
        }
        Experiment e = parsed.get();
        if (quick) {
            e = e.quick();
        }
        if (!imagesUpToDate(e)) {
            return false;
        }
        RestartPermission restart = RestartPermission.REFUSED;
        List<String> daemonRows = e.environments().stream()
                .filter(p -> p.dockerDaemon().isPresent())
                .map(p -> p.name() + " (" + p.dockerDaemon().get().describe() + ")")
                .toList();
        if (!daemonRows.isEmpty()) {
            // as envbench run --allow-docker-restart: the user says so, each time
            int answer = JOptionPane.showConfirmDialog(
                    this,
                    "<html>" + String.join(", ", daemonRows) + " run with other Docker daemon "
                            + "settings.<br>EnvBench restarts this host's Docker daemon for them, which stops <b>every container</b> on it, and "
                            + "puts its configuration back after the experiment.<br>Allow the restarts?</html>",
                    "Restart the Docker daemon?",
                    JOptionPane.YES_NO_OPTION,
                    JOptionPane.WARNING_MESSAGE);
            if (answer != JOptionPane.YES_OPTION) {
                return false;
            }
            restart = RestartPermission.GRANTED;
        }
        try {
            RunDirectory dir = RunDirectory.timestamped(resultsDir, e.name());
            execution = new ExperimentExecution(
                    e, dir, ExperimentRun.Settings.of(root).withDockerRestart(restart));
            runView.show(execution.start());
        } catch (InvalidSettingException ex) { // e.g. a multi-tenant file for more CPUs than this host has
            JOptionPane.showMessageDialog(
                    this, ex.getMessage(), "The experiment cannot run on this host", JOptionPane.ERROR_MESSAGE);
            return false;
        } catch (RuntimeException | LinkageError ex) {
            JOptionPane.showMessageDialog(this, "The run could not start: " + ex, "Run", JOptionPane.ERROR_MESSAGE);
            return false;
        }
        setRunning(true);
        tabs.setSelectedComponent(runView);
        return true;
    }

    /**
     * Whether the experiment's images are up to date with their recipes, or rebuilt now: a rebuild that is needed is
     * asked for (Rebuild now / Cancel), never done unasked. True too when it cannot be told (the run then says what is
     * missing).
     */
    private boolean imagesUpToDate(Experiment e) {
        ImageCheck check = new ImageCheck(root);
        Set<String> folders = ImageCheck.folders(e, root.resolve("targets"));
        Optional<List<ImageCheck.Rebuild>> needed;
        setCursor(Cursor.getPredefinedCursor(Cursor.WAIT_CURSOR));
        try {
            needed = check.needed(folders);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            setCursor(Cursor.getDefaultCursor());
        }
        if (needed.isEmpty() || needed.get().isEmpty()) {
            return true;
        }
        return RebuildDialog.ask(this, needed.get()) && RebuildDialog.rebuild(this, check, folders);
    }

    /**
     * Run > Find capacity: the highest fixed rate one environment of the form's experiment keeps within its
     * {@code capacity:} objectives, searched as {@code ./envbench capacity} searches it, in a window of its own with the
     * knee chart; the steps go to {@code results/NAME-capacity-TIME/capacity/}. Returns the window, or null when the
     * experiment cannot be searched (said in a message).
     *
     * @param environment the environment to search; null asks, offering the baseline first
     */
    public CapacityDialog findCapacity(String environment) {
        if (runView.running() || searching()) {
            // two loads at once would measure each other, and could start two environments on one port
            JOptionPane.showMessageDialog(
                    this,
                    (searching() ? "A capacity search" : "A run") + " is going on; search when it has ended.",
                    "Find capacity",
                    JOptionPane.INFORMATION_MESSAGE);
            return null;
        }
        Optional<Experiment> parsed = formExperiment();
        if (parsed.isEmpty()) {
            return null;
        }
        Experiment e = parsed.get();
        if (e.load().http().isEmpty()) {
            JOptionPane.showMessageDialog(
                    this,
                    "A capacity search raises the rate of the built-in HTTP load; this experiment's load is another"
                            + " (a plan or a command). Choose Load: built-in HTTP.",
                    "No capacity to search",
                    JOptionPane.ERROR_MESSAGE);
            return null;
        }
        String env = environment;
        if (env == null) {
            List<String> names = new ArrayList<>(e.environmentNames());
            names.remove(e.baseline());
            names.add(0, e.baseline());
            Object chosen = JOptionPane.showInputDialog(
                    this,
                    "The environment whose capacity to search (objectives: "
                            + String.join(
                                    ", ",
                                    e.capacity().slo().stream()
                                            .map(Objective::text)
                                            .toList()) + ")",
                    "Find capacity",
                    JOptionPane.QUESTION_MESSAGE,
                    null,
                    names.toArray(),
                    names.get(0));
            if (chosen == null) {
                return null;
            }
            env = chosen.toString();
        }
        if (!imagesUpToDate(e)) {
            return null;
        }
        try {
            ExperimentRun run = ExperimentRun.prepare(
                    e, RunDirectory.timestamped(resultsDir, e.name() + "-capacity"), ExperimentRun.Settings.of(root));
            CapacityDialog d = new CapacityDialog(this, run, env).start();
            capacity = d;
            d.setVisible(true);
            return d;
        } catch (InvalidSettingException ex) {
            JOptionPane.showMessageDialog(
                    this, ex.getMessage(), "The capacity cannot be searched here", JOptionPane.ERROR_MESSAGE);
            return null;
        }
    }

    /** Whether a capacity search started here has not ended. */
    private boolean searching() {
        return capacity != null && !capacity.found().isDone();
    }

    /** The form's experiment as the core reads it; empty when it cannot be read, which a message then says. */
    private Optional<Experiment> formExperiment() {
        try {
            return Optional.of(editor.draft().parse(editor.fileOrNominal(), root.resolve("targets")));
        } catch (ExperimentException ex) {
            JOptionPane.showMessageDialog(
                    this, ex.getMessage(), "The experiment cannot run yet", JOptionPane.ERROR_MESSAGE);
            return Optional.empty();
        }
    }

    public void cancelRun() {
        if (execution != null) {
            execution.cancel();
        }
    }

    private JMenuBar menus() {
        JMenuBar bar = new JMenuBar();
        JMenu file = new JMenu("File");
        file.setMnemonic('F');
        file.add(item("New experiment", 'N', KeyEvent.VK_N, () -> {
            if (confirmDiscard()) {
                // the target one works on, with the load that fits it; after a multi-tenant one, the demo's
                editor.newExperiment(
                        editor.draft().multiTenant()
                                ? editor.demoTarget()
                                : editor.draft().get("target"));
                tabs.setSelectedComponent(editor);
            }
        }));
        file.add(item("New multi-tenant experiment", 'M', 0, () -> {
            if (confirmDiscard()) {
                editor.load(ExperimentText.newMultiTenantExperiment(), null);
                tabs.setSelectedComponent(editor);
            }
        }));
        file.add(item("Open experiment…", 'O', KeyEvent.VK_O, this::chooseExperiment));
        JMenu examples = new JMenu("Open example");
        examples.setMnemonic('E');
        examples.setName("menu.examples");
        exampleExperiments().forEach(p -> {
            JMenuItem i = new JMenuItem(root.relativize(p).toString());
            i.addActionListener(a -> {
                if (confirmDiscard()) {
                    openExample(p);
                }
            });
            examples.add(i);
        });
        file.add(examples);
        file.addSeparator();
        file.add(item("Save", 'S', KeyEvent.VK_S, this::save));
        file.add(item("Save as…", 'A', 0, this::saveAs));
        file.addSeparator();
        file.add(item("Quit", 'Q', KeyEvent.VK_Q, this::quit));
        JMenu runMenu = new JMenu("Run");
        runMenu.setMnemonic('R');
        bind(runItem, 'R', KeyEvent.VK_R, () -> run(false));
        bind(quickItem, 'Q', 0, () -> run(true));
        bind(cancelItem, 'C', KeyEvent.VK_PERIOD, this::cancelRun);
        runItem.setName("menu.run");
        quickItem.setName("menu.runQuick");
        cancelItem.setName("menu.cancel");
        cancelItem.setEnabled(false);
        runMenu.add(runItem);
        runMenu.add(quickItem);
        runMenu.add(cancelItem);
        runMenu.addSeparator();
        JMenuItem capacityItem = item("Find capacity…", 'F', 0, () -> findCapacity(null));
        capacityItem.setName("menu.capacity");
        capacityItem.setToolTipText("the highest fixed rate an environment keeps within the file's capacity: objectives"
                + " (./envbench capacity), with its knee chart");
        runMenu.add(capacityItem);
        JMenu results = new JMenu("Results");
        results.setMnemonic('E');
        results.add(item("Show past runs", 'P', 0, () -> {
            resultsView.refreshHistory();
            tabs.setSelectedComponent(resultsView);
        }));
        bar.add(file);
        bar.add(runMenu);
        bar.add(results);
        return bar;
    }

    private JMenuItem item(String text, char mnemonic, int ctrlKey, Runnable action) {
        return bind(new JMenuItem(text), mnemonic, ctrlKey, action);
    }

    private static JMenuItem bind(JMenuItem i, char mnemonic, int ctrlKey, Runnable action) {
        i.setMnemonic(mnemonic);
        if (ctrlKey != 0) {
            i.setAccelerator(
                    KeyStroke.getKeyStroke(ctrlKey, Toolkit.getDefaultToolkit().getMenuShortcutKeyMaskEx()));
        }
        i.addActionListener(e -> action.run());
        return i;
    }

    private void setRunning(boolean running) {
        runItem.setEnabled(!running);
        quickItem.setEnabled(!running);
        cancelItem.setEnabled(running);
    }

    private List<Path> exampleExperiments() {
        try (Stream<Path> s = Files.list(root.resolve("testplans/experiments"))) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private void chooseExperiment() {
        if (!confirmDiscard()) {
            return;
        }
        JFileChooser c = new JFileChooser(editor.fileOrNominal().getParent().toFile());
        c.setFileFilter(new FileNameExtensionFilter("Experiment files (*.yaml, *.yml)", "yaml", "yml"));
        if (c.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            openExperiment(c.getSelectedFile().toPath());
        }
    }

    /** Saves to the editor's file, or asks where. */
    public boolean save() {
        Optional<Path> f = editor.file();
        if (f.isPresent()
                && editor.fileHasComments()
                && JOptionPane.showConfirmDialog(
                                this,
                                f.get().getFileName()
                                        + " has comments; the form writes the file anew, without them. Save anyway? (No: choose Save as)",
                                "Save",
                                JOptionPane.YES_NO_OPTION)
                        != JOptionPane.YES_OPTION) {
            return false;
        }
        return f.isPresent() ? saveTo(f.get()) : saveAs();
    }

    private boolean saveAs() {
        JFileChooser c = new JFileChooser(editor.fileOrNominal().getParent().toFile());
        c.setSelectedFile(editor.fileOrNominal().toFile());
        c.setFileFilter(new FileNameExtensionFilter("Experiment files (*.yaml)", "yaml"));
        if (c.showSaveDialog(this) != JFileChooser.APPROVE_OPTION) {
            return false;
        }
        Path f = c.getSelectedFile().toPath();
        if (!f.getFileName().toString().matches(".*\\.ya?ml")) {
            f = f.resolveSibling(f.getFileName() + ".yaml");
        }
        if (Files.exists(f)
                && !f.equals(editor.file().orElse(null))
                && JOptionPane.showConfirmDialog(this, f + " exists. Replace it?", "Save as", JOptionPane.YES_NO_OPTION)
                        != JOptionPane.YES_OPTION) {
            return false;
        }
        return saveTo(f);
    }

    /** Writes the editor's experiment file to {@code f}. */
    public boolean saveTo(Path f) {
        try {
            editor.save(f);
            prefs.put(LAST_EXPERIMENT, f.toAbsolutePath().normalize().toString());
            updateTitle();
            return true;
        } catch (IOException e) {
            JOptionPane.showMessageDialog(this, f + ": " + e.getMessage(), "Cannot save", JOptionPane.ERROR_MESSAGE);
            return false;
        }
    }

    private boolean confirmDiscard() {
        if (!editor.dirty()) {
            return true;
        }
        int answer = JOptionPane.showConfirmDialog(
                this,
                "The experiment has unsaved changes. Save them first?",
                "Unsaved changes",
                JOptionPane.YES_NO_CANCEL_OPTION);
        return answer == JOptionPane.NO_OPTION || (answer == JOptionPane.YES_OPTION && save());
    }

    private void quit() {
        if (searching()) {
            // its window goes with this one: the search stops first, as Cancel stops it
            capacity.cancel();
            capacity.found().handle((r, e) -> null).join();
        }
        if (runView.running()
                && JOptionPane.showConfirmDialog(
                                this,
                                "A run is going on. Cancel it and quit? What was recorded is kept.",
                                "Quit",
                                JOptionPane.YES_NO_OPTION)
                        != JOptionPane.YES_OPTION) {
            return;
        }
        if (!confirmDiscard()) {
            return;
        }
        if (runView.running()) {
            // the window closes once the load and the environment are stopped and the partial report is written
            quitWhenStopped = true;
            setTitle("EnvBench controller — stopping the run, then closing");
            tabs.setSelectedComponent(runView);
            tabs.setEnabled(false);
            getJMenuBar().setEnabled(false);
            cancelRun();
            return;
        }
        closeNow();
    }

    private void closeNow() {
        saveLayout();
        dispose();
    }

    private void updateTitle() {
        String name = editor.file().map(f -> f.getFileName().toString()).orElse("new experiment");
        setTitle("EnvBench controller — " + name + (editor.dirty() ? " *" : ""));
    }

    private void openLast() {
        String last = prefs.get(LAST_EXPERIMENT, null);
        if (last != null && Files.isRegularFile(Path.of(last))) {
            try {
                editor.open(Path.of(last));
            } catch (IOException e) {
                // a file that no longer reads: start with a new experiment
            }
        }
    }

    private void restoreLayout() {
        String[] b = prefs.get(BOUNDS, "").split(",");
        Rectangle screen = getGraphicsConfiguration().getBounds();
        if (b.length == 4) {
            try {
                Rectangle r = new Rectangle(
                        Integer.parseInt(b[0]), Integer.parseInt(b[1]), Integer.parseInt(b[2]), Integer.parseInt(b[3]));
                if (screen.intersects(r) && r.width >= 400 && r.height >= 300) {
                    setBounds(r);
                    tabs.setSelectedIndex(Math.max(0, Math.min(2, prefs.getInt(TAB, 0))));
                    return;
                }
            } catch (NumberFormatException e) {
                // not a layout written by this window: use the default
            }
        }
        setSize(Math.min(1400, screen.width), Math.min(900, screen.height));
        setLocationRelativeTo(null);
    }

    private void saveLayout() {
        Rectangle r = getBounds();
        prefs.put(BOUNDS, r.x + "," + r.y + "," + r.width + "," + r.height);
        prefs.putInt(TAB, tabs.getSelectedIndex());
    }
}
