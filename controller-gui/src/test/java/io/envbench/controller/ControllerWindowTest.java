package io.envbench.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dimension;
import java.awt.KeyboardFocusManager;
import java.awt.Rectangle;
import java.awt.Window;
import java.awt.event.InputEvent;
import java.awt.event.KeyEvent;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javax.imageio.ImageIO;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;

import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.controller.run.CapacityDialog;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.report.ComparisonReport;
import io.envbench.report.TableOrder;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.FloatingCpus;
import io.envbench.study.experiment.EnvironmentPreset;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.Tenancy;
import io.envbench.study.runner.CapacitySearch;
import org.assertj.swing.core.BasicRobot;
import org.assertj.swing.core.Robot;
import org.assertj.swing.data.TableCell;
import org.assertj.swing.edt.FailOnThreadViolationRepaintManager;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.exception.WaitTimedOutError;
import org.assertj.swing.fixture.DialogFixture;
import org.assertj.swing.fixture.FrameFixture;
import org.assertj.swing.fixture.JFileChooserFixture;
import org.assertj.swing.fixture.JTableFixture;
import org.assertj.swing.timing.Condition;
import org.assertj.swing.timing.Pause;
import org.assertj.swing.timing.Timeout;
import org.jfree.chart.ChartPanel;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.ui.Layer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller in a real window (Xvfb in CI), driven as a user would with AssertJ Swing: the form checks as one
 * types, a short experiment runs against the real Docker engine and the real JMeter, the comparison shows and
 * sorts by number, and a chart is exported through the export dialog. Screenshots go to target/screenshots.
 */
@org.junit.jupiter.api.Timeout(value = 5, unit = TimeUnit.MINUTES)
class ControllerWindowTest {
    static final Path ROOT =
            Path.of(System.getProperty("envbench.root", "..")).toAbsolutePath().normalize();
    static final Path SCREENSHOTS = ROOT.resolve("controller-gui/target/screenshots");

    @TempDir
    Path temp;

    private Preferences prefs;
    private Robot robot;
    private FrameFixture window;
    private ControllerWindow frame;

    @BeforeAll
    static void lookAndFeel() {
        FailOnThreadViolationRepaintManager.install();
        GuiActionRunner.execute(EnvBenchController::lookAndFeel);
    }

    @BeforeEach
    void open() throws IOException {
        prefs = Preferences.userRoot().node("envbench-test-" + UUID.randomUUID());
        robot = BasicRobot.robotWithNewAwtHierarchy();
        robot.settings().delayBetweenEvents(20);
        openWindow();
    }

    private void openWindow() throws IOException {
        frame = newWindow();
        window = new FrameFixture(robot, frame);
        window.show(new Dimension(1400, 900));
    }

    private ControllerWindow newWindow() throws IOException {
        Path results = Files.createDirectories(temp.resolve("results"));
        return GuiActionRunner.execute(() -> new ControllerWindow(ROOT, results, prefs));
    }

    @AfterEach
    void close() throws BackingStoreException {
        // the robot holds AssertJ Swing's screen lock until cleaned up, also when opening the window failed
        if (window != null) {
            window.cleanUp();
        } else if (robot != null) {
            robot.cleanUp();
        }
        prefs.removeNode();
    }

    @Test
    void theFormChecksAsOneTypesAndDisablesContainerFieldsForBareMetal() throws Exception {
        window.table("environments.table").selectRows(0);
        window.comboBox("env.network").requireDisabled();
        window.textBox("env.cpuset").requireDisabled();
        window.table("environments.table").selectRows(1);
        window.comboBox("env.network").requireEnabled();
        window.textBox("env.cpuset").requireEnabled();

        window.textBox("load.http.threads").deleteText().enterText("0");
        waitFor("the status names the field", () -> status().contains("load.http.threads"));
        assertThat(status()).contains("below 1");
        screenshot("editor-invalid-threads");
        window.textBox("load.http.threads").deleteText().enterText("4");
        waitFor(
                "the file shows the new value",
                () -> GuiActionRunner.execute(
                                () -> window.textBox("experiment.yaml").target().getText())
                        .contains("threads: 4"));
        waitFor("the status says OK", () -> status().startsWith("OK"));

        window.button("environments.add").click();
        window.menuItem("preset.DOCKER_PINNED").click();
        assertThat(window.table("environments.table").rowCount()).isEqualTo(3);
        window.textBox("env.cpuset").requireText("0");
        window.textBox("env.cpuset").deleteText().enterText("999");
        waitFor("a CPU this host lacks is refused", () -> status().contains("environments[2].cpuset"));
        window.textBox("env.cpuset").deleteText().enterText("0");
        waitFor("fixed", () -> status().startsWith("OK"));
        screenshot("editor");

        Path saved = temp.resolve("mine.yaml");
        GuiActionRunner.execute(() -> frame.saveTo(saved));
        assertThat(ExperimentFile.read(saved, ROOT.resolve("targets")).environmentNames())
                .containsExactly("bare", "docker-host", "docker-pinned");
        assertThat(frame.getTitle()).contains("mine.yaml").doesNotContain("*");

        // the next start opens the last experiment where the window was
        Rectangle bounds = new Rectangle(40, 30, 1200, 800);
        GuiActionRunner.execute(() -> frame.setBounds(bounds));
        window.menuItemWithPath("File", "Quit").click();
        ControllerWindow next = newWindow();
        Rectangle now = GuiActionRunner.execute(() -> {
            return next.getBounds();
        });
        assertThat(now).isEqualTo(bounds);
        assertThat(GuiActionRunner.execute(() -> next.editor().file().orElseThrow()))
                .isEqualTo(saved);
        assertThat(GuiActionRunner.execute(() -> next.editor().draft().environmentCount()))
                .isEqualTo(3);
        GuiActionRunner.execute(next::dispose);
    }

    /**
     * The first screen, no editing: a new experiment names the demo's target with the demo's load and checks as valid;
     * the target list says what each target is and what load fits it; another target brings its own load (bonnie's
     * command, named after its program), and a new experiment on every target is valid as created.
     */
    @Test
    void aNewExperimentIsValidAsCreatedWithTheDemosTargetAndALoadThatFitsIt() throws Exception {
        String yaml = yaml();
        assertThat(GuiActionRunner.execute(() -> frame.editor().problem().map(Exception::getMessage)))
                .isEmpty();
        assertThat(status()).startsWith("OK: 2 environments x 4 repetitions");
        assertThat(yaml).contains("target: nginx-static").contains("path: /page-4k.html");
        window.radioButton("load.kind.http").requireSelected().requireEnabled();
        window.radioButton("load.kind.command").requireDisabled().requireText("Command");
        window.label("target.about")
                .requireText("nginx (Debian bookworm) serving a fixed static site; load: HTTP GET /page-4k.html");
        assertThat(window.comboBox("target").contents())
                .contains(
                        "nginx-static — nginx (Debian bookworm) serving a fixed static site; load: HTTP GET /page-4k.html",
                        "bonnie — a place for bonnie++ (Debian bookworm): a host folder, or a container's layer or "
                                + "volume; load: command ./bonnie.sh",
                        "postgres — PostgreSQL 15 (Debian bookworm), a fresh cluster per start, and psql timed against "
                                + "it; load: command ./psql-latency.sh");
        robot.moveMouse(window.label("target.about").target()); // no field's tooltip over the screenshot
        screenshot("first-screen");

        window.comboBox("target").replaceText("bonnie");
        waitFor("bonnie's own load", () -> yaml().contains("run: ./bonnie.sh"), () -> yaml());
        window.radioButton("load.kind.command").requireSelected().requireText("Command (./bonnie.sh)");
        window.radioButton("load.kind.http").requireDisabled();
        waitFor("bonnie with its command is good", () -> status().startsWith("OK"), () -> status());
        window.comboBox("target").replaceText("postgres");
        waitFor("psql's load", () -> yaml().contains("run: ./psql-latency.sh"), () -> yaml());
        window.radioButton("load.kind.command").requireSelected().requireText("Command (./psql-latency.sh)");
        window.menuItemWithPath("File", "New experiment").click();
        waitFor("a new experiment on postgres is good", () -> status().startsWith("OK"), () -> status());
        assertThat(yaml()).contains("target: postgres").contains("run: ./psql-latency.sh");

        for (String target : TargetRecipe.available(ROOT.resolve("targets"))) {
            assertThat(GuiActionRunner.execute(() -> {
                        frame.editor().newExperiment(target);
                        return frame.editor().problem().map(Exception::getMessage);
                    }))
                    .as("a new experiment on " + target)
                    .isEmpty();
        }
    }

    /** The status line shows the whole message, wrapped at words, however narrow the window. */
    @Test
    void theStatusLineShowsTheWholeMessage() {
        window.resizeWidthTo(700);
        window.comboBox("target").replaceText("no-such-target");
        waitFor("the target is refused", () -> status().contains("target: 'no-such-target'"), () -> status());
        String message = GuiActionRunner.execute(
                () -> frame.editor().problem().orElseThrow().getMessage());
        assertThat(status()).isEqualTo(message);
        robot.waitForIdle();
        JTextArea line = (JTextArea) window.textBox("editor.status").target();
        GuiActionRunner.execute(() -> {
            int width = line.getWidth() - line.getInsets().left - line.getInsets().right;
            assertThat(line.getFontMetrics(line.getFont()).stringWidth(message))
                    .as("the message is wider than the line: it must wrap")
                    .isGreaterThan(width);
            Rectangle last = line.modelToView2D(message.length()).getBounds();
            Rectangle first = line.modelToView2D(0).getBounds();
            assertThat(last.y).as("wrapped onto a later line").isGreaterThan(first.y);
            assertThat(last.y + last.height).as("the last line is shown").isLessThanOrEqualTo(line.getHeight());
            return null;
        });
    }

    /**
     * Every preset is valid the moment it is added; each environment's fields show its own values (a container
     * without a volume shows Volume: none after one with a named volume, and choosing named then writes it); bare
     * metal's container fields are disabled and empty.
     */
    @Test
    void everyPresetIsValidAsAddedAndEachEnvironmentShowsItsOwnValues() throws Exception {
        for (EnvironmentPreset p : EnvironmentPreset.values()) {
            window.button("environments.add").click();
            window.menuItem("preset." + p.name()).click();
            assertThat(GuiActionRunner.execute(() -> {
                        frame.editor().check();
                        return frame.editor().problem().map(Exception::getMessage);
                    }))
                    .as(p + " as added")
                    .isEmpty();
        }
        int volume = GuiActionRunner.execute(
                () -> frame.editor().draft().environmentNames().indexOf("docker-host-volume"));
        JTableFixture table = window.table("environments.table");
        table.selectRows(volume);
        window.comboBox("env.volume.type").requireSelection("named");
        window.textBox("env.volume.path").requireText("/srv/site"); // where nginx-static's example keeps its site
        table.selectRows(1);
        window.textBox("env.name").requireText("docker-host");
        window.comboBox("env.volume.type").requireSelection("none");
        window.textBox("env.volume.path").requireText("");
        window.comboBox("env.volume.type").selectItem("named");
        assertThat(GuiActionRunner.execute(() -> frame.editor().draft().environment(1, "volume.type")))
                .isEqualTo("named");
        window.comboBox("env.volume.type").selectItem("none");

        int pinned = GuiActionRunner.execute(
                () -> frame.editor().draft().environmentNames().indexOf("docker-pinned"));
        table.selectRows(pinned);
        window.textBox("env.cpuset").requireText("0");
        window.comboBox("env.dockerDaemon.userlandProxy").requireEnabled();
        window.comboBox("env.dockerDaemon.storageDriver").requireEnabled().selectItem("vfs");
        assertThat(GuiActionRunner.execute(
                        () -> frame.editor().draft().environment(pinned, "dockerDaemon.storageDriver")))
                .isEqualTo("vfs");
        assertThat(GuiActionRunner.execute(() -> frame.editor().draft().toYaml()))
                .contains("storageDriver: vfs");
        screenshot("environment-storage-driver");
        window.comboBox("env.dockerDaemon.storageDriver").selectItem("");
        table.selectRows(0);
        window.textBox("env.name").requireText("bare");
        for (String f : List.of(
                "env.network",
                "env.volume.type",
                "env.seccomp",
                "env.client",
                "env.dockerDaemon.userlandProxy",
                "env.dockerDaemon.storageDriver")) {
            window.comboBox(f).requireDisabled();
            assertThat(GuiActionRunner.execute(
                            () -> String.valueOf(window.comboBox(f).target().getSelectedItem())))
                    .as(f + " shows nothing")
                    .isIn("null", "");
        }
        for (String f : List.of("env.cpuset", "env.cpus", "env.cpuShares", "env.memory", "env.volume.path")) {
            window.textBox(f).requireDisabled().requireText("");
        }
        // a bare environment with services in containers: the Docker daemon's setting applies again
        window.textBox("env.services").enterText("{ web: { placement: docker } }");
        window.comboBox("env.dockerDaemon.userlandProxy").requireEnabled();
    }

    /**
     * Tab alone walks from the first field to the last, through the environments table and out of it without changing
     * which environment is selected; Shift+Tab goes back out of it the other way.
     */
    @Test
    void tabWalksEveryFieldAndLeavesTheEnvironmentsTable() {
        Set<String> fieldNames = new HashSet<>(ExperimentText.FIELDS);
        ExperimentText.ENVIRONMENT_FIELDS.forEach(f -> fieldNames.add("env." + f));
        fieldNames.add("environments.table");
        List<String> fields = GuiActionRunner.execute(() -> {
            List<String> out = new ArrayList<>();
            collect(frame.editor(), fieldNames, out);
            return out;
        });
        assertThat(fields).contains("name", "target", "environments.table", "env.name", "readyTimeoutSeconds");
        JTableFixture table = window.table("environments.table");
        int selected = GuiActionRunner.execute(() -> table.target().getSelectedRow());

        window.textBox("name").focus();
        List<String> visited = new ArrayList<>();
        visited.add("name");
        for (int i = 0; i < 200 && !visited.get(visited.size() - 1).equals("readyTimeoutSeconds"); i++) {
            robot.pressAndReleaseKeys(KeyEvent.VK_TAB);
            robot.waitForIdle();
            String at = GuiActionRunner.execute(() -> focusedField(fieldNames));
            if (!at.isEmpty() && !at.equals(visited.get(visited.size() - 1))) {
                visited.add(at);
            }
        }
        assertThat(visited).as("Tab from Name reaches every field").containsAll(fields);
        assertThat(visited.get(visited.size() - 1)).isEqualTo("readyTimeoutSeconds");
        assertThat(visited.stream().filter("environments.table"::equals).count())
                .as("the table is passed through once, not walked cell by cell")
                .isEqualTo(1);
        assertThat(GuiActionRunner.execute(() -> table.target().getSelectedRow()))
                .as("Tab through the table keeps its selection")
                .isEqualTo(selected);

        table.focus();
        robot.pressAndReleaseKey(KeyEvent.VK_TAB, InputEvent.SHIFT_DOWN_MASK);
        robot.waitForIdle();
        assertThat(GuiActionRunner.execute(() -> table.target().isFocusOwner())).isFalse();
        table.focus();
        robot.pressAndReleaseKey(KeyEvent.VK_TAB, InputEvent.CTRL_DOWN_MASK);
        robot.waitForIdle();
        assertThat(GuiActionRunner.execute(() -> table.target().isFocusOwner())).isFalse();
        assertThat(GuiActionRunner.execute(() -> table.target().getSelectedRow()))
                .isEqualTo(selected);
    }

    /** The form's fields a keyboard user can reach: shown, enabled, focusable. */
    private static void collect(Container c, Set<String> names, List<String> out) {
        for (Component k : c.getComponents()) {
            if (names.contains(k.getName()) && k.isShowing() && k.isEnabled() && k.isFocusable()) {
                out.add(k.getName());
            } else if (k instanceof Container inner) {
                collect(inner, names, out);
            }
        }
    }

    /** The form field that has the focus (an editable drop-down's editor is its drop-down), or "". */
    private static String focusedField(Set<String> names) {
        Component c = KeyboardFocusManager.getCurrentKeyboardFocusManager().getFocusOwner();
        for (; c != null; c = c.getParent()) {
            if (names.contains(c.getName())) {
                return c.getName();
            }
        }
        return "";
    }

    private String yaml() {
        return GuiActionRunner.execute(
                () -> window.textBox("experiment.yaml").target().getText());
    }

    @Test
    void runsAShortExperimentForRealThenShowsSortsAndExportsTheComparison() throws Exception {
        DockerInventory docker = docker();
        Path file =
                nginxExperiment(temp, "gui-test", 2, 1, 4); // two live summaries a run (JMeter writes one every 2 s)
        GuiActionRunner.execute(() -> frame.openExperiment(file));
        waitFor("the file is good", () -> status().startsWith("OK"));

        window.menuItemWithPath("Run", "Run").click();
        waitFor(
                "the run view shows progress",
                () -> GuiActionRunner.execute(() ->
                        window.progressBar("run.progress").target().getString().startsWith("run ")));
        // looked up whether it shows or not: a lookup of a table no longer showing would fail at once, not wait
        JTable figures = robot.finder().findByName(frame, "run.figures", JTable.class, false);
        waitFor(
                "live figures arrive",
                Duration.ofSeconds(60),
                () -> GuiActionRunner.execute(() -> figures.getRowCount() > 0
                        && figures.getValueAt(0, 2) != null
                        && !figures.getValueAt(0, 2).toString().isEmpty()));
        waitFor(
                "the third run is on (both environments have drawn a run)",
                Duration.ofSeconds(90),
                () -> GuiActionRunner.execute(() ->
                        window.progressBar("run.progress").target().getString().startsWith("run 3 of 4")));
        Pause.pause(2500); // a few live points of the third run
        screenshot("run");
        waitFor(
                "the results are shown",
                Duration.ofMinutes(3),
                () -> GuiActionRunner.execute(() -> frame.results().isShowing()
                        && window.label("results.heading").target().getText().contains("gui-test —")));
        assertThat(window.label("results.heading").text()).contains("passed").contains("4 of 4 runs");
        window.tabbedPane("results.tabs").selectTab(0);
        JTableFixture across = window.table("results.acrossRuns");
        assertThat(column(across, 1)).contains("bare", "docker-host");
        screenshot("results");

        window.tabbedPane("results.tabs").selectTab(1);
        JTableFixture samples = window.table("results.samples");
        int count = List.of(ComparisonReport.TABLE_HEAD).indexOf("count");
        samples.tableHeader().clickColumn(count);
        List<String> counts = column(samples, count);
        List<String> labels = column(samples, 0);
        assertThat(labels.get(labels.size() - 1)).isEqualTo("TOTAL");
        List<Double> body = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            if (!labels.get(i).equals("TOTAL")) {
                body.add(TableOrder.number(counts.get(i)));
            }
        }
        assertThat(body).isSorted();
        samples.tableHeader().clickColumn(count);
        assertThat(column(samples, 0).get(labels.size() - 1)).isEqualTo("TOTAL");

        // two closed-loop runs a side: the noise floor says no comparison could show anything (too few runs, or JMeter
        // set the pace), rather than leave "~" to stand alone
        window.tabbedPane("results.tabs").selectTab("Noise floor");
        JTableFixture noise = window.table("results.noiseFloor");
        assertThat(column(noise, 0)).containsExactly("docker-host");
        assertThat(column(noise, 2)).singleElement().asString().isIn("none: too few runs", "none: generator-bound");
        window.tabbedPane("results.tabs").selectTab("CPU per request");
        assertThat(column(window.table("results.cost"), 0)).contains("bare", "docker-host");

        window.tabbedPane("results.tabs").selectTab(3);
        screenshot("results-chart");
        window.button("results.exportCharts").click();
        JFileChooserFixture chooser = window.fileChooser(Timeout.timeout(10_000));
        Path exportDir = Files.createDirectories(temp.resolve("charts"));
        chooser.setCurrentDirectory(exportDir.toFile());
        chooser.fileNameTextBox().setText(exportDir.toString());
        chooser.approve();
        window.optionPane(Timeout.timeout(20_000)).okButton().click();
        Path p90 = exportDir.resolve("p90.png");
        assertThat(p90).exists();
        assertThat(distinctColours(ImageIO.read(p90.toFile()))).isGreaterThan(8);

        // a second run directory (a copy of the first): both side by side, against the older one's baseline
        Path first;
        try (var dirs = Files.list(temp.resolve("results"))) {
            first = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        Path second = temp.resolve("results/gui-test-later");
        copyTree(first, second);
        Files.setLastModifiedTime(second.resolve("runs.csv"), FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        window.menuItemWithPath("Results", "Show past runs").click();
        window.list("results.history").requireItemCount(2);
        window.list("results.history").selectItems(0, 1);
        window.button("results.sideBySide").click();
        waitFor(
                "both runs side by side",
                () -> GuiActionRunner.execute(
                                () -> window.label("results.heading").target().getText())
                        .startsWith("Side by side"),
                () -> "the heading says '"
                        + GuiActionRunner.execute(
                                () -> window.label("results.heading").target().getText()) + "'; dialogs: "
                        + GuiActionRunner.execute(() -> Arrays.stream(Window.getWindows())
                                .filter(w -> w.isShowing() && w instanceof JDialog)
                                .map(w -> ((JDialog) w).getTitle() + ": " + textOf(((JDialog) w).getContentPane()))
                                .toList()));
        window.tabbedPane("results.tabs").selectTab(0);
        assertThat(column(window.table("results.acrossRuns"), 1))
                .contains(first.getFileName() + "/bare", "gui-test-later/docker-host");
        assertThat(window.label("results.heading").text()).contains("baseline " + first.getFileName() + "/bare");
        screenshot("side-by-side");

        assertThat(docker.containers()).as("nothing labelled left in Docker").isEmpty();
    }

    /**
     * Run > Find capacity on the real JMeter against nginx bare metal: the search steps its fixed rates as
     * ./envbench capacity does, says each step, draws the knee chart in its window and writes the steps where the
     * command line writes them. The rates are low enough for any machine and the windows long enough that a busy CI
     * machine's half-second stall stays inside the Poisson tolerance: this tests the window, not the machine's speed.
     */
    @Test
    void findsTheCapacityOfBareMetalWithItsKneeChart() throws Exception {
        Path file = Files.writeString(temp.resolve("cap.yaml"), """
                name: gui-capacity
                target: nginx-static
                port: 18483
                environments:
                  - { name: bare, placement: bare }
                capacity:
                  slo: ["errorPct < 1"]
                  startRate: 20
                  maxRate: 40
                  stepSeconds: 8
                  warmupSeconds: 3
                load:
                  http: { path: /page-4k.html, threads: 4, durationSeconds: 5 }
                """);
        GuiActionRunner.execute(() -> frame.openExperiment(file));
        waitFor("the file is good", () -> status().startsWith("OK"));
        CapacityDialog d = GuiActionRunner.execute(() -> frame.findCapacity("bare"));
        assertThat(d).as("the search started").isNotNull();
        CapacitySearch.Result r = d.found().get(3, TimeUnit.MINUTES);
        assertThat(r.capacity()).as(r.summary()).isEqualTo(40);
        DialogFixture dialog = new DialogFixture(robot, d);
        waitFor(
                "the result is shown",
                () -> GuiActionRunner.execute(
                        () -> dialog.label("capacity.result").target().getText().equals(r.summary())));
        assertThat(GuiActionRunner.execute(
                        () -> ((ChartPanel) dialog.panel("capacity.chart").target()).getChart()))
                .as("the knee chart")
                .isNotNull();
        assertThat(dialog.textBox("capacity.log").text()).contains("20/s").contains(r.summary());
        dialog.button("capacity.close").requireEnabled();
        try (var dirs = Files.list(temp.resolve("results"))) {
            Path run = dirs.filter(p -> p.getFileName().toString().startsWith("gui-capacity-capacity"))
                    .findFirst()
                    .orElseThrow();
            assertThat(Files.readAllLines(run.resolve("capacity/bare.csv"))).hasSize(3);
            assertThat(run.resolve("capacity/bare-knee.png")).exists();
        }
        screenshot("capacity");
        dialog.button("capacity.close").click();
    }

    /**
     * A multi-tenant example (study 004's (docs/studies.md#study-004) scenario 2) opens from File > Open example in the
     * tenants' form (no environments table; the load a plan; criteria off), a bad field is named, edits of a scenario
     * field and of two configuration cells save to a file the core's reader reads back with them, and the saved file
     * reopens in the form.
     */
    @Test
    void aMultiTenantExampleOpensEditsAndSavesBack() throws Exception {
        window.menuItemWithPath("File", "Open example", "testplans/experiments/daytrader-scenario-2.yaml")
                .click();
        window.panel("tenants.section").requireVisible();
        assertThat(GuiActionRunner.execute(() -> robot.finder()
                        .findByName(frame, "environments.table", JTable.class, false)
                        .isShowing()))
                .as("no environments table for a multi-tenant experiment")
                .isFalse();
        window.textBox("tenants.count").requireText("4");
        window.textBox("tenants.highTenants").requireText("1");
        window.textBox("tenants.high.requestsPerSecond").requireText("1200");
        window.radioButton("load.kind.http").requireDisabled();
        window.radioButton("load.kind.plan").requireSelected();
        JTableFixture configurations = window.table("configurations.table");
        assertThat(column(configurations, 0)).containsExactly("none", "static", "dynamic");
        assertThat(column(configurations, 1)).containsExactly("none", "static", "dynamic");
        assertThat(column(configurations, 3)).containsExactly("—", "—", "5");
        waitFor(
                "the example is good",
                () -> status().startsWith("OK: 4 tenants under 3 configurations x 3 repetitions"),
                () -> "the status says: " + status());

        window.textBox("tenants.low.threads").setText("0");
        waitFor(
                "the field is named",
                () -> status().contains("tenants.low.threads"),
                () -> "the status says: " + status());
        window.textBox("tenants.low.threads").setText("4");
        window.textBox("tenants.high.requestsPerSecond").setText("800");
        // scrolled to, as a user does: the configurations are below the tenants (a viewport scrolls only its own view)
        GuiActionRunner.execute(() -> {
            JComponent pane =
                    (JComponent) SwingUtilities.getAncestorOfClass(JScrollPane.class, configurations.target());
            pane.scrollRectToVisible(new Rectangle(0, 0, pane.getWidth(), pane.getHeight()));
        });
        configurations.enterValue(TableCell.row(2).column(3), "2");
        configurations.enterValue(TableCell.row(1).column(1), "dynamic");
        waitFor(
                "the loop's period is the dynamic control's own (empty: 5 s) once static became dynamic",
                () -> column(configurations, 3).get(1).isEmpty());
        waitFor("the edits are good", () -> status().startsWith("OK"), () -> "the status says: " + status());
        // the last column: scrolled to, as a user does (the form is wider than its window, and a table's own viewport
        // scrolls only itself)
        GuiActionRunner.execute(() -> {
            JTable table = configurations.target();
            JComponent pane = (JComponent) SwingUtilities.getAncestorOfClass(JScrollPane.class, table);
            pane.scrollRectToVisible(SwingUtilities.convertRectangle(table, table.getCellRect(2, 5, true), pane));
        });
        configurations.enterValue(TableCell.row(2).column(5), "spare");
        waitFor(
                "the floating tenants' place is the dynamic row's",
                () -> column(configurations, 5).equals(List.of("", "", "spare")) && status().startsWith("OK"),
                () -> "the column says " + column(configurations, 5) + "; the status says: " + status());
        // scenario 3 under none: its own highTenants; and a goal the high tenant's threads cannot keep at its rate
        configurations.enterValue(TableCell.row(0).column(4), "2");
        window.textBox("tenants.high.responseTimeGoalMs").setText("50");
        waitFor(
                "the shortfall is named after the OK",
                () -> status().startsWith("OK")
                        && status().contains(
                                        "\nWarning: tenant-4 (under none, static, dynamic): 24 threads answering at"
                                                + " its goal of 50 ms send at most 480/s of the 800/s asked; give it at least 40 threads")
                        && status().contains("\nWarning: tenant-3 (under none): 24 threads"),
                () -> "the status says: " + status());
        screenshot("editor-tenants");

        Path saved = temp.resolve("tenants.yaml");
        GuiActionRunner.execute(() -> frame.saveTo(saved));
        Experiment e = ExperimentFile.read(saved, ROOT.resolve("targets"));
        Tenancy t = e.tenancy().orElseThrow();
        assertThat(t.tenantNames()).containsExactly("tenant-1", "tenant-2", "tenant-3", "tenant-4");
        assertThat(t.tenants().get(3).requestsPerSecond()).isEqualTo(800.0);
        assertThat(t.tenants().get(0).requestsPerSecond()).isEqualTo(190.0);
        assertThat(t.tenantsUnder(t.configuration("none")).stream()
                        .map(p -> p.requestsPerSecond())
                        .toList())
                .containsExactly(190.0, 190.0, 800.0, 800.0);
        assertThat(t.tenantsUnder(t.configuration("static")).stream()
                        .filter(p -> p.high())
                        .count())
                .isEqualTo(1);
        assertThat(t.configuration("dynamic").controlInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(t.configuration("static").cpuControl()).isEqualTo(CpuControlMode.DYNAMIC);
        assertThat(t.configuration("dynamic").floating()).isEqualTo(FloatingCpus.SPARE);
        assertThat(t.configuration("static").floating()).isEqualTo(FloatingCpus.UNPINNED);
        assertThat(e.load().plan().orElseThrow()).isEqualTo(ROOT.resolve("testplans/daytrader.jmx"));
        assertThat(e.baseline()).isEqualTo("none");

        GuiActionRunner.execute(() -> frame.openExperiment(saved));
        window.textBox("tenants.high.requestsPerSecond").requireText("800");
        assertThat(column(window.table("configurations.table"), 3)).containsExactly("—", "", "2");
        assertThat(column(window.table("configurations.table"), 4)).containsExactly("2", "", "");
        assertThat(column(window.table("configurations.table"), 5)).containsExactly("", "", "spare");
        waitFor(
                "the saved file is good",
                () -> status().startsWith("OK: 4 tenants"),
                () -> "the status says: " + status());
    }

    /**
     * The multi-tenant form with the keyboard alone: Tab (and Shift+Tab, Ctrl+Tab) leaves the tenants and the
     * configurations tables for the next field instead of walking their cells, and keeps the selected row; a walk with
     * Tab from the first tenants field passes each table once. Every table of the window (form, run, results) lets Tab
     * out the same way.
     */
    @Test
    void tabLeavesTheTenantsTablesAndEveryOtherTable() {
        window.menuItemWithPath("File", "Open example", "testplans/experiments/daytrader-scenario-2.yaml")
                .click();
        window.radioButton("tenants.form.each").click(); // the tenants written out: their table shows
        robot.waitForIdle();
        List<String> tables = List.of("tenants.table", "configurations.table");
        for (String name : tables) {
            JTableFixture table = window.table(name);
            GuiActionRunner.execute(() -> table.target().setRowSelectionInterval(1, 1));
            for (int modifiers : new int[] {0, InputEvent.SHIFT_DOWN_MASK, InputEvent.CTRL_DOWN_MASK}) {
                table.focus();
                robot.pressAndReleaseKey(KeyEvent.VK_TAB, modifiers);
                robot.waitForIdle();
                assertThat(GuiActionRunner.execute(() -> table.target().isFocusOwner()))
                        .as(name + ": Tab with modifiers " + modifiers + " leaves it")
                        .isFalse();
                assertThat(GuiActionRunner.execute(() -> table.target().getSelectedRow()))
                        .as(name + ": its selected row stays")
                        .isEqualTo(1);
            }
        }

        Set<String> names = new HashSet<>(tables);
        names.add("tenants.cpus");
        window.textBox("tenants.cpus").focus();
        List<String> visited = new ArrayList<>();
        for (int i = 0; i < 120 && !visited.contains("configurations.table"); i++) {
            robot.pressAndReleaseKeys(KeyEvent.VK_TAB);
            robot.waitForIdle();
            String at = GuiActionRunner.execute(() -> focusedField(names));
            if (!at.isEmpty() && (visited.isEmpty() || !at.equals(visited.get(visited.size() - 1)))) {
                visited.add(at);
            }
        }
        assertThat(visited)
                .as("Tab from CPUs shared reaches both tables")
                .contains("tenants.table", "configurations.table");
        assertThat(visited.stream().filter("tenants.table"::equals).count())
                .as("the tenants table is passed through once, not walked cell by cell")
                .isEqualTo(1);

        List<JTable> all = GuiActionRunner.execute(() -> {
            List<JTable> out = new ArrayList<>();
            tablesIn(frame.getContentPane(), out);
            return out;
        });
        assertThat(all.size())
                .as("the form's, the run view's and the results' tables")
                .isGreaterThan(8);
        for (JTable t : all) {
            assertThat(t.getFocusTraversalKeys(KeyboardFocusManager.FORWARD_TRAVERSAL_KEYS))
                    .as(t.getName() + " lets Tab out")
                    .contains(java.awt.AWTKeyStroke.getAWTKeyStroke(KeyEvent.VK_TAB, 0));
        }
    }

    private static void tablesIn(Container c, List<JTable> out) {
        for (Component k : c.getComponents()) {
            if (k instanceof JTable t) {
                out.add(t);
            } else if (k instanceof Container inner) {
                tablesIn(inner, out);
            }
        }
    }

    /**
     * A short multi-tenant experiment run from the controller for real (two DayTrader tenants in containers, the dynamic
     * CPU control): the run view has a row per tenant with its live figures, the results a per-tenant table and the run's
     * CPU chart with the control's actions drawn over it; the run directory has the per-tenant report envbench run writes.
     */
    @Test
    void aShortMultiTenantRunShowsEachTenantLiveAndInTheResults() throws Exception {
        DockerInventory docker = docker();
        ExperimentText d = ExperimentText.newMultiTenantExperiment();
        d.set("name", "gui-tenants");
        d.set("port", "18491");
        d.set("tenants.cpus", "2");
        d.set("tenants.users", "20");
        d.set("tenants.quotes", "50");
        d.set("tenants.count", "2");
        d.set("tenants.low.threads", "2");
        d.set("tenants.low.requestsPerSecond", "15");
        d.set("tenants.high.threads", "2");
        d.set("tenants.high.requestsPerSecond", "0");
        d.removeConfiguration(1);
        d.removeConfiguration(0);
        d.configuration(0, "controlIntervalSeconds", "1");
        d.set("baseline", "dynamic");
        d.set("repetitions", "1");
        d.set("load.plan", ROOT.resolve("testplans/daytrader.jmx").toString());
        d.set("load.warmupSeconds", "2");
        d.set("load.durationSeconds", "8");
        Path file = temp.resolve("gui-tenants.yaml");
        Files.writeString(file, d.toYaml());
        GuiActionRunner.execute(() -> frame.openExperiment(file));
        waitFor(
                "the file is good",
                () -> status().startsWith("OK: 2 tenants under 1 configuration"),
                () -> "the status says: " + status());

        long t0 = System.nanoTime();
        window.menuItemWithPath("Run", "Run").click();
        JTable figures = robot.finder().findByName(frame, "run.figures", JTable.class, false);
        waitFor(
                "a row per tenant",
                () -> GuiActionRunner.execute(() -> figures.getRowCount() == 2
                        && figures.getColumnName(0).equals("tenant")
                        && figures.getValueAt(1, 0).equals("tenant-2")));
        waitFor(
                "live figures of both tenants",
                Duration.ofSeconds(150),
                () -> GuiActionRunner.execute(
                        () -> !String.valueOf(figures.getValueAt(0, 2)).isEmpty()
                                && !String.valueOf(figures.getValueAt(1, 2)).isEmpty()),
                () -> "the figures are " + GuiActionRunner.execute(() -> rows(figures)) + "; the run's log says:\n"
                        + GuiActionRunner.execute(() -> robot.finder()
                                .findByName(frame, "run.log", JTextArea.class, false)
                                .getText()));
        screenshot("run-tenants");
        waitFor(
                "the results are shown",
                Duration.ofMinutes(3),
                () -> GuiActionRunner.execute(() -> frame.results().isShowing()
                        && window.label("results.heading").target().getText().contains("gui-tenants —")));
        System.out.printf(
                "multi-tenant run from the controller, 2 tenants x 1 configuration: %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
        assertThat(window.label("results.heading").text()).contains("1 of 1 runs");
        JTableFixture perTenant = window.table("results.tenants");
        assertThat(column(perTenant, 0)).containsExactly("dynamic", "dynamic");
        assertThat(column(perTenant, 1)).containsExactly("tenant-1", "tenant-2");
        assertThat(TableOrder.number(column(perTenant, 3).get(0)))
                .as("tenant-1's throughput")
                .isGreaterThan(0);
        JFreeChart cpu = GuiActionRunner.execute(() -> frame.results().charts().get("tenants-cpu-dynamic-r1"));
        assertThat(cpu).as("the run's CPU chart with the control's actions").isNotNull();
        List<String> labels = new ArrayList<>();
        for (Object m : cpu.getXYPlot().getDomainMarkers(Layer.FOREGROUND)) {
            labels.add(((Marker) m).getLabel());
        }
        System.out.println("control actions drawn: " + labels);
        assertThat(labels)
                .as("the dynamic control pinned the tenants and put them back")
                .anyMatch(l -> l.contains("pin"))
                .anyMatch(l -> l.contains("restore"));
        screenshot("results-tenants");
        Path runDir;
        try (var dirs = Files.list(temp.resolve("results"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertThat(runDir.resolve("report/tenants.md")).exists();
        assertThat(runDir.resolve("report/charts/tenants-cpu-dynamic-r1.png")).exists();
        assertThat(docker.containers()).as("nothing labelled left in Docker").isEmpty();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    @Test
    void aTargetOfOnesOwnIsMadeFromTheFormAndBadInputLeavesNothing() throws Exception {
        Path made = ROOT.resolve("targets/envbench-gui-test-target");
        try {
            window.button("target.new").click();
            DialogFixture dialog = window.dialog("target.dialog");
            dialog.textBox("target.name").setText("bad name");
            dialog.textBox("target.bareCommand").setText("./run.sh");
            dialog.textBox("target.image").setText("envbench/nginx-static:latest");
            dialog.button("target.create").click();
            // typed text is set directly (the robot's key events can be lost on a loaded machine); the click is the
            // user's
            waitFor(
                    "the name is refused",
                    () -> GuiActionRunner.execute(
                                    () -> dialog.label("target.status").target().getText())
                            .contains("name"),
                    () -> "the dialog says: "
                            + GuiActionRunner.execute(
                                    () -> dialog.label("target.status").target().getText()));
            assertThat(ROOT.resolve("targets/bad name")).doesNotExist();
            screenshot("new-target-refused");
            dialog.textBox("target.name").setText(made.getFileName().toString());
            dialog.button("target.create").click();
            waitFor(
                    "the target is the experiment's",
                    () -> GuiActionRunner.execute(() -> frame.editor().draft().get("target"))
                            .equals(made.getFileName().toString()));
            assertThat(made.resolve("target.properties")).exists();
            assertThat(Files.readString(made.resolve("target.properties")))
                    .contains("image=envbench/nginx-static:latest")
                    .contains("bare.command=./run.sh");
            waitFor("the form accepts it", () -> status().startsWith("OK"));
        } finally {
            if (Files.exists(made)) {
                try (var files = Files.walk(made)) {
                    for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }

    private String status() {
        return GuiActionRunner.execute(
                () -> window.textBox("editor.status").target().getText());
    }

    private static List<String> column(JTableFixture t, int c) {
        return GuiActionRunner.execute(() -> {
            JTable table = t.target();
            List<String> v = new ArrayList<>();
            for (int r = 0; r < table.getRowCount(); r++) {
                v.add(String.valueOf(table.getValueAt(r, c)));
            }
            return v;
        });
    }

    private static List<List<String>> rows(JTable table) {
        List<List<String>> rows = new ArrayList<>();
        for (int r = 0; r < table.getRowCount(); r++) {
            List<String> row = new ArrayList<>();
            for (int c = 0; c < table.getColumnCount(); c++) {
                row.add(String.valueOf(table.getValueAt(r, c)));
            }
            rows.add(row);
        }
        return rows;
    }

    private static void waitFor(String what, BooleanSupplier ok) {
        waitFor(what, Duration.ofSeconds(10), ok);
    }

    /** As {@link #waitFor(String, java.util.function.BooleanSupplier)}, with what was seen instead in the failure. */
    private static void waitFor(String what, BooleanSupplier ok, Supplier<String> seen) {
        waitFor(what, Duration.ofSeconds(10), ok, seen);
    }

    private static void waitFor(String what, Duration timeout, BooleanSupplier ok, Supplier<String> seen) {
        try {
            waitFor(what, timeout, ok);
        } catch (WaitTimedOutError e) {
            throw new AssertionError(e.getMessage() + "; " + seen.get(), e);
        }
    }

    private static void waitFor(String what, Duration timeout, BooleanSupplier ok) {
        Pause.pause(
                new Condition(what) {
                    @Override
                    public boolean test() {
                        return ok.getAsBoolean();
                    }
                },
                timeout.toMillis());
    }

    /**
     * The window's content as Swing paints it on its event thread, kept as a test artefact and checked to show
     * something. Not a capture of the screen, which waits for an idle event queue that a blinking caret or a live chart
     * keeps busy for up to 10 s a picture; so it shows what Swing draws, not that the screen got it.
     */
    private void screenshot(String name) throws IOException {
        BufferedImage image = GuiActionRunner.execute(() -> {
            javax.swing.JRootPane root = frame.getRootPane();
            BufferedImage i = new BufferedImage(
                    Math.max(1, root.getWidth()), Math.max(1, root.getHeight()), BufferedImage.TYPE_INT_RGB);
            java.awt.Graphics2D g = i.createGraphics();
            try {
                root.paintAll(g);
            } finally {
                g.dispose();
            }
            return i;
        });
        Files.createDirectories(SCREENSHOTS);
        Path f = SCREENSHOTS.resolve(name + ".png");
        ImageIO.write(image, "png", f.toFile());
        assertThat(distinctColours(image)).as(f + " is not blank").isGreaterThan(20);
    }

    private static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }

    /** nginx bare metal and in a container on the host network, GET /page-4k.html closed loop, 2 runs each; saved in {@code dir}. */
    static Path nginxExperiment(Path dir, String name, int threads, int warmupSeconds, int durationSeconds)
            throws IOException {
        ExperimentText draft = ExperimentText.newExperiment("nginx-static");
        draft.set("name", name);
        draft.set("repetitions", "2");
        draft.set("load.http.path", "/page-4k.html");
        draft.set("load.http.threads", Integer.toString(threads));
        draft.set("load.warmupSeconds", Integer.toString(warmupSeconds));
        draft.set("load.durationSeconds", Integer.toString(durationSeconds));
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, draft.toYaml());
        return file;
    }

    /** Docker for tests: skipped on a laptop without it, a failure under CI=true. */
    static DockerInventory docker() throws TargetStartException {
        DockerRequired.check();
        return new DockerInventory(DockerDaemon.fromEnvironment());
    }

    /** The texts of a dialog's labels and option pane (what a user reads in it). */
    private static String textOf(Container c) {
        StringBuilder b = new StringBuilder();
        for (Component k : c.getComponents()) {
            if (k instanceof JLabel l && l.getText() != null) {
                b.append(l.getText()).append(' ');
            } else if (k instanceof JOptionPane p) {
                b.append(p.getMessage()).append(' ');
            } else if (k instanceof Container inner) {
                b.append(textOf(inner));
            }
        }
        return b.toString();
    }
}
