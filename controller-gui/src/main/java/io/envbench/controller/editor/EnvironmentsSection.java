package io.envbench.controller.editor;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.GridBagLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JFileChooser;
import javax.swing.JMenuItem;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.JTextField;
import javax.swing.ListSelectionModel;

import io.envbench.controller.keyboard.TabLeaves;
import io.envbench.study.experiment.EnvironmentPreset;
import io.envbench.study.experiment.ExperimentFields;
import io.envbench.study.experiment.ExperimentFields.Section;
import io.envbench.study.experiment.ExperimentText;
import net.jcip.annotations.NotThreadSafe;

/**
 * The environments to compare: their table (the row the last check found a problem in drawn in red), Add with the
 * core's presets and Remove, and the selected environment's fields below it, the container fields disabled for a
 * bare-metal environment. A multi-tenant experiment has no environments: then it is hidden.
 */
@NotThreadSafe
final class EnvironmentsSection {
    private static final Pattern ENVIRONMENT_FIELD = Pattern.compile("environments\\[(\\d+)\\](?:\\.(.+))?");
    private static final List<String> COLUMNS =
            List.of("name", "placement", "network", "volume.type", "cpuset", "cpus", "memory");
    private static final String USERLAND_PROXY = "dockerDaemon.userlandProxy";
    private static final String STORAGE_DRIVER = "dockerDaemon.storageDriver";
    /** The Docker daemon's settings: they apply wherever a container of the environment runs. */
    private static final List<String> DAEMON_FIELDS = List.of(USERLAND_PROXY, STORAGE_DRIVER);

    private final DraftBinding binding;
    private final PathChooser paths;
    private final Supplier<Optional<String>> dataPath;
    /** The selected environment's fields, by their key in an environment. */
    private final Map<String, JComponent> fields = new LinkedHashMap<>();

    private final JPanel panel = new JPanel(new GridBagLayout());
    private final EnvironmentTableModel rows;
    private final JTable table;
    private final JPanel detail = new JPanel(new GridBagLayout());
    /** The environment the last check found a problem in, or -1: its row is drawn in red. */
    private int bad = -1;

    /**
     * @param recipes the recipes under targets/, an environment's own target's choices
     * @param dataPath where the experiment's target keeps its data, if known: a volume preset's path
     * @param check checks the form now
     */
    EnvironmentsSection(
            DraftBinding binding,
            List<String> recipes,
            PathChooser paths,
            Supplier<Optional<String>> dataPath,
            Runnable check) {
        this.binding = binding;
        this.paths = paths;
        this.dataPath = dataPath;
        rows = new EnvironmentTableModel(binding::draft, COLUMNS);
        table = TabLeaves.of(new JTable(rows)); // Tab leaves the table: it does not select the next environment

        FormRows er = new FormRows(panel);
        er.section("Environments to compare");
        table.setName("environments.table");
        table.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        table.setPreferredScrollableViewportSize(new Dimension(480, 120));
        table.getColumnModel().getColumn(0).setPreferredWidth(180); // names are the longest cells
        table.getColumnModel().getColumn(1).setPreferredWidth(80);
        table.setDefaultRenderer(Object.class, new BadRowRenderer(() -> bad));
        table.getSelectionModel().addListSelectionListener(e -> {
            if (!e.getValueIsAdjusting()) {
                show();
                if (!binding.loading()) {
                    check.run(); // the selected environment's bad field gets its outline
                }
            }
        });
        er.wide(new JScrollPane(table));
        JButton add = new JButton("Add environment ▾");
        add.setName("environments.add");
        add.setMnemonic('A');
        JPopupMenu presets = new JPopupMenu();
        for (EnvironmentPreset p : EnvironmentPreset.values()) {
            JMenuItem item = new JMenuItem(p.title());
            item.setName("preset." + p.name());
            item.addActionListener(e -> add(p));
            presets.add(item);
        }
        add.addActionListener(e -> presets.show(add, 0, add.getHeight()));
        JButton remove = new JButton("Remove");
        remove.setName("environments.remove");
        remove.addActionListener(e -> remove());
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 0));
        buttons.add(add);
        buttons.add(remove);
        er.wide(buttons);

        detail.setBorder(BorderFactory.createTitledBorder("Selected environment"));
        FormRows env = new FormRows(detail);
        env.add("Name", text("name"));
        env.add("Placement", combo("placement", false, List.of("bare", "docker", "podman")));
        env.add("Target", combo("target", true, withNone(recipes)));
        env.add("Client", combo("client", false, choices("client")));
        env.add("Network", combo("network", false, choices("network")));
        env.add("Volume", combo("volume.type", false, choices("volume.type")));
        JPanel source = new JPanel(new BorderLayout(4, 0));
        source.add(text("volume.source"));
        JButton browse = new JButton("…");
        browse.setToolTipText("choose the host folder of a bind volume");
        browse.addActionListener(e -> chooseBindSource());
        source.add(browse, BorderLayout.EAST);
        env.add("Volume source", source);
        env.add("Volume path", text("volume.path"));
        env.add("CPU set", text("cpuset"));
        env.add("CPUs (quota)", text("cpus"));
        env.add("CPU shares", text("cpuShares"));
        env.add("Memory", text("memory"));
        env.add("Seccomp", combo("seccomp", false, choices("seccomp")));
        env.add("Docker userland proxy", combo(USERLAND_PROXY, false, choices(USERLAND_PROXY)));
        env.add("Docker storage driver", combo(STORAGE_DRIVER, false, choices(STORAGE_DRIVER)));
        env.add("Services", text("services"));
        er.wide(detail);
    }

    JPanel panel() {
        return panel;
    }

    void setVisible(boolean visible) {
        panel.setVisible(visible);
    }

    /** A new draft is shown: its environments listed, the first selected. */
    void loaded() {
        rows.fireTableDataChanged();
        if (binding.draft().environmentCount() > 0) {
            table.setRowSelectionInterval(0, 0);
        }
    }

    /** The draft was edited: the rows show it (a placement's change dashes the container cells). */
    void edited() {
        rows.fireTableRowsUpdated(0, Math.max(0, binding.draft().environmentCount() - 1));
    }

    /** A recipe was made: an environment's own target can be it too. */
    void recipesChanged(List<String> recipes) {
        binding.refill(fields.get("target"), withNone(recipes));
    }

    private static List<String> withNone(List<String> recipes) {
        return Stream.concat(Stream.of(""), recipes.stream()).toList();
    }

    /**
     * Shows the selected environment's own values: a choice it leaves out shows what that means (Volume: none), a
     * field that does not apply to its placement is disabled and empty (the file has none of it).
     */
    void show() {
        ExperimentText draft = binding.draft();
        int i = table.getSelectedRow();
        boolean any = i >= 0 && i < draft.environmentCount();
        binding.quietly(() -> {
            fields.forEach((f, c) -> {
                boolean applies = any && applies(draft, i, f);
                String v = applies ? draft.environment(i, f) : "";
                DraftBinding.setText(c, applies && v.isBlank() && c instanceof JComboBox ? blankShows(f) : v);
                c.setEnabled(applies);
            });
            detail.setBorder(BorderFactory.createTitledBorder(
                    any
                            ? "Environment " + (i + 1) + ": " + draft.environment(i, "name")
                                    + (draft.isContainer(i) ? "" : " (bare metal: no container options)")
                            : "No environment selected"));
        });
    }

    /**
     * Whether a field applies to environment {@code i}: a container's fields to a container; the Docker daemon's
     * setting also to a bare-metal environment with services of its own in containers (study 001's nginx-bridge).
     */
    private static boolean applies(ExperimentText draft, int i, String field) {
        if (DAEMON_FIELDS.contains(field)) {
            return draft.isContainer(i) || !draft.environment(i, "services").isBlank();
        }
        return !ExperimentText.CONTAINER_FIELDS.contains(field) || draft.isContainer(i);
    }

    /** What a drop-down shows for a field the environment leaves out: the catalogue's default (Volume: none). */
    private static String blankShows(String field) {
        return ExperimentFields.formField(Section.ENVIRONMENT, field)
                .map(ExperimentFields.Field::defaultText)
                .orElse("");
    }

    /** A choice's options from the catalogue, so the form offers what the file takes. */
    private static List<String> choices(String field) {
        return ExperimentFields.formField(Section.ENVIRONMENT, field)
                .map(ExperimentFields.Field::choices)
                .orElseThrow(() -> new IllegalStateException("no field " + field + " in ExperimentFields.ENVIRONMENT"));
    }

    /** Forgets the last check's problem: no field outlined, no row red. Returns the row that was red, or -1. */
    int clearProblem() {
        fields.values().forEach(c -> DraftBinding.outline(c, false));
        int was = bad;
        bad = -1;
        return was;
    }

    /**
     * Shows a problem in an environment: its row red, and its field outlined when that environment is selected (the
     * selection stays where the user is typing). False when the problem is not in an environment.
     */
    boolean outline(String fieldPath) {
        Matcher m = ENVIRONMENT_FIELD.matcher(fieldPath);
        if (!m.matches()) {
            return false;
        }
        bad = Integer.parseInt(m.group(1));
        table.repaint();
        JComponent c = m.group(2) == null ? null : fields.get(m.group(2));
        if (c != null && table.getSelectedRow() == bad) {
            DraftBinding.outline(c, true);
        }
        return true;
    }

    /** Redraws the table when the row in red is no longer {@code wasBad}. */
    void repaintIfMoved(int wasBad) {
        if (wasBad != bad) {
            table.repaint();
        }
    }

    private void add(EnvironmentPreset p) {
        ExperimentText draft = binding.draft();
        String name = p.defaultName();
        for (int n = 2; draft.environmentNames().contains(name); n++) {
            name = p.defaultName() + "-" + n;
        }
        Map<String, String> fields = p.fields(name);
        if (fields.containsKey("volume.path")) {
            dataPath.get().ifPresent(path -> fields.put("volume.path", path)); // where the target keeps its data
        }
        int i = draft.addEnvironment(fields);
        rows.fireTableDataChanged();
        table.setRowSelectionInterval(i, i);
        binding.changed();
    }

    private void remove() {
        ExperimentText draft = binding.draft();
        int i = table.getSelectedRow();
        if (i < 0) {
            return;
        }
        draft.removeEnvironment(i);
        rows.fireTableDataChanged();
        if (draft.environmentCount() > 0) {
            int next = Math.min(i, draft.environmentCount() - 1);
            table.setRowSelectionInterval(next, next);
        }
        show();
        binding.changed();
    }

    private void chooseBindSource() {
        JFileChooser c = new JFileChooser(paths.folder().toFile());
        c.setFileSelectionMode(JFileChooser.DIRECTORIES_ONLY);
        paths.choose(c).ifPresent(p -> DraftBinding.setText(fields.get("volume.source"), p));
    }

    // --- the selected environment's fields, bound to its entry in the draft

    private JTextField text(String field) {
        JTextField t = new JTextField(18);
        bind(field, t);
        t.getDocument().addDocumentListener(binding.onEdit(() -> {
            set(field, t.getText());
            if (field.equals("services")) {
                refreshDaemonFields(); // services in containers make the Docker daemon's settings apply
            }
        }));
        return t;
    }

    private JComboBox<String> combo(String field, boolean editable, List<String> choices) {
        JComboBox<String> c = new JComboBox<>(choices.toArray(String[]::new));
        c.setEditable(editable);
        bind(field, c);
        c.addActionListener(e -> {
            if (!binding.loading()) {
                set(field, DraftBinding.comboText(c));
                if (field.equals("placement")) {
                    show();
                }
                binding.changed();
            }
        });
        return c;
    }

    private void refreshDaemonFields() {
        int i = table.getSelectedRow();
        if (i >= 0 && i < binding.draft().environmentCount()) {
            for (String f : DAEMON_FIELDS) {
                fields.get(f).setEnabled(applies(binding.draft(), i, f));
            }
        }
    }

    private void bind(String field, JComponent c) {
        c.setName("env." + field);
        c.setToolTipText(DraftBinding.tip(Section.ENVIRONMENT, field));
        fields.put(field, c);
    }

    private void set(String field, String value) {
        int i = table.getSelectedRow();
        if (i >= 0 && i < binding.draft().environmentCount()) {
            binding.draft().environment(i, field, value);
        }
    }
}
