package io.envbench.controller;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.prefs.Preferences;
import javax.swing.SwingUtilities;
import javax.swing.UIManager;

import com.formdev.flatlaf.FlatLightLaf;

/**
 * {@code ./envbench gui [EXPERIMENT.yaml]}: the EnvBench controller. Builds an experiment in a form, runs it with
 * progress and live figures, compares and exports. The EnvBench folder comes from the system property
 * {@code envbench.root} (the launcher sets it), else the working directory.
 */
public final class EnvBenchController {
    private EnvBenchController() {}

    public static void main(String[] args) {
        Path root = Path.of(System.getProperty("envbench.root", "."))
                .toAbsolutePath()
                .normalize();
        if (!Files.isDirectory(root.resolve("targets"))) {
            System.err.println("envbench gui: " + root
                    + " has no targets/ folder; run it from the EnvBench folder (./envbench gui) "
                    + "or set -Denvbench.root=DIR");
            System.exit(2);
        }
        Path experiment = args.length > 0 ? Path.of(args[0]).toAbsolutePath() : null;
        if (experiment != null && !Files.isRegularFile(experiment)) {
            System.err.println("envbench gui: " + args[0] + ": no such experiment file; give a .yaml file, e.g. "
                    + "testplans/experiments/static-web.yaml");
            System.exit(2);
        }
        SwingUtilities.invokeLater(() -> {
            lookAndFeel();
            ControllerWindow w = new ControllerWindow(
                    root, root.resolve("results"), Preferences.userNodeForPackage(EnvBenchController.class));
            if (experiment != null) {
                w.openExperiment(experiment);
            }
            w.setVisible(true);
        });
    }

    /** FlatLaf, with outlines and focus that are plain to see. */
    public static void lookAndFeel() {
        FlatLightLaf.setup();
        UIManager.put("Component.focusWidth", 1);
        UIManager.put("Table.showHorizontalLines", true);
        UIManager.put("ScrollBar.showButtons", true);
    }
}
