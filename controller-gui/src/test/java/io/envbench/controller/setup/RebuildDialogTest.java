package io.envbench.controller.setup;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Window;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;
import javax.swing.AbstractButton;
import javax.swing.JDialog;
import javax.swing.JFrame;
import javax.swing.SwingUtilities;
import javax.swing.text.JTextComponent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The question before a run whose images are out of date, in a real window: it lists each image with why and how
 * long, Cancel declines and Rebuild now accepts; the rebuild window shows the script's output and says whether it
 * succeeded. Its picture goes to target/screenshots/rebuild-dialog.png (docs/screenshots/ shows it).
 */
class RebuildDialogTest {
    @TempDir
    Path dir;

    private static final List<ImageCheck.Rebuild> REBUILDS = List.of(
            new ImageCheck.Rebuild(
                    "envbench/postgres-packages:latest",
                    "0123456789abcdef",
                    "its recipe changed: package libpq5 15.6-0+deb12u1 -> 15.8-0+deb12u1",
                    "about 3 min"),
            new ImageCheck.Rebuild(
                    "envbench/postgres:latest",
                    "-",
                    "envbench/postgres-packages:latest is rebuilt first",
                    "about 12 s"));

    @Test
    void cancelDeclinesAndRebuildNowAccepts() throws Exception {
        assertFalse(answer(RebuildDialog.CANCEL, true));
        assertTrue(answer(RebuildDialog.REBUILD, false));
    }

    @Test
    void theRebuildShowsItsOutputAndItsOutcome() throws Exception {
        assertTrue(rebuild("echo building envbench/postgres:latest; exit 0", null));
        assertFalse(rebuild("echo apt-get failed >&2; exit 1", "The rebuild failed (exit 1)"));
    }

    private boolean answer(String button, boolean screenshot) throws Exception {
        AtomicReference<JFrame> parent = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> {
            JFrame f = new JFrame("EnvBench");
            f.setSize(900, 600);
            f.setVisible(true);
            parent.set(f);
        });
        try {
            CompletableFuture<Boolean> asked = new CompletableFuture<>();
            SwingUtilities.invokeLater(() -> asked.complete(RebuildDialog.ask(parent.get(), REBUILDS)));
            Dialog d = waitForDialog(RebuildDialog.TITLE);
            AtomicReference<String> listed = new AtomicReference<>();
            SwingUtilities.invokeAndWait(() -> listed.set(((JTextComponent) find(d, "rebuild.list")).getText()));
            for (ImageCheck.Rebuild r : REBUILDS) {
                assertTrue(
                        listed.get().contains(r.image())
                                && listed.get().contains(r.why())
                                && listed.get().contains(r.estimate()),
                        listed.get());
            }
            if (screenshot) {
                Thread.sleep(300); // painted
                screenshot(d);
            }
            SwingUtilities.invokeAndWait(() -> button(d, button).doClick());
            return asked.get(10, TimeUnit.SECONDS);
        } finally {
            SwingUtilities.invokeAndWait(() -> parent.get().dispose());
        }
    }

    /** The rebuild with scripts/images.sh standing for the script's outcome: true when it reported success. */
    private boolean rebuild(String script, String said) throws Exception {
        Path root = dir.resolve("root-" + Math.abs(script.hashCode()));
        Files.createDirectories(root.resolve("scripts"));
        Files.writeString(root.resolve("scripts/images.sh"), "#!/bin/bash\n" + script + "\n");
        Files.setPosixFilePermissions(root.resolve("scripts/images.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        ImageCheck check = new ImageCheck(root, Map.of());
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        AtomicReference<JFrame> parent = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> {
            parent.set(new JFrame("EnvBench"));
            parent.get().setVisible(true);
        });
        SwingUtilities.invokeLater(() -> done.complete(RebuildDialog.rebuild(parent.get(), check, Set.of("postgres"))));
        try {
            if (said != null) {
                Dialog d = waitForDialog("Rebuilding images");
                AtomicReference<String> log = new AtomicReference<>("");
                for (int i = 0; i < 100 && !log.get().contains(said); i++) {
                    Thread.sleep(100);
                    SwingUtilities.invokeAndWait(() -> log.set(((JTextComponent) find(d, "rebuild.log")).getText()));
                }
                assertTrue(log.get().contains("apt-get failed") && log.get().contains(said), log.get());
                SwingUtilities.invokeAndWait(() -> button(d, "Close").doClick());
            }
            return done.get(20, TimeUnit.SECONDS);
        } finally {
            SwingUtilities.invokeAndWait(() -> parent.get().dispose());
        }
    }

    private static Dialog waitForDialog(String title) throws Exception {
        for (int i = 0; i < 100; i++) {
            AtomicReference<Dialog> found = new AtomicReference<>();
            SwingUtilities.invokeAndWait(() -> {
                for (Window w : Window.getWindows()) {
                    if (w instanceof Dialog d && d.isShowing() && title.equals(d.getTitle())) {
                        found.set(d);
                    }
                }
            });
            if (found.get() != null) {
                return found.get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no dialog '" + title + "' within 10 s");
    }

    private static void screenshot(Dialog d) throws Exception {
        AtomicReference<BufferedImage> image = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> {
            Container c = ((JDialog) d).getContentPane();
            BufferedImage i = new BufferedImage(c.getWidth(), c.getHeight(), BufferedImage.TYPE_INT_RGB);
            c.paint(i.getGraphics());
            image.set(i);
        });
        Path out = Files.createDirectories(Path.of("target", "screenshots")).resolve("rebuild-dialog.png");
        ImageIO.write(image.get(), "png", out.toFile());
    }

    private static AbstractButton button(Container c, String text) {
        AbstractButton b = (AbstractButton) find(c, x -> x instanceof AbstractButton a && text.equals(a.getText()));
        assertNotNull(b, "a button '" + text + "'");
        return b;
    }

    private static Component find(Container c, String name) {
        return find(c, x -> name.equals(x.getName()));
    }

    private static Component find(Container c, java.util.function.Predicate<Component> p) {
        for (Component x : c.getComponents()) {
            if (p.test(x)) {
                return x;
            }
            if (x instanceof Container inner) {
                Component found = find(inner, p);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
