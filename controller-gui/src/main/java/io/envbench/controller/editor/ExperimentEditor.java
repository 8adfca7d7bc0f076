package io.envbench.controller.editor;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Font;
import java.awt.GridBagLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.swing.BorderFactory;
import javax.swing.ButtonGroup;
import javax.swing.DefaultCellEditor;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JFileChooser;
import javax.swing.JLabel;
import javax.swing.JMenuItem;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JRadioButton;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.JTable;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.ListSelectionModel;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import javax.swing.filechooser.FileNameExtensionFilter;
import javax.swing.table.DefaultTableCellRenderer;
import javax.swing.text.JTextComponent;

import io.envbench.base.recipe.TargetRecipe;
import io.envbench.study.experiment.CommandOutput;
import io.envbench.study.experiment.EnvironmentPreset;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFields;
import io.envbench.study.experiment.ExperimentFields.Section;
import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.LoadPlan;
import net.jcip.annotations.NotThreadSafe;

/**
 * The experiment editor: a form over an experiment file. Every choice is a drop-down, the recipes found under
 * {@code targets/} are listed, container fields are disabled for a bare-metal environment, each change is checked
 * by the core's reader as one types (the message names the field, and the field is outlined), and the file the
 * form writes is shown read-only beside it. The event thread owns it.
 */
@NotThreadSafe
public final class ExperimentEditor extends JPanel {
    private static final Pattern ENVIRONMENT_FIELD = Pattern.compile("environments\\[(\\d+)\\](?:\\.(.+))?");
    /** A tenant written out ({@code tenants.each[2].cpuset}) or a configuration ({@code configurations[1].cpuControl}). */
    private static final Pattern ROW_FIELD = Pattern.compile("(tenants\\.each|configurations)\\[(\\d+)\\](?:\\..+)?");

    private static final List<String> ENV_COLUMNS =
            List.of("name", "placement", "network", "volume.type", "cpuset", "cpus", "memory");

    private final Path root;
    private final Path targets;
    private ExperimentText draft;
    private Path file;
    private boolean loading;
    private boolean dirty;
    private final List<Consumer<ExperimentEditor>> changeListeners = new ArrayList<>();

    private final Map<String, JComponent> fields = new LinkedHashMap<>();
    /** What a field the file leaves out is: shown in its drop-down, not written. */
    private final Map<String, String> defaults = new HashMap<>();

    private final Map<String, JComponent> environmentFields = new LinkedHashMap<>();
    private final JTextArea yaml = new JTextArea();
    private final JLabel status = new JLabel(" ");
    private final EnvironmentTableModel environmentRows = new EnvironmentTableModel(() -> draft, ENV_COLUMNS);
    private final JTable environmentTable = new JTable(environmentRows);
    private final JRadioButton httpLoad = new JRadioButton("Built-in HTTP load");
    private final JRadioButton planLoad = new JRadioButton("JMeter plan");
    private final List<JComponent> httpOnly = new ArrayList<>();
    private final List<JComponent> planOnly = new ArrayList<>();
    private final JRadioButton commandLoad = new JRadioButton("Command (bonnie++)");
    private final List<JComponent> commandOnly = new ArrayList<>();
    private JComponent warmupRow;
    private final JPanel environmentDetail = new JPanel(new GridBagLayout());
    /** Shown for a comparison of environments; {@link #tenantsPanel} instead for a multi-tenant experiment. */
    private final JPanel environmentsSection = new JPanel(new GridBagLayout());

    private final JPanel tenantsPanel = new JPanel(new GridBagLayout());
    private final JRadioButton scenarioForm = new JRadioButton("Scenario: count, low and high");
    private final JRadioButton eachForm = new JRadioButton("Each tenant written out");
    private final List<JComponent> scenarioOnly = new ArrayList<>();
    private final RowsModel tenantRows = new RowsModel(() -> draft, ExperimentText.TENANT_FIELDS, true, this::changed);
    private final JTable tenantTable = new JTable(tenantRows);
    private JComponent tenantButtons;
    private JScrollPane tenantScroll;
    private final RowsModel configurationRows =
            new RowsModel(() -> draft, ExperimentText.CONFIGURATION_FIELDS, false, this::changed);
    private final JTable configurationTable = new JTable(configurationRows);
    private final Timer checkSoon = new Timer(150, e -> check());
    private Optional<ExperimentException> problem = Optional.empty();
    /** The environment the last check found a problem in, or -1: its row is drawn in red. */
    private int badEnvironment = -1;

    /**
     * @param root the EnvBench folder: {@code targets/} for the recipes, {@code testplans/} for the plans
     */
    public ExperimentEditor(Path root) {
        super(new BorderLayout());
        this.root = root;
        this.targets = root.resolve("targets");
        checkSoon.setRepeats(false);
        setName("experiment.editor");

        JPanel form = new JPanel(new GridBagLayout());
        FormRows rows = new FormRows(form);
        rows.section("Experiment");
        rows.add("Name", text("name"));
        rows.add("Description", text("description"));
        JPanel target = new JPanel(new BorderLayout(4, 0));
        target.add(combo("target", true, recipes()));
        JButton newTarget = new JButton("New target…");
        newTarget.setName("target.new");
        newTarget.setToolTipText("a recipe of your own: a host command line plus an image or a Dockerfile");
        newTarget.addActionListener(
                e -> new NewTargetDialog(SwingUtilities.getWindowAncestor(this), targets, this::targetCreated)
                        .setVisible(true));
        target.add(newTarget, BorderLayout.EAST);
        rows.add("Target", target);

        FormRows er = new FormRows(environmentsSection);
        er.section("Environments to compare");
        environmentTable.setName("environments.table");
        environmentTable.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        environmentTable.setPreferredScrollableViewportSize(new Dimension(480, 120));
        environmentTable.getColumnModel().getColumn(0).setPreferredWidth(180); // names are the longest cells
        environmentTable.getColumnModel().getColumn(1).setPreferredWidth(80);
        environmentTable.setDefaultRenderer(Object.class, new DefaultTableCellRenderer() {
            @Override
            public Component getTableCellRendererComponent(
                    JTable t, Object v, boolean selected, boolean focus, int row, int col) {
                Component c = super.getTableCellRendererComponent(t, v, selected, focus, row, col);
                c.setForeground(
                        row == badEnvironment
                                ? new Color(0xB00020)
                                : selected ? t.getSelectionForeground() : t.getForeground());
                return c;
            }
        });
        environmentTable.getSelectionModel().addListSelectionListener(e -> {
            if (!e.getValueIsAdjusting()) {
                showEnvironment();
                if (!loading) {
                    check(); // the selected environment's bad field gets its outline
                }
            }
        });
        er.wide(new JScrollPane(environmentTable));
        JButton add = new JButton("Add environment ▾");
        add.setName("environments.add");
        add.setMnemonic('A');
        JPopupMenu presets = new JPopupMenu();
        for (EnvironmentPreset p : EnvironmentPreset.values()) {
            JMenuItem item = new JMenuItem(p.title());
            item.setName("preset." + p.name());
            item.addActionListener(e -> addEnvironment(p));
            presets.add(item);
        }
        add.addActionListener(e -> presets.show(add, 0, add.getHeight()));
        JButton remove = new JButton("Remove");
        remove.setName("environments.remove");
        remove.addActionListener(e -> removeEnvironment());
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 0));
        buttons.add(add);
        buttons.add(remove);
        er.wide(buttons);
        environmentDetail.setBorder(BorderFactory.createTitledBorder("Selected environment"));
        FormRows env = new FormRows(environmentDetail);
        env.add("Name", envText("name"));
        env.add("Placement", envCombo("placement", false, "bare", "docker"));
        env.add(
                "Target",
                envCombo(
                        "target",
                        true,
                        Stream.concat(Stream.of(""), recipes().stream()).toList()));
        env.add("Client", envCombo("client", false, "", "inside", "host", "container"));
        env.add("Network", envCombo("network", false, "", "bridge", "host"));
        env.add("Volume", envCombo("volume.type", false, "none", "bind", "named", "tmpfs"));
        JPanel source = new JPanel(new BorderLayout(4, 0));
        source.add(envText("volume.source"));
        JButton browse = new JButton("…");
        browse.setToolTipText("choose the host folder of a bind volume");
        browse.addActionListener(e -> chooseBindSource());
        source.add(browse, BorderLayout.EAST);
        env.add("Volume source", source);
        env.add("Volume path", envText("volume.path"));
        env.add("CPU set", envText("cpuset"));
        env.add("CPUs (quota)", envText("cpus"));
        env.add("CPU shares", envText("cpuShares"));
        env.add("Memory", envText("memory"));
        env.add("Docker userland proxy", envText("dockerDaemon.userlandProxy"));
        env.add("Services", envText("services"));
        er.wide(environmentDetail);
        rows.wide(environmentsSection);
        rows.wide(tenantsSection());

        rows.section("Load");
        ButtonGroup kind = new ButtonGroup();
        kind.add(httpLoad);
        kind.add(planLoad);
        kind.add(commandLoad);
        httpLoad.setName("load.kind.http");
        planLoad.setName("load.kind.plan");
        commandLoad.setName("load.kind.command");
        commandLoad.setToolTipText(
                "a program run once per run in each environment's place, its output the result (bonnie++)");
        httpLoad.setMnemonic('H');
        planLoad.setMnemonic('J');
        httpLoad.addActionListener(e -> loadKind(ExperimentText.LoadKind.HTTP));
        planLoad.addActionListener(e -> loadKind(ExperimentText.LoadKind.PLAN));
        commandLoad.addActionListener(e -> loadKind(ExperimentText.LoadKind.COMMAND));
        JPanel kinds = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 0));
        kinds.add(httpLoad);
        kinds.add(planLoad);
        kinds.add(commandLoad);
        rows.wide(kinds);
        httpOnly.add(rows.add("Path", text("load.http.path")));
        httpOnly.add(rows.add("Threads", text("load.http.threads")));
        httpOnly.add(rows.add("Target rate (requests/s)", text("load.http.requestsPerSecond")));
        httpOnly.add(rows.add("Ramp-up (s)", text("load.http.rampUpSeconds")));
        JPanel plan = new JPanel(new BorderLayout(4, 0));
        plan.add(combo("load.plan", true, plans()));
        JButton browsePlan = new JButton("…");
        browsePlan.setToolTipText("choose a JMeter plan (.jmx)");
        browsePlan.addActionListener(e -> choosePlan());
        plan.add(browsePlan, BorderLayout.EAST);
        planOnly.add(rows.add("Plan", plan));
        JTextArea properties = area("load.properties", 3);
        planOnly.add(rows.add("Properties", scroll(properties)));
        commandOnly.add(rows.add("Command", text("load.command.run")));
        commandOnly.add(rows.add(
                "Output",
                combo(
                        "load.command.output",
                        false,
                        Arrays.stream(CommandOutput.values())
                                .map(CommandOutput::yamlName)
                                .toList())));
        commandOnly.add(rows.add("Bare-metal memory", text("load.command.bareMemory")));
        warmupRow = rows.add("Warm-up (s)", text("load.warmupSeconds"));
        rows.add("Duration (s)", text("load.durationSeconds"));

        rows.section("Runs");
        rows.add("Repetitions (a number, or auto)", text("repetitions"));
        rows.add("auto: fewest rounds", text("minRepetitions"));
        rows.add("auto: most rounds", text("maxRepetitions"));
        rows.add("auto: stop when intervals within", text("intervalWidth"));
        rows.add("Order", combo("order", false, List.of("interleaved", "randomized")));
        rows.add("Seed", text("seed"));
        rows.add("Baseline", combo("baseline", true, List.of()));
        rows.add("Criteria", scroll(area("criteria", 5)));

        rows.section("What the verdicts stand on");
        rows.add("Load generator's CPUs", choice("isolation"));
        rows.add("Verdicts where JMeter set the pace", choice("allowGeneratorBound"));
        rows.add("Baseline against itself", choice("calibration"));
        rows.add("Correction of p-values", choice("correction"));

        rows.section("Where the load goes");
        rows.add("Port", text("port"));
        rows.add("Ready timeout (s)", text("readyTimeoutSeconds"));
        rows.end();

        yaml.setName("experiment.yaml");
        yaml.setEditable(false);
        yaml.setFont(new Font(Font.MONOSPACED, Font.PLAIN, yaml.getFont().getSize()));
        yaml.setToolTipText("the experiment file the form writes: ./envbench run takes it as saved");
        JPanel yamlPanel = new JPanel(new BorderLayout());
        JLabel yamlTitle = new JLabel("The experiment file (read-only)");
        yamlTitle.setBorder(BorderFactory.createEmptyBorder(4, 6, 4, 6));
        yamlPanel.add(yamlTitle, BorderLayout.NORTH);
        yamlPanel.add(new JScrollPane(yaml));
        JScrollPane formScroll = new JScrollPane(form);
        formScroll.getVerticalScrollBar().setUnitIncrement(16);
        JSplitPane split = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, formScroll, yamlPanel);
        split.setName("editor.split");
        split.setResizeWeight(0.6);
        add(split);
        status.setName("editor.status");
        status.setBorder(BorderFactory.createEmptyBorder(4, 8, 4, 8));
        add(status, BorderLayout.SOUTH);
        load(ExperimentText.newExperiment(recipes().isEmpty() ? "" : recipes().get(0)), null);
    }

    /** Shows a draft; {@code file} is where it was read from (null: not saved yet). */
    public void load(ExperimentText d, Path file) {
        this.draft = d;
        this.file = file;
        refill(fields.get("load.plan"), plans()); // relative to this file's folder
        loading = true;
        try {
            // a field the file leaves out shows what it then is: its default
            fields.forEach((f, c) -> setText(c, d.get(f).isBlank() ? defaults.getOrDefault(f, "") : d.get(f)));
            httpLoad.setSelected(d.loadKind() == ExperimentText.LoadKind.HTTP);
            planLoad.setSelected(d.loadKind() == ExperimentText.LoadKind.PLAN);
            commandLoad.setSelected(d.loadKind() == ExperimentText.LoadKind.COMMAND);
            environmentRows.fireTableDataChanged();
            if (d.environmentCount() > 0) {
                environmentTable.setRowSelectionInterval(0, 0);
            }
            scenarioForm.setSelected(d.tenantsForm() == ExperimentText.TenantsForm.SCENARIO);
            eachForm.setSelected(d.tenantsForm() == ExperimentText.TenantsForm.EACH);
            tenantRows.fireTableDataChanged();
            configurationRows.fireTableDataChanged();
        } finally {
            loading = false;
        }
        showEnvironment();
        showKind();
        showLoadKind();
        dirty = false;
        check();
    }

    /** Opens an experiment file in the form. */
    public void open(Path f) throws IOException {
        load(ExperimentText.fromYaml(Files.readString(f)), f.toAbsolutePath().normalize());
    }

    /** Opens a file as a new, unsaved experiment in the same folder (an example stays as shipped, with its comments). */
    public void openCopy(Path f) throws IOException {
        ExperimentText d = ExperimentText.fromYaml(Files.readString(f));
        Path nominal = fileOrNominalFor(d);
        d.relocate(f.toAbsolutePath().getParent(), nominal.getParent());
        load(d, null);
        dirty = true;
        check();
    }

    /** Whether the file the editor would overwrite has comments that saving would drop. */
    public boolean fileHasComments() {
        try {
            return file != null
                    && Files.readString(file).lines().anyMatch(l -> l.strip().startsWith("#") || l.contains(" #"));
        } catch (IOException e) {
            return false;
        }
    }

    private String relativeToRoot(Path f) {
        return f.startsWith(root) ? root.relativize(f).toString() : f.toString();
    }

    /** Writes the form's file to {@code f}, which becomes the editor's file. */
    public void save(Path f) throws IOException {
        Path to = f.toAbsolutePath().normalize();
        Path from = fileOrNominal().getParent();
        if (!to.getParent().equals(from)) {
            draft.relocate(from, to.getParent()); // relative plans and bind sources keep naming the same files
            load(draft, file);
        }
        Files.writeString(to, draft.toYaml());
        file = f.toAbsolutePath().normalize();
        dirty = false;
        check();
    }

    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    public boolean dirty() {
        return dirty;
    }

    public ExperimentText draft() {
        return draft;
    }

    /** Where the draft is checked as if saved: its file, else a new file in testplans/experiments/. */
    public Path fileOrNominal() {
        return file != null ? file : fileOrNominalFor(draft);
    }

    private Path fileOrNominalFor(ExperimentText d) {
        String name = d.get("name").strip();
        return root.resolve("testplans/experiments")
                .resolve((name.isEmpty() || !name.matches("[A-Za-z0-9_.-]+") ? "untitled" : name) + ".yaml");
    }

    /** The problem the last check found, if any. */
    public Optional<ExperimentException> problem() {
        return problem;
    }

    /** Told after each change of the form (e.g. to update the window's title). */
    public void onChange(Consumer<ExperimentEditor> l) {
        changeListeners.add(l);
    }

    /** Checks the form now (the check also runs shortly after each change). */
    public void check() {
        checkSoon.stop();
        String text = draft.toYaml();
        if (!yaml.getText().equals(text)) {
            yaml.setText(text);
            yaml.setCaretPosition(0);
        }
        problem = draft.check(fileOrNominal(), targets);
        fields.values().forEach(c -> outlineTarget(c).putClientProperty("JComponent.outline", null));
        environmentFields.values().forEach(c -> outlineTarget(c).putClientProperty("JComponent.outline", null));
        int wasBad = badEnvironment;
        badEnvironment = -1;
        tenantRows.bad = -1;
        configurationRows.bad = -1;
        if (problem.isPresent()) {
            ExperimentException e = problem.get();
            status.setForeground(new Color(0xB00020));
            status.setText(e.getMessage());
            status.setToolTipText(e.getMessage());
            outline(e.fieldPath());
        } else {
            status.setForeground(new Color(0x1B5E20));
            String reps = draft.get("repetitions").isBlank()
                    ? "the default repetitions"
                    : draft.get("repetitions")
                            + (draft.get("repetitions").strip().equals("1") ? " repetition" : " repetitions");
            String compared = draft.multiTenant()
                    ? tenantsText() + " under " + draft.configurationCount()
                            + (draft.configurationCount() == 1 ? " configuration" : " configurations")
                    : draft.environmentCount() + (draft.environmentCount() == 1 ? " environment" : " environments");
            status.setText("OK: " + compared + " x " + reps
                    + (file == null
                            ? "; save it to run it with ./envbench run"
                            : dirty
                                    ? "; unsaved changes"
                                    : "; ./envbench run " + relativeToRoot(file) + " runs it as shown"));
            status.setToolTipText(null);
        }
        if (wasBad != badEnvironment) {
            environmentTable.repaint();
        }
        tenantTable.repaint();
        configurationTable.repaint();
        refreshBaselineChoices();
        changeListeners.forEach(l -> l.accept(this));
    }

    private void outline(String fieldPath) {
        Matcher row = ROW_FIELD.matcher(fieldPath);
        if (row.matches()) {
            (row.group(1).equals("configurations") ? configurationRows : tenantRows).bad =
                    Integer.parseInt(row.group(2));
            return;
        }
        Matcher m = ENVIRONMENT_FIELD.matcher(fieldPath);
        if (m.matches()) {
            // the row is marked; the selection stays where the user is typing
            badEnvironment = Integer.parseInt(m.group(1));
            environmentTable.repaint();
            JComponent c = m.group(2) == null ? null : environmentFields.get(m.group(2));
            if (c != null && environmentTable.getSelectedRow() == badEnvironment) {
                outlineTarget(c).putClientProperty("JComponent.outline", "error");
            }
            return;
        }
        String key = fieldPath
                .replaceFirst("^load\\.http\\.(warmupSeconds|durationSeconds)$", "load.$1")
                .replaceFirst("\\[\\d+\\]$", "");
        JComponent c = fields.get(key);
        if (c != null) {
            outlineTarget(c).putClientProperty("JComponent.outline", "error");
        }
    }

    /** A text area shows its outline on its scroll pane. */
    private static JComponent outlineTarget(JComponent c) {
        Container p = c.getParent() == null ? null : c.getParent().getParent();
        return p instanceof JScrollPane s ? s : c;
    }

    private void changed() {
        if (loading) {
            return;
        }
        dirty = true;
        environmentRows.fireTableRowsUpdated(0, Math.max(0, draft.environmentCount() - 1));
        checkSoon.restart();
    }

    /** A recipe was made: list it in the target choices and make it the experiment's target. */
    void targetCreated(String recipe) {
        List<String> all = recipes();
        for (String field : List.of("target")) {
            refill(fields.get(field), all);
        }
        refill(
                environmentFields.get("target"),
                Stream.concat(Stream.of(""), all.stream()).toList());
        setText(fields.get("target"), recipe);
        draft.set("target", recipe);
        changed();
    }

    @SuppressWarnings("unchecked")
    private void refill(JComponent c, List<String> items) {
        JComboBox<String> box = (JComboBox<String>) c;
        boolean was = loading;
        loading = true;
        try {
            String current = comboText(box);
            box.removeAllItems();
            items.forEach(box::addItem);
            setText(box, current);
        } finally {
            loading = was;
        }
    }

    private void addEnvironment(EnvironmentPreset p) {
        String name = p.defaultName();
        for (int n = 2; draft.environmentNames().contains(name); n++) {
            name = p.defaultName() + "-" + n;
        }
        int i = draft.addEnvironment(p.fields(name));
        environmentRows.fireTableDataChanged();
        environmentTable.setRowSelectionInterval(i, i);
        changed();
    }

    private void removeEnvironment() {
        int i = environmentTable.getSelectedRow();
        if (i < 0) {
            return;
        }
        draft.removeEnvironment(i);
        environmentRows.fireTableDataChanged();
        if (draft.environmentCount() > 0) {
            int next = Math.min(i, draft.environmentCount() - 1);
            environmentTable.setRowSelectionInterval(next, next);
        }
        showEnvironment();
        changed();
    }

    private void showEnvironment() {
        int i = environmentTable.getSelectedRow();
        boolean any = i >= 0 && i < draft.environmentCount();
        boolean was = loading;
        loading = true;
        try {
            environmentFields.forEach((f, c) -> {
                setText(c, any ? draft.environment(i, f) : "");
                c.setEnabled(any && (!ExperimentText.CONTAINER_FIELDS.contains(f) || draft.isContainer(i)));
            });
            environmentDetail.setBorder(BorderFactory.createTitledBorder(
                    any
                            ? "Environment " + (i + 1) + ": " + draft.environment(i, "name")
                                    + (draft.isContainer(i) ? "" : " (bare metal: no container options)")
                            : "No environment selected"));
        } finally {
            loading = was;
        }
    }

    private void loadKind(ExperimentText.LoadKind k) {
        draft.loadKind(k);
        showLoadKind();
        changed();
    }

    private void showLoadKind() {
        ExperimentText.LoadKind k = draft.multiTenant()
                ? ExperimentText.LoadKind.PLAN
                : draft.loadKind(); // tenants run a plan's thread group each
        httpOnly.forEach(c -> LabelledField.setEnabledDeep(c, k == ExperimentText.LoadKind.HTTP));
        planOnly.forEach(c -> LabelledField.setEnabledDeep(c, k == ExperimentText.LoadKind.PLAN));
        commandOnly.forEach(c -> LabelledField.setEnabledDeep(c, k == ExperimentText.LoadKind.COMMAND));
        if (warmupRow != null) {
            LabelledField.setEnabledDeep(
                    warmupRow, k != ExperimentText.LoadKind.COMMAND); // a program's output has no warm-up to leave out
        }
        httpLoad.setEnabled(!draft.multiTenant());
        commandLoad.setEnabled(!draft.multiTenant());
    }

    /** Environments, or tenants and configurations: the form shows the experiment's own kind. */
    private void showKind() {
        environmentsSection.setVisible(!draft.multiTenant());
        tenantsPanel.setVisible(draft.multiTenant());
        if (draft.multiTenant()) {
            planLoad.setSelected(true);
        }
        showTenantsForm();
    }

    private void showTenantsForm() {
        boolean scenario = draft.tenantsForm() == ExperimentText.TenantsForm.SCENARIO;
        scenarioOnly.forEach(c -> LabelledField.setEnabledDeep(c, scenario));
        LabelledField.setEnabledDeep(tenantScroll, !scenario);
        LabelledField.setEnabledDeep(tenantButtons, !scenario);
    }

    /** "4 tenants" as the form has them (the scenario's count as typed, or the tenants written out). */
    private String tenantsText() {
        String n = draft.tenantsForm() == ExperimentText.TenantsForm.SCENARIO
                ? draft.get("tenants.count").strip()
                : Integer.toString(draft.tenantCount());
        return n + (n.equals("1") ? " tenant" : " tenants");
    }

    /**
     * The tenants (shared fields; the scenario's count, low and high, or each tenant in a table) and the configurations
     * (a table: cpuControl and interruptSteering as drop-downs, the loop period only for dynamic).
     */
    private JPanel tenantsSection() {
        tenantsPanel.setName("tenants.section");
        FormRows t = new FormRows(tenantsPanel);
        t.section("Tenants (all at once, each in its own container)");
        t.add("CPUs shared", text("tenants.cpus"));
        t.add("Users per database", text("tenants.users"));
        t.add("Quotes per database", text("tenants.quotes"));
        t.add("Network", combo("tenants.network", false, List.of("", "bridge", "host")));
        t.add("Memory", text("tenants.memory"));
        ButtonGroup forms = new ButtonGroup();
        forms.add(scenarioForm);
        forms.add(eachForm);
        scenarioForm.setName("tenants.form.scenario");
        eachForm.setName("tenants.form.each");
        scenarioForm.setToolTipText("the paper's scenarios: count tenants, the last highTenants of them high");
        eachForm.setToolTipText("every tenant with its own load, cpuset and goal");
        scenarioForm.addActionListener(e -> tenantsForm(ExperimentText.TenantsForm.SCENARIO));
        eachForm.addActionListener(e -> tenantsForm(ExperimentText.TenantsForm.EACH));
        JPanel formChoice = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 0));
        formChoice.add(scenarioForm);
        formChoice.add(eachForm);
        t.wide(formChoice);
        scenarioOnly.add(t.add("Tenants", text("tenants.count")));
        scenarioOnly.add(t.add("High tenants", text("tenants.highTenants")));
        for (String group : List.of("low", "high")) {
            String g = group.equals("low") ? "Low" : "High";
            scenarioOnly.add(t.add(g + ": threads", text("tenants." + group + ".threads")));
            scenarioOnly.add(t.add(g + ": rate (requests/s)", text("tenants." + group + ".requestsPerSecond")));
            scenarioOnly.add(t.add(g + ": 90% goal (ms)", text("tenants." + group + ".responseTimeGoalMs")));
        }
        tenantTable.setName("tenants.table");
        tenantTable.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        tenantTable.setPreferredScrollableViewportSize(new Dimension(480, 100));
        tenantTable.setDefaultRenderer(Object.class, tenantRows.renderer());
        choices(tenantTable, "high", "", "true", "false");
        choices(tenantTable, "network", "", "bridge", "host");
        tenantScroll = new JScrollPane(tenantTable);
        t.wide(tenantScroll);
        tenantButtons = rowButtons(
                "tenants",
                "Add tenant",
                () -> {
                    int i = draft.addTenant(Map.of("threads", "4", "requestsPerSecond", "100"));
                    tenantRows.fireTableDataChanged();
                    tenantTable.setRowSelectionInterval(i, i);
                    changed();
                },
                () -> {
                    int i = tenantTable.getSelectedRow();
                    if (i >= 0) {
                        draft.removeTenant(i);
                        tenantRows.fireTableDataChanged();
                        changed();
                    }
                });
        t.wide(tenantButtons);
        t.section("Configurations to compare");
        configurationTable.setName("configurations.table");
        configurationTable.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        configurationTable.setPreferredScrollableViewportSize(new Dimension(480, 90));
        configurationTable.setDefaultRenderer(Object.class, configurationRows.renderer());
        choices(configurationTable, "cpuControl", "none", "static", "dynamic");
        choices(configurationTable, "interruptSteering", "off", "on");
        configurationTable.setToolTipText(
                "cpuControl: none (every tenant floats), static (low tenants pinned), dynamic (a loop releases the "
                        + "largest tenant of a saturated home and pins it again when the home has room); interruptSteering on needs root; the loop's period (s) only for dynamic");
        t.wide(new JScrollPane(configurationTable));
        t.wide(rowButtons(
                "configurations",
                "Add configuration",
                () -> {
                    int i = draft.addConfiguration(Map.of(
                            "name",
                            "configuration-" + (draft.configurationCount() + 1),
                            "cpuControl",
                            "none",
                            "interruptSteering",
                            "off"));
                    configurationRows.fireTableDataChanged();
                    configurationTable.setRowSelectionInterval(i, i);
                    changed();
                },
                () -> {
                    int i = configurationTable.getSelectedRow();
                    if (i >= 0) {
                        draft.removeConfiguration(i);
                        configurationRows.fireTableDataChanged();
                        changed();
                    }
                }));
        tenantsPanel.setVisible(false);
        return tenantsPanel;
    }

    private void tenantsForm(ExperimentText.TenantsForm form) {
        if (draft.tenantsForm() == form) {
            return;
        }
        draft.tenantsForm(form);
        if (form == ExperimentText.TenantsForm.EACH && draft.tenantCount() == 0) {
            // start from the scenario as typed: its tenants written out
            int count = parseOr(draft.get("tenants.count"), 0);
            int high = parseOr(draft.get("tenants.highTenants"), 0);
            for (int i = 0; i < count; i++) {
                String group = i >= count - high ? "high" : "low";
                Map<String, String> fields = new LinkedHashMap<>();
                for (String f : List.of("threads", "requestsPerSecond", "responseTimeGoalMs")) {
                    fields.put(f, draft.get("tenants." + group + "." + f));
                }
                fields.put("high", group.equals("high") ? "true" : "");
                draft.addTenant(fields);
            }
            tenantRows.fireTableDataChanged();
        }
        showTenantsForm();
        changed();
    }

    private static int parseOr(String text, int otherwise) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private JPanel rowButtons(String name, String addText, Runnable add, Runnable remove) {
        JButton a = new JButton(addText);
        a.setName(name + ".add");
        a.addActionListener(e -> add.run());
        JButton r = new JButton("Remove");
        r.setName(name + ".remove");
        r.addActionListener(e -> remove.run());
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 0));
        buttons.add(a);
        buttons.add(r);
        return buttons;
    }

    /** A column edited by choosing one of {@code values}. */
    private static void choices(JTable table, String column, String... values) {
        int c = table.getColumnModel().getColumnIndex(column);
        table.getColumnModel().getColumn(c).setCellEditor(new DefaultCellEditor(new JComboBox<>(values)));
    }

    private void refreshBaselineChoices() {
        @SuppressWarnings("unchecked")
        JComboBox<String> baseline = (JComboBox<String>) fields.get("baseline");
        List<String> names = draft.comparedNames();
        List<String> now = new ArrayList<>();
        for (int i = 0; i < baseline.getItemCount(); i++) {
            now.add(baseline.getItemAt(i));
        }
        if (!now.equals(names)) {
            boolean was = loading;
            loading = true;
            try {
                String current = draft.get("baseline");
                baseline.removeAllItems();
                names.forEach(baseline::addItem);
                baseline.setSelectedItem(current);
            } finally {
                loading = was;
            }
        }
    }

    private void chooseBindSource() {
        JFileChooser c = new JFileChooser(fileOrNominal().getParent().toFile());
        c.setFileSelectionMode(JFileChooser.DIRECTORIES_ONLY);
        if (c.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            setText(
                    environmentFields.get("volume.source"),
                    relative(c.getSelectedFile().toPath()));
        }
    }

    private void choosePlan() {
        JFileChooser c = new JFileChooser(root.resolve("testplans").toFile());
        c.setFileFilter(new FileNameExtensionFilter("JMeter plans (*.jmx)", "jmx"));
        if (c.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            setText(fields.get("load.plan"), relative(c.getSelectedFile().toPath()));
        }
    }

    /** A path as the file should hold it: relative to the experiment file's folder. */
    private String relative(Path chosen) {
        Path folder = fileOrNominal().getParent();
        try {
            return folder.relativize(chosen.toAbsolutePath().normalize()).toString();
        } catch (IllegalArgumentException e) {
            return chosen.toAbsolutePath().toString();
        }
    }

    private List<String> recipes() {
        return TargetRecipe.available(targets);
    }

    /**
     * Plans under testplans/ the runner can run (not those that start environments themselves), relative to the
     * experiment file's folder.
     */
    private List<String> plans() {
        Path plansDir = root.resolve("testplans");
        try (Stream<Path> s = Files.list(plansDir)) {
            Path folder = file != null ? file.getParent() : root.resolve("testplans/experiments");
            return s.filter(p -> p.toString().endsWith(".jmx"))
                    .filter(ExperimentEditor::loadOnly)
                    .map(p -> folder.relativize(p.toAbsolutePath().normalize()).toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean loadOnly(Path plan) {
        try {
            return !LoadPlan.startsEnvironments(plan);
        } catch (IOException e) {
            return false;
        }
    }

    /** A text area's scroll pane that leaves the mouse wheel to the form around it. */
    private static JScrollPane scroll(JTextArea area) {
        JScrollPane s = new JScrollPane(area);
        s.setWheelScrollingEnabled(false);
        return s;
    }

    // --- fields bound to the draft

    private JTextField text(String field) {
        JTextField t = new JTextField(18);
        bind(field, t);
        t.getDocument().addDocumentListener(onEdit(() -> draft.set(field, t.getText())));
        return t;
    }

    private JTextArea area(String field, int rows) {
        JTextArea t = new JTextArea(rows, 18);
        bind(field, t);
        t.getDocument().addDocumentListener(onEdit(() -> draft.set(field, t.getText())));
        return t;
    }

    /** A drop-down of a top-level field's choices from the catalogue (true and false for a switch), its default shown. */
    private JComboBox<String> choice(String field) {
        ExperimentFields.Field f = ExperimentFields.formField(Section.TOP, field)
                .orElseThrow(() -> new IllegalStateException("no field " + field + " in ExperimentFields.TOP"));
        List<String> choices = f.type() == ExperimentFields.Type.BOOLEAN ? List.of("false", "true") : f.choices();
        defaults.put(field, f.defaultText());
        return combo(field, false, choices);
    }

    private JComboBox<String> combo(String field, boolean editable, List<String> choices) {
        JComboBox<String> c = new JComboBox<>(choices.toArray(String[]::new));
        c.setEditable(editable);
        bind(field, c);
        Runnable update = () -> draft.set(field, comboText(c));
        c.addActionListener(e -> {
            if (!loading) {
                update.run();
                changed();
            }
        });
        if (editable) {
            ((JTextComponent) c.getEditor().getEditorComponent()).getDocument().addDocumentListener(onEdit(update));
        }
        return c;
    }

    private JTextField envText(String field) {
        JTextField t = new JTextField(18);
        bindEnvironment(field, t);
        t.getDocument().addDocumentListener(onEdit(() -> setEnvironment(field, t.getText())));
        return t;
    }

    private JComboBox<String> envCombo(String field, boolean editable, String... choices) {
        return envCombo(field, editable, List.of(choices));
    }

    private JComboBox<String> envCombo(String field, boolean editable, List<String> choices) {
        JComboBox<String> c = new JComboBox<>(choices.toArray(String[]::new));
        c.setEditable(editable);
        bindEnvironment(field, c);
        c.addActionListener(e -> {
            if (!loading) {
                setEnvironment(field, comboText(c));
                if (field.equals("placement")) {
                    showEnvironment();
                }
                changed();
            }
        });
        return c;
    }

    private void setEnvironment(String field, String value) {
        int i = environmentTable.getSelectedRow();
        if (i >= 0 && i < draft.environmentCount()) {
            draft.environment(i, field, value);
        }
    }

    private void bind(String field, JComponent c) {
        c.setName(field);
        c.setToolTipText(
                field.startsWith("tenants.")
                        ? tip(Section.TENANTS, field.substring("tenants.".length()))
                        : tip(Section.TOP, field));
        fields.put(field, c);
    }

    private void bindEnvironment(String field, JComponent c) {
        c.setName("env." + field);
        c.setToolTipText(tip(Section.ENVIRONMENT, field));
        environmentFields.put(field, c);
    }

    /** A form field's tooltip: the experiment-file catalogue's doc and default, so the form and the file's reference agree. */
    private static String tip(Section s, String key) {
        return ExperimentFields.formField(s, key)
                .map(ExperimentFields.Field::tip)
                .orElseThrow(() ->
                        new IllegalStateException("the form's field " + key + " is not in ExperimentFields." + s));
    }

    private DocumentListener onEdit(Runnable update) {
        return new DocumentListener() {
            @Override
            public void insertUpdate(DocumentEvent e) {
                edited();
            }

            @Override
            public void removeUpdate(DocumentEvent e) {
                edited();
            }

            @Override
            public void changedUpdate(DocumentEvent e) {
                edited();
            }

            private void edited() {
                if (!loading) {
                    update.run();
                    changed();
                }
            }
        };
    }

    private static String comboText(JComboBox<String> c) {
        if (c.isEditable()) {
            return ((JTextComponent) c.getEditor().getEditorComponent()).getText();
        }
        Object o = c.getSelectedItem();
        return o == null ? "" : o.toString();
    }

    private static void setText(JComponent c, String text) {
        if (c instanceof JTextComponent t) {
            if (!t.getText().equals(text)) {
                t.setText(text);
            }
        } else if (c instanceof JComboBox<?> box) {
            if (box.isEditable()) {
                ((JTextComponent) box.getEditor().getEditorComponent()).setText(text);
            }
            box.setSelectedItem(text);
        }
    }
}
