package io.envbench.controller.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JTabbedPane;
import javax.swing.SwingUtilities;

import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Viewing is read-only: a finished run directory opened the way the results list opens it (ResultsView.open, off the
 * event thread, then shown) keeps every file's bytes and modification time, junit.xml (a CI artefact) among them.
 */
class ResultsViewReadOnlyTest {
    @TempDir
    Path results;

    private static final String JTL_HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                    + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,envbench.env\n";

    @Test
    void openingAPastRunWritesNothingIntoIt() throws Exception {
        Path dir = fixture(results.resolve("readonly-20260101-000000"));
        Map<String, String> before = snapshot(dir);

        AtomicReference<ResultsView> view = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> view.set(new ResultsView(
                results, Path.of("..", "targets").toAbsolutePath().normalize())));
        SwingUtilities.invokeAndWait(() -> view.get().open(dir));
        AtomicReference<Boolean> readingShown = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> readingShown.set(view.get().isReading()));
        assertTrue(readingShown.get(), "a progress bar while the run directory is read");
        String heading = waitForShown(view.get());
        assertTrue(heading.startsWith("readonly — "), heading);

        assertEquals(before, snapshot(dir), "every file's bytes and modification time as before");
        screenshotOfTheHeader(view.get());
        assertFalse(view.get().exportFolder().startsWith(dir), "exports default outside the run directory");
        assertFalse(view.get().exportFolder().startsWith(results), "nor among the run directories");
    }

    /**
     * The run's notes tab, which opens with the report's header (what ran where, on which host, the criteria), in a
     * 1280 px window: the picture docs/report.md shows. Written to target/screenshots/results-header.png.
     */
    private static void screenshotOfTheHeader(ResultsView view) throws Exception {
        AtomicReference<JFrame> frame = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> {
            JFrame f = new JFrame("EnvBench results");
            f.setContentPane(view);
            f.setSize(1280, 800);
            f.setVisible(true);
            JTabbedPane tabs = (JTabbedPane) find(view, "results.tabs");
            tabs.setSelectedIndex(tabs.indexOfTab("Notes and hints"));
            frame.set(f);
        });
        try {
            Thread.sleep(500); // painted
            AtomicReference<BufferedImage> image = new AtomicReference<>();
            SwingUtilities.invokeAndWait(() -> {
                JFrame f = frame.get();
                BufferedImage i = new BufferedImage(
                        f.getContentPane().getWidth(), f.getContentPane().getHeight(), BufferedImage.TYPE_INT_RGB);
                f.getContentPane().paint(i.getGraphics());
                image.set(i);
            });
            Path out = Files.createDirectories(Path.of("target", "screenshots")).resolve("results-header.png");
            ImageIO.write(image.get(), "png", out.toFile());
            String notes = ((javax.swing.text.JTextComponent) find(view, "results.notes")).getText();
            assertTrue(notes.contains("readonly") && notes.contains("PASS"), "the header opens the notes: " + notes);
        } finally {
            SwingUtilities.invokeAndWait(() -> frame.get().dispose());
        }
    }

    /** The heading once the view is no longer reading (at most 60 s). */
    static String waitForShown(ResultsView view) throws Exception {
        AtomicReference<String> heading = new AtomicReference<>();
        AtomicReference<Boolean> busy = new AtomicReference<>(true);
        for (int i = 0; i < 600 && busy.get(); i++) {
            Thread.sleep(100);
            SwingUtilities.invokeAndWait(() -> {
                busy.set(view.isReading());
                heading.set(label(view).getText());
            });
        }
        assertFalse(busy.get(), "still reading after 60 s");
        return heading.get();
    }

    private static JLabel label(ResultsView view) {
        return (JLabel) find(view, "results.heading");
    }

    static java.awt.Component find(java.awt.Container c, String name) {
        for (java.awt.Component x : c.getComponents()) {
            if (name.equals(x.getName())) {
                return x;
            }
            if (x instanceof java.awt.Container inner) {
                java.awt.Component found = find(inner, name);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** Every file under {@code dir}: its SHA-256 and modification time. */
    private static Map<String, String> snapshot(Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.toList()) {
                String mtime = Files.getLastModifiedTime(f).toString();
                m.put(
                        dir.relativize(f).toString(),
                        Files.isDirectory(f)
                                ? "dir " + mtime
                                : HexFormat.of()
                                                .formatHex(MessageDigest.getInstance("SHA-256")
                                                        .digest(Files.readAllBytes(f)))
                                        + " " + mtime);
            }
        }
        return m;
    }

    /** A finished run directory as the runner leaves it: experiment, runs.csv, JTLs, junit.xml and report/. */
    static Path fixture(Path root) throws Exception {
        RunDirectory d = new RunDirectory(root);
        d.create();
        Files.writeString(d.experiment(), """
                name: readonly
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker, placement: docker, network: bridge }
                repetitions: 2
                load: { http: { path: /, threads: 4, warmupSeconds: 1, durationSeconds: 6 } }
                criteria:
                  - errorPct(*) < 1
                """);
        long t0 = 1_700_000_000_000L;
        int round = 0;
        for (int rep = 1; rep <= 2; rep++) {
            round++;
            for (String env : new String[] {"bare", "docker"}) {
                PlannedRun r = new PlannedRun(round, env, rep);
                long start = t0 + round * 100_000L + (env.equals("docker") ? 50_000 : 0);
                StringBuilder jtl = new StringBuilder(JTL_HEADER);
                int rate = env.equals("bare") ? 200 : 150;
                for (long i = 0; i < 6L * rate; i++) {
                    jtl.append(start + i * 1000 / rate)
                            .append(",2,GET /,200,OK,t 1-1,text,true,,100,10,1,1,http://x,2,0,0,")
                            .append(env)
                            .append('\n');
                }
                Files.writeString(d.jtl(r), jtl);
                d.runs()
                        .append(new RunRecord(
                                r,
                                Instant.ofEpochMilli(start),
                                Instant.ofEpochMilli(start + 6_000),
                                RunRecord.OK,
                                6L * rate,
                                100,
                                Instant.ofEpochMilli(start),
                                new RunRecord.Cpus("", "", "")));
            }
        }
        Files.writeString(d.junit(), "<?xml version=\"1.0\"?><testsuite name=\"as CI archived it\"/>\n");
        Files.createDirectories(d.report());
        Files.writeString(d.report().resolve("index.html"), "<html>the run's own report</html>\n");
        // modification times in the past: a rewrite within the same second would otherwise go unseen
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.toList()) {
                Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(t0));
            }
        }
        return root;
    }
}
