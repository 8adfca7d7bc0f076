package io.envbench.controller.editor;

import java.awt.BorderLayout;
import java.awt.FlowLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.swing.ButtonGroup;
import javax.swing.JButton;
import javax.swing.JComponent;
import javax.swing.JFileChooser;
import javax.swing.JPanel;
import javax.swing.JRadioButton;
import javax.swing.filechooser.FileNameExtensionFilter;

import io.envbench.study.experiment.CommandOutput;
import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.ExperimentText.LoadKind;
import io.envbench.study.experiment.LoadPlan;
import net.jcip.annotations.NotThreadSafe;

/**
 * The form's load: the built-in HTTP load, a JMeter plan (one under testplans/ or one chosen, with its properties) or
 * a command, only the chosen kind's fields enabled; then warm-up (none for a command) and duration. Only the kinds the
 * target takes are offered ({@link TargetFit}), the command named after the target's own program. A multi-tenant
 * experiment's load is always a plan: its tenants run the plan's thread group each.
 */
@NotThreadSafe
final class LoadSection {
    private final DraftBinding binding;
    private final Path root;
    private final PathChooser paths;
    private final JRadioButton httpLoad = new JRadioButton("Built-in HTTP load");
    private final JRadioButton planLoad = new JRadioButton("JMeter plan");
    private final JRadioButton commandLoad = new JRadioButton("Command");
    private final List<JComponent> httpOnly = new ArrayList<>();
    private final List<JComponent> planOnly = new ArrayList<>();
    private final List<JComponent> commandOnly = new ArrayList<>();
    private final JComponent warmupRow;
    private TargetFit target = TargetFit.unknown("");

    /**
     * Adds the load's rows to {@code rows}.
     *
     * @param root the EnvBench folder, whose testplans/ has the plans
     */
    LoadSection(DraftBinding binding, Path root, PathChooser paths, FormRows rows) {
        this.binding = binding;
        this.root = root;
        this.paths = paths;
        rows.section("Load");
        ButtonGroup kind = new ButtonGroup();
        kind.add(httpLoad);
        kind.add(planLoad);
        kind.add(commandLoad);
        httpLoad.setName("load.kind.http");
        planLoad.setName("load.kind.plan");
        commandLoad.setName("load.kind.command");
        httpLoad.setMnemonic('H');
        planLoad.setMnemonic('J');
        httpLoad.addActionListener(e -> loadKind(LoadKind.HTTP));
        planLoad.addActionListener(e -> loadKind(LoadKind.PLAN));
        commandLoad.addActionListener(e -> loadKind(LoadKind.COMMAND));
        JPanel kinds = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 0));
        kinds.add(httpLoad);
        kinds.add(planLoad);
        kinds.add(commandLoad);
        rows.wide(kinds);
        httpOnly.add(rows.add("Path", binding.text("load.http.path")));
        httpOnly.add(rows.add("Threads", binding.text("load.http.threads")));
        httpOnly.add(rows.add("Target rate (requests/s)", binding.text("load.http.requestsPerSecond")));
        httpOnly.add(rows.add("Ramp-up (s)", binding.text("load.http.rampUpSeconds")));
        JPanel plan = new JPanel(new BorderLayout(4, 0));
        plan.add(binding.combo("load.plan", true, plans(null)));
        JButton browsePlan = new JButton("…");
        browsePlan.setToolTipText("choose a JMeter plan (.jmx)");
        browsePlan.addActionListener(e -> choosePlan());
        plan.add(browsePlan, BorderLayout.EAST);
        planOnly.add(rows.add("Plan", plan));
        planOnly.add(rows.add("Properties", DraftBinding.scroll(binding.area("load.properties", 3))));
        commandOnly.add(rows.add("Command", binding.text("load.command.run")));
        commandOnly.add(rows.add(
                "Output",
                binding.combo(
                        "load.command.output",
                        false,
                        Arrays.stream(CommandOutput.values())
                                .map(CommandOutput::yamlName)
                                .toList())));
        commandOnly.add(rows.add("Bare-metal memory", binding.text("load.command.bareMemory")));
        warmupRow = rows.add("Warm-up (s)", binding.text("load.warmupSeconds"));
        rows.add("Duration (s)", binding.text("load.durationSeconds"));
    }

    /** A new draft is shown: its kind of load chosen. */
    void loaded() {
        LoadKind k = binding.draft().loadKind();
        httpLoad.setSelected(k == LoadKind.HTTP);
        planLoad.setSelected(k == LoadKind.PLAN);
        commandLoad.setSelected(k == LoadKind.COMMAND);
    }

    /** Lists the plans as named from {@code file}'s folder (null: a new file's). */
    void refillPlans(Path file) {
        binding.refill(binding.field("load.plan"), plans(file));
    }

    /** A multi-tenant experiment's load is a plan. */
    void selectPlan() {
        planLoad.setSelected(true);
    }

    /** Offers the loads {@code fit}'s target takes, the command named after its own program. */
    void offer(TargetFit fit) {
        target = fit;
        commandLoad.setText(fit.command().isEmpty() ? "Command" : "Command (" + fit.command() + ")");
        commandLoad.setToolTipText("a program run once per run in each environment's place, its output the result"
                + (fit.command().isEmpty() ? "" : " (" + fit.name() + ": " + fit.command() + ")"));
        show();
    }

    /** Enables the fields of the draft's kind of load (a plan for a multi-tenant experiment, the only kind it has). */
    void show() {
        ExperimentText draft = binding.draft();
        LoadKind k = draft.multiTenant() ? LoadKind.PLAN : draft.loadKind(); // tenants run a plan's thread group each
        httpOnly.forEach(c -> LabelledField.setEnabledDeep(c, k == LoadKind.HTTP));
        planOnly.forEach(c -> LabelledField.setEnabledDeep(c, k == LoadKind.PLAN));
        commandOnly.forEach(c -> LabelledField.setEnabledDeep(c, k == LoadKind.COMMAND));
        // a program's output has no warm-up to leave out
        LabelledField.setEnabledDeep(warmupRow, k != LoadKind.COMMAND);
        httpLoad.setEnabled(!draft.multiTenant() && target.loads().contains(LoadKind.HTTP));
        planLoad.setEnabled(draft.multiTenant() || target.loads().contains(LoadKind.PLAN));
        commandLoad.setEnabled(!draft.multiTenant() && target.loads().contains(LoadKind.COMMAND));
    }

    private void loadKind(LoadKind k) {
        binding.draft().loadKind(k);
        show();
        binding.changed();
    }

    private void choosePlan() {
        JFileChooser c = new JFileChooser(root.resolve("testplans").toFile());
        c.setFileFilter(new FileNameExtensionFilter("JMeter plans (*.jmx)", "jmx"));
        paths.choose(c).ifPresent(p -> DraftBinding.setText(binding.field("load.plan"), p));
    }

    /**
     * Plans under testplans/ the runner can run (not those that start environments themselves), relative to the
     * folder of {@code file} (null: a new file's, testplans/experiments/).
     */
    private List<String> plans(Path file) {
        Path plansDir = root.resolve("testplans");
        try (Stream<Path> s = Files.list(plansDir)) {
            Path folder = file != null ? file.getParent() : root.resolve("testplans/experiments");
            return s.filter(p -> p.toString().endsWith(".jmx"))
                    .filter(LoadSection::loadOnly)
                    .map(p -> folder.relativize(p.toAbsolutePath().normalize()).toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean loadOnly(Path plan) {
        try {
            return !LoadPlan.startsEnvironments(plan);
        } catch (IOException e) {
            return false;
        }
    }
}
