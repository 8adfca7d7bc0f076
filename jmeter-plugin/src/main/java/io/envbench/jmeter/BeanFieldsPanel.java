package io.envbench.jmeter;

import java.awt.BorderLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.beans.BeanInfo;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ResourceBundle;
import javax.swing.BorderFactory;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JTextField;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import javax.swing.text.JTextComponent;

import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.apache.jmeter.testbeans.gui.SharedCustomizer;

/**
 * The fields of an EnvBench TestBean in JMeter's {@code TestBeanGUI}, with a Help button to the element's section of
 * the bundled page. JMeter's generic customizer takes no extra component, cannot size a field to its value nor
 * disable one field by another's value, so the EnvBench BeanInfos name a subclass of this one as their customizer.
 * Labels, tooltips, groups, defaults and choices still come from the BeanInfo and its resources file, as JMeter's
 * own would show them.
 *
 * <p>TestBeanGUI hands a {@link SharedCustomizer} the element's property map ({@link #setObject}) and saves that
 * map into the element, so every edit goes into the map at once. Confined to the event thread.
 */
public abstract class BeanFieldsPanel extends JPanel implements SharedCustomizer {
    private static final long serialVersionUID = 1L;
    /** Columns a text field gets at least; longer defaults get their own length, so a value shows whole. */
    private static final int MIN_COLUMNS = 24;

    private final transient BeanInfo beanInfo;
    private final EnvBenchHelp.Topic topic;
    private final Map<String, JComponent> editors = new LinkedHashMap<>();
    private final transient Map<String, PropertyDescriptor> descriptors = new LinkedHashMap<>();
    private transient Map<String, Object> values = new LinkedHashMap<>();
    /** Set while {@link #setObject} fills the fields, so filling is not taken for a user's edit. */
    private boolean filling;

    protected BeanFieldsPanel(Class<?> beanClass, EnvBenchHelp.Topic topic) {
        super(new BorderLayout());
        try {
            beanInfo = Introspector.getBeanInfo(beanClass);
        } catch (IntrospectionException e) {
            throw new IllegalStateException("no BeanInfo for " + beanClass.getName(), e);
        }
        ResourceBundle resources =
                (ResourceBundle) beanInfo.getBeanDescriptor().getValue(BeanInfoSupport.RESOURCE_BUNDLE);
        this.topic = topic;
        add(EnvBenchHelp.buttonPanel(topic, this), BorderLayout.NORTH);
        JPanel groups = new JPanel();
        groups.setLayout(new javax.swing.BoxLayout(groups, javax.swing.BoxLayout.Y_AXIS));
        for (Map.Entry<String, List<PropertyDescriptor>> g : groups().entrySet()) {
            JPanel group = new JPanel(new GridBagLayout());
            String title = resources != null && resources.containsKey(g.getKey() + ".displayName")
                    ? resources.getString(g.getKey() + ".displayName")
                    : g.getKey();
            group.setBorder(BorderFactory.createTitledBorder(title));
            int row = 0;
            for (PropertyDescriptor p : g.getValue()) {
                JComponent editor = editor(p);
                editor.setName(p.getName());
                editor.setToolTipText(tooltip(p.getShortDescription()));
                JLabel label = new JLabel(p.getDisplayName());
                label.setToolTipText(tooltip(p.getShortDescription()));
                label.setLabelFor(editor);
                group.add(label, cell(0, row, 0));
                group.add(editor, cell(1, row, 1));
                descriptors.put(p.getName(), p);
                editors.put(p.getName(), editor);
                row++;
            }
            groups.add(group);
        }
        add(groups, BorderLayout.CENTER);
    }

    /** The element's section of the help page, which its Help button opens. */
    public final EnvBenchHelp.Topic topic() {
        return topic;
    }

    /** Choices of a field beyond its BeanInfo's tags (e.g. the targets found on disk); none by default. */
    protected List<String> moreChoices(String property) {
        return List.of();
    }

    /** Called after any field changed, and after the fields were filled: a subclass enables fields by others. */
    protected void fieldsChanged() {}

    /** A field's editor, by property name (tests and subclasses look into it). */
    public final JComponent editor(String property) {
        JComponent e = editors.get(property);
        if (e == null) {
            throw new IllegalArgumentException("no field " + property + " in " + editors.keySet());
        }
        return e;
    }

    /** A tooltip as JMeter's own TestBean fields show theirs (HTML, so a long one is not cut at the screen). */
    protected static String tooltip(String text) {
        return "<html>" + text + "</html>";
    }

    /** A field's tooltip as its BeanInfo's resources say it. */
    protected final String descriptionOf(String property) {
        editor(property);
        return descriptors.get(property).getShortDescription();
    }

    /** A field's value as the user sees it (a choice's text, a tick as true or false). */
    public final String text(String property) {
        JComponent e = editor(property);
        if (e instanceof JCheckBox b) {
            return String.valueOf(b.isSelected());
        }
        if (e instanceof JComboBox<?> c) {
            Object item = c.isEditable() ? c.getEditor().getItem() : c.getSelectedItem();
            return item == null ? "" : item.toString();
        }
        return ((JTextComponent) e).getText();
    }

    /** Every field's editor, in the order shown. */
    public final List<JComponent> editors() {
        return List.copyOf(editors.values());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void setObject(Object bean) {
        values = (Map<String, Object>) bean;
        filling = true;
        try {
            for (Map.Entry<String, JComponent> e : editors.entrySet()) {
                PropertyDescriptor p = descriptors.get(e.getKey());
                Object v = values.get(e.getKey());
                if (v == null && p.getValue(BeanInfoSupport.DEFAULT) != null) {
                    v = p.getValue(BeanInfoSupport.DEFAULT);
                    values.put(e.getKey(), v);
                }
                show(e.getValue(), v == null ? "" : v.toString());
            }
        } finally {
            filling = false;
        }
        fieldsChanged();
    }

    private static void show(JComponent editor, String value) {
        if (editor instanceof JCheckBox b) {
            b.setSelected(Boolean.parseBoolean(value));
        } else if (editor instanceof JComboBox<?> c) {
            c.setSelectedItem(value);
        } else {
            JTextField f = (JTextField) editor;
            f.setText(value);
            f.setCaretPosition(0);
        }
    }

    private void edited(PropertyDescriptor p) {
        if (filling) {
            return;
        }
        String text = text(p.getName());
        values.put(p.getName(), typed(p.getPropertyType(), text));
        fieldsChanged();
    }

    /** A number where the bean takes one and the text is one; else the text (a ${...} expression), as JMeter's own. */
    private static Object typed(Class<?> type, String text) {
        try {
            if (type == boolean.class || type == Boolean.class) {
                return Boolean.valueOf(text);
            }
            if (type == double.class || type == Double.class) {
                return Double.valueOf(text.trim());
            }
            if (type == long.class || type == Long.class) {
                return Long.valueOf(text.trim());
            }
            if (type == int.class || type == Integer.class) {
                return Integer.valueOf(text.trim());
            }
        } catch (NumberFormatException e) {
            return text;
        }
        return text;
    }

    private JComponent editor(PropertyDescriptor p) {
        Object dflt = p.getValue(BeanInfoSupport.DEFAULT);
        int columns = Math.max(MIN_COLUMNS, dflt == null ? 0 : dflt.toString().length() + 2);
        if (p.getPropertyType() == boolean.class || p.getPropertyType() == Boolean.class) {
            JCheckBox b = new JCheckBox();
            b.addActionListener(e -> edited(p));
            return b;
        }
        List<String> choices = new ArrayList<>();
        if (p.getValue(BeanInfoSupport.TAGS) instanceof String[] tags) {
            choices.addAll(List.of(tags));
        }
        List<String> more = moreChoices(p.getName());
        if (!more.isEmpty()
                && choices.isEmpty()
                && dflt != null
                && !dflt.toString().isEmpty()) {
            choices.add(dflt.toString());
        }
        for (String m : more) {
            if (!choices.contains(m)) {
                choices.add(m);
            }
        }
        if (!choices.isEmpty()) {
            JComboBox<String> c = new JComboBox<>(choices.toArray(new String[0]));
            // NOT_OTHER false: a ${__P(...)} or a value not listed may be typed, as in JMeter's own combo
            c.setEditable(!Boolean.TRUE.equals(p.getValue(BeanInfoSupport.NOT_OTHER)));
            c.addActionListener(e -> edited(p));
            if (c.isEditable() && c.getEditor().getEditorComponent() instanceof JTextField f) {
                f.setColumns(columns);
                onEdit(f, () -> edited(p));
            }
            return c;
        }
        JTextField f = new JTextField(columns);
        onEdit(f, () -> edited(p));
        return f;
    }

    private static void onEdit(JTextField f, Runnable r) {
        f.getDocument().addDocumentListener(new DocumentListener() {
            @Override
            public void insertUpdate(DocumentEvent e) {
                r.run();
            }

            @Override
            public void removeUpdate(DocumentEvent e) {
                r.run();
            }

            @Override
            public void changedUpdate(DocumentEvent e) {
                r.run();
            }
        });
    }

    /** The BeanInfo's groups in their order, each with its properties in theirs (as JMeter's customizer lays out). */
    private Map<String, List<PropertyDescriptor>> groups() {
        Map<String, List<PropertyDescriptor>> groups = new LinkedHashMap<>();
        List<PropertyDescriptor> shown = new ArrayList<>();
        for (PropertyDescriptor p : beanInfo.getPropertyDescriptors()) {
            if (!p.isHidden() && p.getWriteMethod() != null) {
                shown.add(p);
            }
        }
        shown.sort(Comparator.comparing((PropertyDescriptor p) -> order(p, GenericTestBeanCustomizer.ORDER(group(p))))
                .thenComparing(p -> order(p, GenericTestBeanCustomizer.ORDER)));
        for (PropertyDescriptor p : shown) {
            groups.computeIfAbsent(group(p), k -> new ArrayList<>()).add(p);
        }
        return groups;
    }

    private static String group(PropertyDescriptor p) {
        Object g = p.getValue(GenericTestBeanCustomizer.GROUP);
        return g == null ? GenericTestBeanCustomizer.DEFAULT_GROUP : g.toString();
    }

    private static int order(PropertyDescriptor p, String key) {
        return p.getValue(key) instanceof Integer i ? i : Integer.MAX_VALUE;
    }

    private static GridBagConstraints cell(int x, int y, double weightx) {
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = x;
        c.gridy = y;
        c.weightx = weightx;
        c.anchor = GridBagConstraints.WEST;
        c.fill = weightx > 0 ? GridBagConstraints.HORIZONTAL : GridBagConstraints.NONE;
        c.insets = new Insets(2, 4, 2, 4);
        return c;
    }
}
