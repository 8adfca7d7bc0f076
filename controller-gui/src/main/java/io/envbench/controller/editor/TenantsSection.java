package io.envbench.controller.editor;

import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.GridBagLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.swing.ButtonGroup;
import javax.swing.DefaultCellEditor;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JPanel;
import javax.swing.JRadioButton;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.ListSelectionModel;

import io.envbench.controller.keyboard.TabLeaves;
import io.envbench.study.experiment.ExperimentText;
import net.jcip.annotations.NotThreadSafe;

/**
 * A multi-tenant experiment's tenants and configurations, shown instead of the environments: the fields the tenants
 * share; the tenants either as the scenario (count, high tenants, the low and high loads) or each written out in a
 * table, only the chosen form's fields enabled; and the configurations to compare in a table (cpuControl and
 * interruptSteering as drop-downs, the loop's period only for dynamic). A row the last check found a problem in is
 * drawn in red.
 */
@NotThreadSafe
final class TenantsSection {
    /** A tenant written out ({@code tenants.each[2].cpuset}) or a configuration ({@code configurations[1].cpuControl}). */
    private static final Pattern ROW_FIELD = Pattern.compile("(tenants\\.each|configurations)\\[(\\d+)\\](?:\\..+)?");

    private final DraftBinding binding;
    private final JPanel panel = new JPanel(new GridBagLayout());
    private final JRadioButton scenarioForm = new JRadioButton("Scenario: count, low and high");
    private final JRadioButton eachForm = new JRadioButton("Each tenant written out");
    private final List<JComponent> scenarioOnly = new ArrayList<>();
    private final RowsModel tenantRows;
    private final JTable tenantTable;
    private final JScrollPane tenantScroll;
    private final JComponent tenantButtons;
    private final RowsModel configurationRows;
    private final JTable configurationTable;

    TenantsSection(DraftBinding binding) {
        this.binding = binding;
        tenantRows = new RowsModel(binding::draft, ExperimentText.TENANT_FIELDS, true, binding::changed);
        tenantTable = TabLeaves.of(new JTable(tenantRows)); // Tab leaves for the next field, as from the environments
        configurationRows = new RowsModel(binding::draft, ExperimentText.CONFIGURATION_FIELDS, false, binding::changed);
        configurationTable = TabLeaves.of(new JTable(configurationRows));

        panel.setName("tenants.section");
        FormRows t = new FormRows(panel);
        t.section("Tenants (all at once, each in its own container)");
        t.add("CPUs shared", binding.text("tenants.cpus"));
        t.add("Users per database", binding.text("tenants.users"));
        t.add("Quotes per database", binding.text("tenants.quotes"));
        t.add("Network", binding.combo("tenants.network", false, List.of("", "bridge", "host")));
        t.add("Memory", binding.text("tenants.memory"));
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
        scenarioOnly.add(t.add("Tenants", binding.text("tenants.count")));
        scenarioOnly.add(t.add("High tenants", binding.text("tenants.highTenants")));
        for (String group : List.of("low", "high")) {
            String g = group.equals("low") ? "Low" : "High";
            scenarioOnly.add(t.add(g + ": threads", binding.text("tenants." + group + ".threads")));
            scenarioOnly.add(t.add(g + ": rate (requests/s)", binding.text("tenants." + group + ".requestsPerSecond")));
            scenarioOnly.add(t.add(g + ": 90% goal (ms)", binding.text("tenants." + group + ".responseTimeGoalMs")));
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
                    int i = binding.draft().addTenant(Map.of("threads", "16", "requestsPerSecond", "190"));
                    tenantRows.fireTableDataChanged();
                    tenantTable.setRowSelectionInterval(i, i);
                    binding.changed();
                },
                () -> {
                    int i = tenantTable.getSelectedRow();
                    if (i >= 0) {
                        binding.draft().removeTenant(i);
                        tenantRows.fireTableDataChanged();
                        binding.changed();
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
        choices(configurationTable, "floating", "", "unpinned", "all", "spare");
        configurationTable.setToolTipText(
                "cpuControl: none (every tenant floats), static (low tenants pinned), dynamic (a loop releases the "
                        + "largest tenant of a saturated home and pins it again when the home has room); interruptSteering on needs root; the loop's period (s) only for dynamic; "
                        + "floating: where tenants not pinned run (unpinned CPUs, all, or spare: every CPU at the lowest weight)");
        t.wide(new JScrollPane(configurationTable));
        t.wide(rowButtons(
                "configurations",
                "Add configuration",
                () -> {
                    ExperimentText draft = binding.draft();
                    int i = draft.addConfiguration(Map.of(
                            "name",
                            "configuration-" + (draft.configurationCount() + 1),
                            "cpuControl",
                            "none",
                            "interruptSteering",
                            "off"));
                    configurationRows.fireTableDataChanged();
                    configurationTable.setRowSelectionInterval(i, i);
                    binding.changed();
                },
                () -> {
                    int i = configurationTable.getSelectedRow();
                    if (i >= 0) {
                        binding.draft().removeConfiguration(i);
                        configurationRows.fireTableDataChanged();
                        binding.changed();
                    }
                }));
        panel.setVisible(false);
    }

    JPanel panel() {
        return panel;
    }

    void setVisible(boolean visible) {
        panel.setVisible(visible);
    }

    /** A new draft is shown: its tenants' form chosen, its tenants and configurations listed. */
    void loaded() {
        ExperimentText d = binding.draft();
        scenarioForm.setSelected(d.tenantsForm() == ExperimentText.TenantsForm.SCENARIO);
        eachForm.setSelected(d.tenantsForm() == ExperimentText.TenantsForm.EACH);
        tenantRows.fireTableDataChanged();
        configurationRows.fireTableDataChanged();
    }

    /** Enables the fields of the tenants' form the draft has: the scenario's, or the table of tenants. */
    void showForm() {
        boolean scenario = binding.draft().tenantsForm() == ExperimentText.TenantsForm.SCENARIO;
        scenarioOnly.forEach(c -> LabelledField.setEnabledDeep(c, scenario));
        LabelledField.setEnabledDeep(tenantScroll, !scenario);
        LabelledField.setEnabledDeep(tenantButtons, !scenario);
    }

    /** Forgets the last check's problem: no row red. */
    void clearProblem() {
        tenantRows.bad = -1;
        configurationRows.bad = -1;
    }

    /** Marks the row a problem is in, if it is a tenant written out or a configuration; false when not. */
    boolean outline(String fieldPath) {
        Matcher row = ROW_FIELD.matcher(fieldPath);
        if (!row.matches()) {
            return false;
        }
        (row.group(1).equals("configurations") ? configurationRows : tenantRows).bad = Integer.parseInt(row.group(2));
        return true;
    }

    /** Redraws the tables (a row in red may have changed). */
    void repaint() {
        tenantTable.repaint();
        configurationTable.repaint();
    }

    private void tenantsForm(ExperimentText.TenantsForm form) {
        ExperimentText draft = binding.draft();
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
        showForm();
        binding.changed();
    }

    private static int parseOr(String text, int otherwise) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static JPanel rowButtons(String name, String addText, Runnable add, Runnable remove) {
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
}
