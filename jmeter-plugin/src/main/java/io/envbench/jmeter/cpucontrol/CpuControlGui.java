package io.envbench.jmeter.cpucontrol;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import javax.swing.BorderFactory;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import javax.swing.table.DefaultTableModel;
import javax.swing.text.JTextComponent;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.jmeter.EnvBenchHelp;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.study.cpucontrol.ControlTimeline;
import io.envbench.study.cpucontrol.CpuAction;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.samplers.Clearable;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.visualizers.gui.AbstractListenerGui;

/**
 * GUI of the EnvBench CPU Control (Listeners menu: like the Resource Monitor it hears every sample and acts for the
 * whole test, not for the samplers in its scope as a Config Element would): its fields (kept in the element), a line
 * that checks them as they are typed (with their {@code ${__P(...)}} expressions evaluated), and a table of the
 * actions of every CPU Control running in this JMeter, live: time, tenant, action, why. Clear and Clear All empty it.
 */
public class CpuControlGui extends AbstractListenerGui implements Clearable {
    private static final long serialVersionUID = 1L;
    /** Rows kept in the table; the timeline file has them all. */
    static final int MAX_ROWS = 5000;

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final JComboBox<String> mode = choices("mode", CpuControl.DEFAULT_MODE, "none", "static", "dynamic");
    private final JTextField interval = text("interval", CpuControl.DEFAULT_INTERVAL, 12);
    private final JTextField highTenants = text("highTenants", CpuControl.DEFAULT_HIGH_TENANTS, 22);
    private final JTextField goals = text("goals", CpuControl.DEFAULT_GOALS, 22);
    private final JTextField cpusPerTenant = text("cpusPerTenant", CpuControl.DEFAULT_CPUS_PER_TENANT, 12);
    private final JComboBox<String> floating =
            choices("floating", CpuControl.DEFAULT_FLOATING, "unpinned", "all", "spare");
    private final JComboBox<String> irqSteering = choices("irqSteering", CpuControl.DEFAULT_IRQ_STEERING, "off", "on");
    private final JComboBox<String> irqBalance =
            choices("irqBalance", CpuControl.DEFAULT_IRQ_BALANCE, "refuse", "pause");
    private final JComboBox<String> rpsSteering = choices("rpsSteering", CpuControl.DEFAULT_RPS_STEERING, "off", "on");
    private final JTextField filename = text("filename", CpuControl.DEFAULT_FILENAME, 28);
    private final JLabel problem = new JLabel(" ");
    private final DefaultTableModel actions =
            new DefaultTableModel(new Object[] {"time", "tenant", "action", "why"}, 0) {
                private static final long serialVersionUID = 1L;

                @Override
                public boolean isCellEditable(int row, int column) {
                    return false;
                }
            };
    private final JLabel status = new JLabel(" ");
    private final transient ControlTimeline onAction = a -> SwingUtilities.invokeLater(() -> add(a));

    public CpuControlGui() {
        setLayout(new BorderLayout());
        setBorder(makeBorder());
        JPanel title = new JPanel(new BorderLayout());
        title.add(makeTitlePanel(), BorderLayout.CENTER);
        title.add(EnvBenchHelp.buttonPanel(EnvBenchHelp.Topic.CPU_CONTROL, this), BorderLayout.EAST);
        add(title, BorderLayout.NORTH);

        mode.setToolTipText(
                "none: nothing changes. static: low tenants pinned to CPUs of their own, high tenants float. dynamic: "
                        + "every interval a saturated home (all the tenants pinned there) releases the tenant using it most, a tenant missing its goal "
                        + "is released, and a floating one is pinned again when it and the home's tenants stay below 50%");
        interval.setToolTipText("Seconds between the dynamic loop's steps, 1 to 10 (default 2)");
        highTenants.setToolTipText(
                "Tenants (environment names) that start floating, separated by commas, e.g. tenant-3; empty: "
                        + "static decides from the first reading, dynamic pins every tenant at first");
        goals.setToolTipText(
                "The 90% line each tenant should stay under, in ms: tenant-1=200,tenant-2=500; dynamic releases a pinned "
                        + "tenant that misses it for 3 steps; empty: CPU alone decides");
        cpusPerTenant.setToolTipText(
                "CPUs a pinned tenant gets (study 004: 2; this 2-CPU machine: 1); with fewer CPUs than tenants, "
                        + "tenants share");
        floating.setToolTipText(
                "Where tenants not pinned run: unpinned (the CPUs no tenant is pinned to), all (every CPU, as study 004), "
                        + "spare (every CPU at the lowest CPU weight: pinned tenants' CPUs lend them only their idle "
                        + "time)");
        irqSteering.setToolTipText(
                "on: the network devices' IRQs pointed at the CPUs no tenant is pinned to, every 10 s (as root; "
                        + "written down and put back at the end)");
        irqBalance.setToolTipText(
                "When irqbalance runs: refuse (the test stops, saying so) or pause (SIGSTOP for the test, resumed "
                        + "after)");
        rpsSteering.setToolTipText(
                "on: the receive processing (RPS masks) of the tenants' veth interfaces pointed at the free CPUs "
                        + "(traffic between local containers is handled in softirq, not by a device IRQ)");
        filename.setToolTipText(
                "CSV of every action: time, seconds, tenant, kind, action, reason. A relative name goes next to the -l "
                        + "results file, else into the working directory; empty: none");
        problem.setName("problem");
        problem.setForeground(new Color(0xB0, 0x00, 0x20));

        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createTitledBorder(
                "Controller (over the containers this JMeter's Target Environment samplers start)"));
        row(form, 0, "Mode:", mode, "Interval (s):", interval);
        row(form, 1, "High tenants:", highTenants, "CPUs per tenant:", cpusPerTenant);
        row(form, 2, "Response-time goals (ms):", goals, "Interrupt steering:", irqSteering);
        row(form, 3, "irqbalance:", irqBalance, "RPS steering:", rpsSteering);
        // on the left, under labels as long as its own and as wide as the irqbalance drop-down above it (its default
        // expression is a character longer): the form is as wide as a 1100-pixel window already, and one wider makes
        // Swing's grid fall back to every field's minimum width
        floating.setPrototypeDisplayValue(CpuControl.DEFAULT_IRQ_BALANCE);
        row(form, 4, "Floating tenants on:", floating, null, null);
        row(form, 5, "Timeline file:", filename, null, null);
        GridBagConstraints c = new GridBagConstraints();
        c.gridy = 6;
        c.gridx = 0;
        c.gridwidth = 4;
        c.anchor = GridBagConstraints.WEST;
        c.fill = GridBagConstraints.HORIZONTAL;
        c.insets = new Insets(4, 6, 2, 6);
        // the row's width, whatever the message's: a long one would widen the form past the window, and Swing's grid
        // then falls back to every field's minimum width (the whole message is the label's tooltip)
        problem.setPreferredSize(new Dimension(1, problem.getPreferredSize().height));
        problem.setMinimumSize(problem.getPreferredSize());
        form.add(problem, c);

        JTable table = new JTable(actions);
        table.setName("actions");
        table.getColumnModel().getColumn(0).setPreferredWidth(70);
        table.getColumnModel().getColumn(1).setPreferredWidth(80);
        table.getColumnModel().getColumn(2).setPreferredWidth(260);
        table.getColumnModel().getColumn(3).setPreferredWidth(520);
        JScrollPane scroll = new JScrollPane(table);
        scroll.setPreferredSize(new Dimension(900, 320));
        status.setName("status");
        status.setBorder(BorderFactory.createEmptyBorder(2, 6, 4, 6));

        JPanel main = new JPanel(new BorderLayout());
        main.add(form, BorderLayout.NORTH);
        JPanel live = new JPanel(new BorderLayout());
        live.setBorder(BorderFactory.createTitledBorder("Actions (live)"));
        live.add(scroll, BorderLayout.CENTER);
        live.add(status, BorderLayout.SOUTH);
        main.add(live, BorderLayout.CENTER);
        add(main, BorderLayout.CENTER);

        List<JTextComponent> typed = new ArrayList<>(List.of(interval, highTenants, goals, cpusPerTenant, filename));
        // a drop-down's text as it is typed too (each takes an expression): checked before Enter, as the fields are
        for (JComboBox<String> b : List.of(mode, irqSteering, irqBalance, rpsSteering, floating)) {
            typed.add((JTextComponent) b.getEditor().getEditorComponent());
        }
        for (JTextComponent f : typed) {
            f.getDocument().addDocumentListener(new DocumentListener() {
                @Override
                public void insertUpdate(DocumentEvent e) {
                    check();
                }

                @Override
                public void removeUpdate(DocumentEvent e) {
                    check();
                }

                @Override
                public void changedUpdate(DocumentEvent e) {
                    check();
                }
            });
        }
        for (JComboBox<String> b : List.of(mode, irqSteering, irqBalance, rpsSteering, floating)) {
            b.addActionListener(e -> check());
        }
        JMeterEnvBench.watchCpuControl(onAction);
        check();
    }

    private static JComboBox<String> choices(String name, String dflt, String... tags) {
        JComboBox<String> b = new JComboBox<>();
        b.addItem(dflt);
        for (String t : tags) {
            b.addItem(t);
        }
        b.setEditable(true); // an expression such as ${__P(...)} as well as a choice
        b.setName(name);
        return b;
    }

    private static JTextField text(String name, String dflt, int columns) {
        // never narrower than the default (a ${__P(...)}), so the whole value shows
        JTextField f = new JTextField(dflt, Math.max(columns, dflt.length() + 2));
        f.setName(name);
        return f;
    }

    private static void row(JPanel form, int y, String label1, JComponent field1, String label2, JComponent field2) {
        GridBagConstraints c = new GridBagConstraints();
        c.gridy = y;
        c.insets = new Insets(2, 6, 2, 6);
        c.anchor = GridBagConstraints.WEST;
        c.gridx = 0;
        JLabel l1 = new JLabel(label1);
        l1.setLabelFor(field1);
        form.add(l1, c);
        c.gridx = 1;
        c.fill = GridBagConstraints.HORIZONTAL;
        form.add(field1, c);
        if (field2 != null) {
            c.fill = GridBagConstraints.NONE;
            c.gridx = 2;
            JLabel l2 = new JLabel(label2);
            l2.setLabelFor(field2);
            form.add(l2, c);
            c.gridx = 3;
            c.fill = GridBagConstraints.HORIZONTAL;
            form.add(field2, c);
        }
    }

    @Override
    public String getLabelResource() {
        return "envbench_cpu_control";
    }

    @Override
    public String getStaticLabel() {
        return CpuControl.TITLE;
    }

    /** JMeter's menu, its Help item opening EnvBench's bundled page at this element (not Apache's reference). */
    @Override
    public JPopupMenu createPopupMenu() {
        return EnvBenchHelp.popupMenu(super.createPopupMenu(), EnvBenchHelp.Topic.CPU_CONTROL, this);
    }

    @Override
    public String getDocAnchor() {
        return EnvBenchHelp.Topic.CPU_CONTROL.anchor();
    }

    @Override
    public TestElement createTestElement() {
        CpuControl c = new CpuControl();
        modifyTestElement(c);
        return c;
    }

    @Override
    public void modifyTestElement(TestElement el) {
        configureTestElement(el);
        CpuControl c = (CpuControl) el;
        c.setMode(value(mode));
        c.setIntervalSeconds(interval.getText());
        c.setHighTenants(highTenants.getText());
        c.setGoals(goals.getText());
        c.setCpusPerTenant(cpusPerTenant.getText());
        c.setFloating(value(floating));
        c.setIrqSteering(value(irqSteering));
        c.setIrqBalance(value(irqBalance));
        c.setRpsSteering(value(rpsSteering));
        c.setFilename(filename.getText());
    }

    @Override
    public void configure(TestElement el) {
        super.configure(el);
        CpuControl c = (CpuControl) el;
        mode.setSelectedItem(c.getMode());
        interval.setText(c.getIntervalSeconds());
        highTenants.setText(c.getHighTenants());
        goals.setText(c.getGoals());
        cpusPerTenant.setText(c.getCpusPerTenant());
        floating.setSelectedItem(c.getFloating());
        irqSteering.setSelectedItem(c.getIrqSteering());
        irqBalance.setSelectedItem(c.getIrqBalance());
        rpsSteering.setSelectedItem(c.getRpsSteering());
        filename.setText(c.getFilename());
        check();
    }

    @Override
    public void clearGui() {
        super.clearGui();
        configure(new CpuControl());
    }

    private static String value(JComboBox<String> b) {
        Object o = b.isEditable() ? b.getEditor().getItem() : b.getSelectedItem();
        return o == null ? "" : o.toString();
    }

    /** JMeter's Clear and Clear All: the table of actions is emptied. */
    @Override
    public void clearData() {
        Runnable clear = () -> {
            actions.setRowCount(0);
            status.setText(" ");
        };
        if (SwingUtilities.isEventDispatchThread()) {
            clear.run();
        } else {
            SwingUtilities.invokeLater(clear);
        }
    }

    /** On the event thread: a row for an action; the oldest dropped beyond {@link #MAX_ROWS}. */
    private void add(CpuAction a) {
        actions.addRow(new Object[] {
            LocalTime.ofInstant(a.at(), ZoneId.systemDefault()).format(CLOCK), a.tenant(), a.action(), a.reason()
        });
        if (actions.getRowCount() > MAX_ROWS) {
            actions.removeRow(0);
        }
        status.setText(actions.getRowCount() + " actions, the last at "
                + LocalTime.ofInstant(a.at(), ZoneId.systemDefault()).format(CLOCK));
    }

    /** The fields as the test would take them (expressions evaluated): the first wrong one named, else nothing. */
    private void check() {
        try {
            CpuControlFields.parse(
                    eval(value(mode), "dynamic"),
                    eval(interval.getText(), "2"),
                    eval(highTenants.getText(), ""),
                    eval(goals.getText(), ""),
                    eval(cpusPerTenant.getText(), "1"),
                    eval(value(irqSteering), "off"),
                    eval(value(irqBalance), "refuse"),
                    eval(value(rpsSteering), "off"),
                    eval(value(floating), "unpinned"));
            problem.setText(" ");
            problem.setToolTipText(null);
        } catch (InvalidSettingException e) {
            problem.setText(e.getMessage());
            problem.setToolTipText(e.getMessage());
        }
    }

    /**
     * The field's value with its expressions evaluated as JMeter would now; one that cannot be evaluated here (a
     * function JMeter has not loaded, a variable of a running thread) is checked when the test starts, so it stands
     * for a valid {@code unchecked} here.
     */
    private static String eval(String text, String unchecked) {
        if (text == null || !text.contains("${")) {
            return text;
        }
        try {
            String v = new CompoundVariable(text).execute();
            return v.contains("${") ? unchecked : v;
        } catch (RuntimeException e) {
            return unchecked;
        }
    }

    /** For tests, on the event thread: the check line. */
    String problemText() {
        return problem.getText();
    }

    /** For tests, on the event thread: the table's rows. */
    int actionRows() {
        return actions.getRowCount();
    }

    /** For tests, on the event thread: a cell of the table. */
    String actionCell(int row, int column) {
        return String.valueOf(actions.getValueAt(row, column));
    }
}
