package io.envbench.controller.editor;

import java.awt.Container;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import javax.swing.text.JTextComponent;

import io.envbench.controller.keyboard.TabLeaves;
import io.envbench.study.experiment.ExperimentFields;
import io.envbench.study.experiment.ExperimentFields.Section;
import io.envbench.study.experiment.ExperimentText;
import net.jcip.annotations.NotThreadSafe;

/**
 * The form's fields bound to the draft by their key: a text field, text area or drop-down writes its key into the
 * {@link ExperimentText} as one types and tells the editor, its component name is the key, and its tooltip is the
 * {@link ExperimentFields} catalogue's, so the form and the file's reference agree. While the form is being filled
 * from the draft ({@link #quietly}) nothing is written back. Every section of the form shares this one.
 */
@NotThreadSafe
final class DraftBinding {
    private final Supplier<ExperimentText> draft;
    private final Runnable changed;
    /** The form is being filled from the draft: what its fields do then is not an edit. */
    private boolean loading;

    private final Map<String, JComponent> fields = new LinkedHashMap<>();
    /** What a field the file leaves out is: shown in its drop-down, not written. */
    private final Map<String, String> defaults = new HashMap<>();

    /**
     * @param draft the draft the form shows now
     * @param changed told after each edit
     */
    DraftBinding(Supplier<ExperimentText> draft, Runnable changed) {
        this.draft = draft;
        this.changed = changed;
    }

    ExperimentText draft() {
        return draft.get();
    }

    /** Tells the editor the draft was edited. */
    void changed() {
        changed.run();
    }

    /** Whether the form is being filled from the draft (then a field's change is not an edit). */
    boolean loading() {
        return loading;
    }

    /** Runs {@code fill} as a filling of the form from the draft: its changes to fields are not edits. */
    void quietly(Runnable fill) {
        boolean was = loading;
        loading = true;
        try {
            fill.run();
        } finally {
            loading = was;
        }
    }

    /** The field bound to {@code key}, or null. */
    JComponent field(String key) {
        return fields.get(key);
    }

    /** Shows {@code d}'s values; a field the file leaves out shows what it then is: its default. */
    void fill(ExperimentText d) {
        fill(d, "");
    }

    /** As {@link #fill(ExperimentText)}, the fields whose key starts with {@code prefix} only ("load."). */
    void fill(ExperimentText d, String prefix) {
        fields.forEach((f, c) -> {
            if (f.startsWith(prefix)) {
                setText(c, d.get(f).isBlank() ? defaults.getOrDefault(f, "") : d.get(f));
            }
        });
    }

    JTextField text(String field) {
        JTextField t = new JTextField(18);
        bind(field, t);
        t.getDocument().addDocumentListener(onEdit(() -> draft().set(field, t.getText())));
        return t;
    }

    JTextArea area(String field, int rows) {
        JTextArea t =
                TabLeaves.of(new JTextArea(rows, 18)); // criteria and properties are lines: a tab is no part of them
        bind(field, t);
        t.getDocument().addDocumentListener(onEdit(() -> draft().set(field, t.getText())));
        return t;
    }

    /** A drop-down of a top-level field's choices from the catalogue (true and false for a switch), its default shown. */
    JComboBox<String> choice(String field) {
        ExperimentFields.Field f = ExperimentFields.formField(Section.TOP, field)
                .orElseThrow(() -> new IllegalStateException("no field " + field + " in ExperimentFields.TOP"));
        List<String> choices = f.type() == ExperimentFields.Type.BOOLEAN ? List.of("false", "true") : f.choices();
        defaults.put(field, f.defaultText());
        return combo(field, false, choices);
    }

    JComboBox<String> combo(String field, boolean editable, List<String> choices) {
        JComboBox<String> c = new JComboBox<>(choices.toArray(String[]::new));
        c.setEditable(editable);
        bind(field, c);
        Runnable update = () -> draft().set(field, comboText(c));
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

    private void bind(String field, JComponent c) {
        c.setName(field);
        c.setToolTipText(
                field.startsWith("tenants.")
                        ? tip(Section.TENANTS, field.substring("tenants.".length()))
                        : tip(Section.TOP, field));
        fields.put(field, c);
    }

    /** A form field's tooltip: the experiment-file catalogue's doc and default, so the form and the file's reference agree. */
    static String tip(Section s, String key) {
        return ExperimentFields.formField(s, key)
                .map(ExperimentFields.Field::tip)
                .orElseThrow(() ->
                        new IllegalStateException("the form's field " + key + " is not in ExperimentFields." + s));
    }

    /** A document listener that runs {@code update}, then tells the editor, for each edit (not while filling). */
    DocumentListener onEdit(Runnable update) {
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

    /** Replaces a drop-down's choices, keeping what it shows; not an edit. */
    @SuppressWarnings("unchecked")
    void refill(JComponent c, List<String> items) {
        JComboBox<String> box = (JComboBox<String>) c;
        quietly(() -> {
            String current = comboText(box);
            box.removeAllItems();
            items.forEach(box::addItem);
            setText(box, current);
        });
    }

    /** Takes the last check's outline off every field. */
    void clearOutlines() {
        fields.values().forEach(c -> outline(c, false));
    }

    /** Outlines the field a problem's path names, if the form has it. */
    void outline(String fieldPath) {
        // the file's http timings are the form's load timings; a list's item is its field
        String key = fieldPath
                .replaceFirst("^load\\.http\\.(warmupSeconds|durationSeconds)$", "load.$1")
                .replaceFirst("\\[\\d+\\]$", "");
        JComponent c = fields.get(key);
        if (c != null) {
            outline(c, true);
        }
    }

    /** Draws a field as the one a problem names, or not. */
    static void outline(JComponent c, boolean bad) {
        outlineTarget(c).putClientProperty("JComponent.outline", bad ? "error" : null);
    }

    /** A text area shows its outline on its scroll pane. */
    private static JComponent outlineTarget(JComponent c) {
        Container p = c.getParent() == null ? null : c.getParent().getParent();
        return p instanceof JScrollPane s ? s : c;
    }

    static String comboText(JComboBox<String> c) {
        if (c.isEditable()) {
            return ((JTextComponent) c.getEditor().getEditorComponent()).getText();
        }
        Object o = c.getSelectedItem();
        return o == null ? "" : o.toString();
    }

    static void setText(JComponent c, String text) {
        if (c instanceof JTextComponent t) {
            if (!t.getText().equals(text)) {
                t.setText(text);
            }
        } else if (c instanceof JComboBox<?> box) {
            if (box.isEditable()) {
                ((JTextComponent) box.getEditor().getEditorComponent()).setText(text);
                box.setSelectedItem(text);
            } else if (choices(box).contains(text)) {
                box.setSelectedItem(text);
            } else {
                box.setSelectedIndex(-1); // not a choice (or none): shown empty, not the choice shown before
            }
        }
    }

    private static List<String> choices(JComboBox<?> box) {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < box.getItemCount(); i++) {
            all.add(String.valueOf(box.getItemAt(i)));
        }
        return all;
    }

    /** A text area's scroll pane that leaves the mouse wheel to the form around it. */
    static JScrollPane scroll(JTextArea area) {
        JScrollPane s = new JScrollPane(area);
        s.setWheelScrollingEnabled(false);
        return s;
    }
}
