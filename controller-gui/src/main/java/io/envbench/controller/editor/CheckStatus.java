package io.envbench.controller.editor;

import java.awt.Color;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.swing.BorderFactory;
import javax.swing.JTextArea;
import javax.swing.UIManager;

import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentText;
import net.jcip.annotations.NotThreadSafe;

/**
 * The editor's status line, what the last check of the form found: the problem in red (its field path and fix), or in
 * green what the experiment compares and how often, and whether it is saved and how to run it (in amber, with what
 * the file allows but will likely not measure as meant, such as a tenant whose threads cannot send its rate). The whole message is
 * shown, wrapped at words: a message cut mid-word hides the fix it names.
 */
@NotThreadSafe
final class CheckStatus {
    private final Path root;
    private final JTextArea line = new JTextArea(" ");

    /** @param root the EnvBench folder, from which {@code ./envbench run} names the file */
    CheckStatus(Path root) {
        this.root = root;
        line.setName("editor.status");
        line.setBorder(BorderFactory.createEmptyBorder(4, 8, 4, 8));
        // a line of text that wraps: read-only, out of the tab order, drawn as a label
        line.setEditable(false);
        line.setFocusable(false);
        line.setLineWrap(true);
        line.setWrapStyleWord(true);
        line.setOpaque(false);
        line.setFont(UIManager.getFont("Label.font"));
    }

    JTextArea line() {
        return line;
    }

    void problem(ExperimentException e) {
        line.setForeground(new Color(0xB00020));
        line.setText(e.getMessage());
        line.setToolTipText(e.getMessage());
    }

    /**
     * The draft is good.
     *
     * @param file where it is saved (null: not yet)
     * @param dirty whether it has changes not saved
     * @param warnings what the file allows but will likely not measure what it means to (a tenant whose threads
     *     cannot send its rate at its goal); shown after the OK, in amber
     */
    void ok(ExperimentText draft, Path file, boolean dirty, List<String> warnings) {
        line.setForeground(warnings.isEmpty() ? new Color(0x1B5E20) : new Color(0x8A5300));
        String reps = draft.get("repetitions").isBlank()
                ? "the default repetitions"
                : draft.get("repetitions")
                        + (draft.get("repetitions").strip().equals("1") ? " repetition" : " repetitions");
        String compared = draft.multiTenant()
                ? tenantsText(draft) + " under " + draft.configurationCount()
                        + (draft.configurationCount() == 1 ? " configuration" : " configurations")
                : draft.environmentCount() + (draft.environmentCount() == 1 ? " environment" : " environments");
        line.setText("OK: " + compared + " x " + reps
                + (file == null
                        ? "; save it to run it with ./envbench run"
                        : dirty
                                ? "; unsaved changes"
                                : "; ./envbench run " + relativeToRoot(file) + " runs it as shown")
                + warnings.stream().map(w -> "\nWarning: " + w).collect(Collectors.joining()));
        line.setToolTipText(null);
    }

    /** "4 tenants" as the form has them (the scenario's count as typed, or the tenants written out). */
    private static String tenantsText(ExperimentText draft) {
        String n = draft.tenantsForm() == ExperimentText.TenantsForm.SCENARIO
                ? draft.get("tenants.count").strip()
                : Integer.toString(draft.tenantCount());
        return n + (n.equals("1") ? " tenant" : " tenants");
    }

    private String relativeToRoot(Path f) {
        return f.startsWith(root) ? root.relativize(f).toString() : f.toString();
    }
}
