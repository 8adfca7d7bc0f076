package io.envbench.controller.editor;

import java.awt.Component;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import javax.swing.JFileChooser;

import net.jcip.annotations.NotThreadSafe;

/**
 * Files and folders chosen for the form (a plan, a bind volume's source), named as the experiment file names them:
 * relative to its folder, where the reader resolves them; the folder it would be saved in while it is unsaved.
 */
@NotThreadSafe
final class PathChooser {
    private final Component owner;
    private final Supplier<Path> file;

    /**
     * @param owner what the choosers are shown over
     * @param file the experiment file, or the one it would be saved as
     */
    PathChooser(Component owner, Supplier<Path> file) {
        this.owner = owner;
        this.file = file;
    }

    /** The experiment file's folder. */
    Path folder() {
        return file.get().getParent();
    }

    /** Shows {@code chooser}: what was chosen as the file should name it, or empty when cancelled. */
    Optional<String> choose(JFileChooser chooser) {
        return chooser.showOpenDialog(owner) == JFileChooser.APPROVE_OPTION
                ? Optional.of(relative(chooser.getSelectedFile().toPath()))
                : Optional.empty();
    }

    /** A path as the file should hold it: relative to the experiment file's folder. */
    private String relative(Path chosen) {
        Path folder = folder();
        try {
            return folder.relativize(chosen.toAbsolutePath().normalize()).toString();
        } catch (IllegalArgumentException e) {
            return chosen.toAbsolutePath().toString();
        }
    }
}
