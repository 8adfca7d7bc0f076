package io.envbench.controller.editor;

import java.awt.BorderLayout;
import java.awt.GridBagLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

import io.envbench.base.recipe.TargetRecipe;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.ExperimentText.LoadKind;
import io.envbench.study.experiment.Tenancy;
import net.jcip.annotations.NotThreadSafe;

/**
 * The experiment editor: a form over an experiment file. Every choice is a drop-down, the recipes found under
 * {@code targets/} are listed, container fields are disabled for a bare-metal environment, each change is checked
 * by the core's reader as one types (the message names the field, and the field is outlined), and the file the
 * form writes is shown read-only beside it. The event thread owns it.
 *
 * <p>It holds the file (open, save, where a new one would go), the check after each change, and the form's own rows
 * (the experiment, its runs, what the verdicts stand on, where the load goes); the parts with more to them are
 * {@link EnvironmentsSection}, {@link TenantsSection} and {@link LoadSection}, all bound to the draft through one
 * {@link DraftBinding}. The {@link YamlPreview} is beside the form, the {@link CheckStatus} below it.
 */
@NotThreadSafe
public final class ExperimentEditor extends JPanel {
    /** The experiment {@code ./envbench demo} runs: a new experiment starts with its target and load. */
    static final String DEMO_EXPERIMENT = "testplans/experiments/static-web.yaml";

    private final Path root;
    private final Path targets;
    private ExperimentText draft;
    private Path file;
    private boolean dirty;
    private final List<Consumer<ExperimentEditor>> changeListeners = new ArrayList<>();

    private final DraftBinding binding = new DraftBinding(() -> draft, this::changed);
    private final EnvironmentsSection environments;
    private final TenantsSection tenants;
    private final LoadSection loadSection;
    private final YamlPreview preview = new YamlPreview();
    private final CheckStatus status;
    private final Timer checkSoon = new Timer(150, e -> check());
    private Optional<ExperimentException> problem = Optional.empty();
    /** Each recipe's description and the loads it takes. */
    private Map<String, TargetFit> fits;
    /** The target the load section offers loads for: a change of it (typed or chosen) is followed at the check. */
    private String offeredTarget = "";

    private final JLabel targetAbout = new JLabel(" ");

    /**
     * @param root the EnvBench folder: {@code targets/} for the recipes, {@code testplans/} for the plans
     */
    public ExperimentEditor(Path root) {
        super(new BorderLayout());
        this.root = root;
        this.targets = root.resolve("targets");
        this.status = new CheckStatus(root);
        this.fits = TargetFit.read(root, root.resolve(DEMO_EXPERIMENT));
        checkSoon.setRepeats(false);
        setName("experiment.editor");
        PathChooser paths = new PathChooser(this, this::fileOrNominal);

        // FormRows places rows in the order they are added: the sections are made top to bottom
        JPanel form = new JPanel(new GridBagLayout());
        FormRows rows = new FormRows(form);
        rows.section("Experiment");
        rows.add("Name", binding.text("name"));
        rows.add("Description", binding.text("description"));
        JPanel target = new JPanel(new BorderLayout(4, 0));
        JComboBox<String> targetChoice = binding.combo("target", true, recipes());
        targetChoice.setRenderer(new TargetRenderer(() -> fits));
        target.add(targetChoice);
        JButton newTarget = new JButton("New target…");
        newTarget.setName("target.new");
        newTarget.setToolTipText("a recipe of your own: a host command line plus an image or a Dockerfile");
        newTarget.addActionListener(
                e -> new NewTargetDialog(SwingUtilities.getWindowAncestor(this), targets, this::targetCreated)
                        .setVisible(true));
        target.add(newTarget, BorderLayout.EAST);
        rows.add("Target", target);
        targetAbout.setName("target.about");
        rows.add("", targetAbout);

        environments = new EnvironmentsSection(
                binding, recipes(), paths, () -> fit(draft.get("target")).dataPath(), this::check);
        rows.wide(environments.panel());
        tenants = new TenantsSection(binding);
        rows.wide(tenants.panel());
        loadSection = new LoadSection(binding, root, paths, rows);

        rows.section("Runs");
        rows.add("Repetitions (a number, or auto)", binding.text("repetitions"));
        rows.add("auto: fewest rounds", binding.text("minRepetitions"));
        rows.add("auto: most rounds", binding.text("maxRepetitions"));
        rows.add("auto: stop when intervals within", binding.text("intervalWidth"));
        rows.add("Order", binding.combo("order", false, List.of("interleaved", "randomized")));
        rows.add("Seed", binding.text("seed"));
        rows.add("Baseline", binding.combo("baseline", true, List.of()));
        rows.add("Criteria", DraftBinding.scroll(binding.area("criteria", 5)));

        rows.section("What the verdicts stand on");
        rows.add("Load generator's CPUs", binding.choice("isolation"));
        rows.add("Verdicts where JMeter set the pace", binding.choice("allowGeneratorBound"));
        rows.add("Baseline against itself", binding.choice("calibration"));
        rows.add("Correction of p-values", binding.choice("correction"));

        rows.section("Where the load goes");
        rows.add("Port", binding.text("port"));
        rows.add("Ready timeout (s)", binding.text("readyTimeoutSeconds"));
        rows.end();

        JScrollPane formScroll = new JScrollPane(form);
        formScroll.getVerticalScrollBar().setUnitIncrement(16);
        JSplitPane split = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, formScroll, preview.panel());
        split.setName("editor.split");
        split.setResizeWeight(0.6);
        add(split);
        add(status.line(), BorderLayout.SOUTH);
        newExperiment(demoTarget());
    }

    /**
     * Shows a new experiment on {@code target}, valid as it is: bare metal against a container, with the load that fits
     * the target (its example's: the demo's HTTP load for nginx-static, bonnie.sh for bonnie).
     */
    public void newExperiment(String target) {
        ExperimentText d = ExperimentText.newExperiment(target);
        fit(target).startLoad(d);
        load(d, null);
    }

    /** The demo's target, where a first experiment starts; the first recipe when the demo is not there. */
    public String demoTarget() {
        String demo = "";
        try {
            demo = ExperimentText.fromYaml(Files.readString(root.resolve(DEMO_EXPERIMENT)))
                    .get("target")
                    .strip();
        } catch (IOException e) {
            // no demo: the first recipe
        }
        List<String> all = recipes();
        return all.contains(demo) ? demo : all.isEmpty() ? "" : all.get(0);
    }

    /** Shows a draft; {@code file} is where it was read from (null: not saved yet). */
    public void load(ExperimentText d, Path file) {
        this.draft = d;
        this.file = file;
        loadSection.refillPlans(file); // relative to this file's folder
        binding.quietly(() -> {
            binding.fill(d);
            loadSection.loaded();
            environments.loaded();
            tenants.loaded();
        });
        environments.show();
        showKind();
        offerLoads(); // a file keeps its load as written, even one its target does not take: the check says so
        dirty = false;
        check();
    }

    /** Opens an experiment file in the form. */
    public void open(Path f) throws IOException {
        load(ExperimentText.fromYaml(Files.readString(f)), f.toAbsolutePath().normalize());
    }

    /** Opens a file as a new, unsaved experiment in the same folder (an example stays as shipped, with its comments). */
    public void openCopy(Path f) throws IOException {
        ExperimentText d = ExperimentText.fromYaml(Files.readString(f));
        Path nominal = fileOrNominalFor(d);
        d.relocate(f.toAbsolutePath().getParent(), nominal.getParent());
        load(d, null);
        dirty = true;
        check();
    }

    /** Whether the file the editor would overwrite has comments that saving would drop. */
    public boolean fileHasComments() {
        try {
            return file != null
                    && Files.readString(file).lines().anyMatch(l -> l.strip().startsWith("#") || l.contains(" #"));
        } catch (IOException e) {
            return false;
        }
    }

    /** Writes the form's file to {@code f}, which becomes the editor's file. */
    public void save(Path f) throws IOException {
        Path to = f.toAbsolutePath().normalize();
        Path from = fileOrNominal().getParent();
        if (!to.getParent().equals(from)) {
            draft.relocate(from, to.getParent()); // relative plans and bind sources keep naming the same files
            load(draft, file);
        }
        Files.writeString(to, draft.toYaml());
        file = f.toAbsolutePath().normalize();
        dirty = false;
        check();
    }

    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    public boolean dirty() {
        return dirty;
    }

    public ExperimentText draft() {
        return draft;
    }

    /** Where the draft is checked as if saved: its file, else a new file in testplans/experiments/. */
    public Path fileOrNominal() {
        return file != null ? file : fileOrNominalFor(draft);
    }

    private Path fileOrNominalFor(ExperimentText d) {
        String name = d.get("name").strip();
        return root.resolve("testplans/experiments")
                .resolve((name.isEmpty() || !name.matches("[A-Za-z0-9_.-]+") ? "untitled" : name) + ".yaml");
    }

    /** The problem the last check found, if any. */
    public Optional<ExperimentException> problem() {
        return problem;
    }

    /** Told after each change of the form (e.g. to update the window's title). */
    public void onChange(Consumer<ExperimentEditor> l) {
        changeListeners.add(l);
    }

    /** Checks the form now (the check also runs shortly after each change). */
    public void check() {
        checkSoon.stop();
        followTarget();
        preview.show(draft.toYaml());
        List<String> warnings = List.of();
        try {
            warnings = draft.parse(fileOrNominal(), targets)
                    .tenancy()
                    .map(Tenancy::threadShortfalls)
                    .orElse(List.of());
            problem = Optional.empty();
        } catch (ExperimentException e) {
            problem = Optional.of(e);
        }
        binding.clearOutlines();
        int wasBad = environments.clearProblem();
        tenants.clearProblem();
        if (problem.isPresent()) {
            ExperimentException e = problem.get();
            status.problem(e);
            outline(e.fieldPath());
        } else {
            status.ok(draft, file, dirty, warnings);
        }
        environments.repaintIfMoved(wasBad);
        tenants.repaint();
        refreshBaselineChoices();
        changeListeners.forEach(l -> l.accept(this));
    }

    /**
     * The target was changed in the form: the load section offers what the new one takes, and a load it does not take
     * gives way to the one that fits it (an HTTP load against bonnie, which serves nothing, could not run); so does a
     * command, which is the old target's own program (bonnie.sh is not in postgres's folder).
     */
    private void followTarget() {
        String target = draft.get("target").strip();
        if (target.equals(offeredTarget)) {
            return;
        }
        TargetFit fit = fit(target);
        if (!draft.multiTenant()
                && fits.containsKey(target)
                && (draft.loadKind() == LoadKind.COMMAND || !fit.loads().contains(draft.loadKind()))) {
            fit.startLoad(draft);
            binding.quietly(() -> {
                binding.fill(draft, "load.");
                loadSection.loaded();
            });
        }
        offerLoads();
    }

    /** The load section offers the draft's target's loads; the line under the target says what it is. */
    private void offerLoads() {
        offeredTarget = draft.get("target").strip();
        TargetFit fit = fit(offeredTarget);
        loadSection.offer(fit);
        targetAbout.setText(fits.containsKey(offeredTarget) ? TargetRenderer.about(fit) : " ");
    }

    private TargetFit fit(String target) {
        return fits.getOrDefault(target.strip(), TargetFit.unknown(target.strip()));
    }

    /** Marks where a problem is: a tenant's or configuration's row, an environment, or a field of the form. */
    private void outline(String fieldPath) {
        if (!tenants.outline(fieldPath) && !environments.outline(fieldPath)) {
            binding.outline(fieldPath);
        }
    }

    private void changed() {
        if (binding.loading()) {
            return;
        }
        dirty = true;
        environments.edited();
        checkSoon.restart();
    }

    /** A recipe was made: list it in the target choices and make it the experiment's target. */
    void targetCreated(String recipe) {
        List<String> all = recipes();
        fits = TargetFit.read(root, root.resolve(DEMO_EXPERIMENT));
        binding.refill(binding.field("target"), all);
        environments.recipesChanged(all);
        DraftBinding.setText(binding.field("target"), recipe);
        draft.set("target", recipe);
        changed();
    }

    /** The baseline is one of the environments or configurations compared: its choices follow them. */
    private void refreshBaselineChoices() {
        @SuppressWarnings("unchecked")
        JComboBox<String> baseline = (JComboBox<String>) binding.field("baseline");
        List<String> names = draft.comparedNames();
        List<String> now = new ArrayList<>();
        for (int i = 0; i < baseline.getItemCount(); i++) {
            now.add(baseline.getItemAt(i));
        }
        if (!now.equals(names)) {
            binding.quietly(() -> {
                String current = draft.get("baseline");
                baseline.removeAllItems();
                names.forEach(baseline::addItem);
                baseline.setSelectedItem(current);
            });
        }
    }

    /** Environments, or tenants and configurations: the form shows the experiment's own kind. */
    private void showKind() {
        environments.setVisible(!draft.multiTenant());
        tenants.setVisible(draft.multiTenant());
        if (draft.multiTenant()) {
            loadSection.selectPlan();
        }
        tenants.showForm();
    }

    private List<String> recipes() {
        return TargetRecipe.available(targets);
    }
}
