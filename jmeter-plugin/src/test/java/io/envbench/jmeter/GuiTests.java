package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dimension;
import java.awt.GraphicsEnvironment;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.swing.JEditorPane;
import javax.swing.JFrame;
import javax.swing.JMenu;

import org.apache.jmeter.assertions.ResponseAssertion;
import org.apache.jmeter.functions.Property2;
import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.util.JMeterUtils;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.fixture.FrameFixture;
import org.assertj.swing.timing.Condition;
import org.assertj.swing.timing.Pause;
import org.junit.jupiter.api.Assumptions;

/**
 * What the GUI tests share: a display (Xvfb under ./envbench test), JMeter initialised as its GUI needs, and
 * screenshots kept as test artefacts in {@code target/screenshots}, each checked to show something.
 */
public final class GuiTests {
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private GuiTests() {}

    /** No display: the test fails under CI=true, else is skipped, as the Docker tests do without Docker. */
    public static void requireDisplay() {
        if (GraphicsEnvironment.isHeadless()) {
            String why = "no display for the GUI tests: run them under xvfb-run (./envbench test does)";
            if ("true".equals(System.getenv("CI"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
    }

    /** JMeter's properties (empty, from a file of our own) and locale, as JMeter sets them before any GUI. */
    public static synchronized void initJMeter() {
        JMeterUtils.setLocale(Locale.ENGLISH);
        if (JMeterUtils.getJMeterProperties() == null) {
            try {
                Path props = Files.createTempFile("jmeter", ".properties");
                props.toFile().deleteOnExit();
                JMeterUtils.loadJMeterProperties(props.toString());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * JMeter initialised with a home of its own in {@code home}, whose menus are built as a real JMeter builds them:
     * SaveService's {@code bin/saveservice.properties} (from JMeter's config jar), an empty {@code lib/ext}, and as
     * {@code search_paths} the plugin's classes (as {@code lib/ext} would hold its jar) with JMeter's core, components
     * and functions jars (functions such as {@code __P} for the fields' expressions). Call it before the first menu.
     */
    public static synchronized void initJMeterWithMenus(Path home) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib/ext"));
        try (InputStream in = SaveService.class.getResourceAsStream("/bin/saveservice.properties")) {
            Files.copy(in, home.resolve("bin/saveservice.properties"), StandardCopyOption.REPLACE_EXISTING);
        }
        initJMeter();
        JMeterUtils.setJMeterHome(home.toString());
        JMeterUtils.setProperty(
                "search_paths",
                String.join(
                        ";",
                        location(JMeterEnvBench.class),
                        location(MenuFactory.class),
                        location(ResponseAssertion.class),
                        location(Property2.class)));
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The items of JMeter's own Add menu of {@code category} ({@code MenuFactory.LISTENERS}, {@code PRE_PROCESSORS}, ...),
     * as the tree's right-click menu shows them; built on the event thread.
     */
    public static List<String> addMenu(String category) {
        return GuiActionRunner.execute(() -> {
            JMenu menu = MenuFactory.makeMenu(category, ActionNames.ADD);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < menu.getItemCount(); i++) {
                if (menu.getItem(i) != null) {
                    names.add(menu.getItem(i).getText());
                }
            }
            return names;
        });
    }

    /** Shows a JMeter GUI component alone in a window of the given size, for AssertJ Swing to drive. */
    /** Waits (AssertJ Swing's pause) until the help page has loaded into {@code pane}. */
    public static void awaitPage(JEditorPane pane) {
        Pause.pause(new Condition("the page loaded") {
            @Override
            public boolean test() {
                return GuiActionRunner.execute(
                        () -> pane.getPage() != null && pane.getDocument().getLength() > 500);
            }
        });
    }

    public static FrameFixture showInFrame(String title, Container gui, Dimension size) {
        JFrame frame = GuiActionRunner.execute(() -> {
            JFrame f = new JFrame(title);
            f.add(gui);
            return f;
        });
        FrameFixture window = new FrameFixture(frame);
        window.show(size);
        return window;
    }

    /**
     * Saves what a component shows as {@code target/screenshots/NAME.png}, painted by Swing on its event thread as it
     * paints the screen; asserts it is not blank. Not a capture of the screen: that waits for the event queue to be
     * idle, which a text field's blinking caret keeps it from being for up to 10 s a picture.
     */
    public static Path screenshot(Component c, String name) throws IOException {
        BufferedImage image = GuiActionRunner.execute(() -> {
            BufferedImage i = new BufferedImage(
                    Math.max(1, c.getWidth()), Math.max(1, c.getHeight()), BufferedImage.TYPE_INT_RGB);
            java.awt.Graphics2D g = i.createGraphics();
            try {
                c.paintAll(g);
            } finally {
                g.dispose();
            }
            return i;
        });
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        ImageIO.write(image, "png", file.toFile());
        assertTrue(colours(image) > 1, file + " is blank (one colour)");
        return file;
    }

    /** Distinct colours, counted up to 64. */
    static int colours(BufferedImage image) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < image.getHeight() && seen.size() < 64; y += 3) {
            for (int x = 0; x < image.getWidth() && seen.size() < 64; x += 3) {
                seen.add(image.getRGB(x, y));
            }
        }
        return seen.size();
    }
}
