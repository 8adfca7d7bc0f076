package io.envbench.controller;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.prefs.Preferences;
import javax.swing.SwingUtilities;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's event-thread latency while a saturation run streams samples (goal: never above 100 ms): a probe
 * posts a task to the event thread every 10 ms and records how late it runs, through the whole experiment (runs,
 * live figures, then the results view filling its tables and charts). Figures printed, nothing asserted.
 * Run with {@code ./envbench bench}.
 */
class ControllerEventThreadBenchmark {
    static final Path ROOT = ControllerWindowTest.ROOT;

    @TempDir
    Path temp;

    @Test
    void eventThreadLatencyDuringASaturationRun() throws Exception {
        ControllerWindowTest.docker();
        Path file = ControllerWindowTest.nginxExperiment(temp, "edt-latency", 8, 2, 12);
        Preferences prefs = Preferences.userRoot().node("envbench-bench-" + UUID.randomUUID());
        Path results = Files.createDirectories(temp.resolve("results"));
        ControllerWindow[] w = new ControllerWindow[1];
        SwingUtilities.invokeAndWait(() -> {
            EnvBenchController.lookAndFeel();
            w[0] = new ControllerWindow(ROOT, results, prefs);
            w[0].setSize(1400, 900);
            w[0].setVisible(true);
            w[0].openExperiment(file);
        });

        List<Long> running = Collections.synchronizedList(new ArrayList<>());
        List<Long> showingResults = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean done = new AtomicBoolean();
        Thread probe = new Thread(
                () -> {
                    while (!done.get()) {
                        long posted = System.nanoTime();
                        try {
                            SwingUtilities.invokeAndWait(() -> {
                                long lateMicros = (System.nanoTime() - posted) / 1000;
                                (w[0].resultsShowing() ? showingResults : running).add(lateMicros);
                            });
                            Thread.sleep(10);
                        } catch (Exception e) {
                            return;
                        }
                    }
                },
                "edt-probe");
        SwingUtilities.invokeAndWait(() -> w[0].run(false));
        long t0 = System.nanoTime();
        probe.start();
        while (!resultsShown(w[0]) && System.nanoTime() - t0 < 240_000_000_000L) {
            Thread.sleep(200);
        }
        Thread.sleep(3000); // the results view settles: charts drawn once
        done.set(true);
        probe.join();
        SwingUtilities.invokeAndWait(w[0]::dispose);
        prefs.removeNode();

        System.out.println("== Controller event-thread latency (goal: never above 100 ms) ==");
        print("while running (progress, live figures, log)", running);
        print("showing the results (tables, charts)", showingResults);
    }

    private static boolean resultsShown(ControllerWindow w) throws Exception {
        boolean[] shown = new boolean[1];
        SwingUtilities.invokeAndWait(() -> shown[0] = w.resultsShowing());
        return shown[0];
    }

    private static void print(String phase, List<Long> latenciesMicros) {
        List<Long> s = new ArrayList<>(latenciesMicros);
        Collections.sort(s);
        if (s.isEmpty()) {
            System.out.println(phase + ": no probe");
            return;
        }
        long over = s.stream().filter(v -> v > 100_000).count();
        System.out.printf(
                Locale.ROOT,
                "%s: %d probes, median %.1f ms, p99 %.1f ms, max %.1f ms, above 100 ms: %d%n",
                phase,
                s.size(),
                s.get(s.size() / 2) / 1000.0,
                s.get((int) Math.ceil(0.99 * s.size()) - 1) / 1000.0,
                s.get(s.size() - 1) / 1000.0,
                over);
    }
}
