package io.envbench.controller.editor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.envbench.base.recipe.TargetRecipe;
import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.ExperimentText.LoadKind;
import net.jcip.annotations.Immutable;

/**
 * A target as the form offers it: its recipe's description, the loads it takes, and the load a new experiment on it
 * starts with. A recipe says whether it serves on a port, not what load fits it; the shipped examples under
 * {@code testplans/experiments/} do (the demo's first): a server takes the HTTP load and JMeter plans, a target whose
 * example runs a program (bonnie++, psql) takes that program as its command.
 *
 * @param loads the kinds of load the target takes
 * @param start the kind of load a new experiment on it starts with
 * @param load the example's load fields (keys of {@link ExperimentText#FIELDS}); empty: no example
 * @param dataPath where the example mounts a volume (its data in the container), if it does
 */
@Immutable
record TargetFit(
        String name,
        String description,
        Set<LoadKind> loads,
        LoadKind start,
        Map<String, String> load,
        Optional<String> dataPath) {

    /** What the form offers for a target it knows nothing about (being typed, or gone): every kind of load. */
    static TargetFit unknown(String name) {
        return new TargetFit(name, "", EnumSet.allOf(LoadKind.class), LoadKind.HTTP, Map.of(), Optional.empty());
    }

    /**
     * Every recipe under {@code root}'s targets/ with what fits it.
     *
     * @param demo the demo's experiment file: its load is its target's first
     */
    static Map<String, TargetFit> read(Path root, Path demo) {
        Path targets = root.resolve("targets");
        List<ExperimentText> examples = examples(root.resolve("testplans/experiments"), demo);
        Map<String, TargetFit> fits = new LinkedHashMap<>();
        for (String name : TargetRecipe.available(targets)) {
            try {
                fits.put(name, of(TargetRecipe.load(targets, name), examples));
            } catch (RuntimeException e) {
                fits.put(name, unknown(name)); // a recipe that does not read: the check names its problem
            }
        }
        return fits;
    }

    private static TargetFit of(TargetRecipe recipe, List<ExperimentText> examples) {
        List<ExperimentText> own = examples.stream()
                .filter(e -> e.get("target").strip().equals(recipe.name()))
                .toList();
        Optional<ExperimentText> example = own.stream().findFirst();
        Map<String, String> load = new LinkedHashMap<>();
        example.ifPresent(e -> ExperimentText.FIELDS.stream()
                .filter(f -> f.startsWith("load.") && !e.get(f).isBlank())
                .forEach(f -> load.put(f, e.get(f))));
        boolean command = example.map(e -> e.loadKind() == LoadKind.COMMAND).orElse(false);
        Set<LoadKind> loads = EnumSet.noneOf(LoadKind.class);
        if (recipe.hasPort() && !command) {
            loads.add(LoadKind.HTTP);
        }
        if (recipe.hasPort()) {
            loads.add(LoadKind.PLAN);
        }
        if (command || !recipe.hasPort()) {
            loads.add(LoadKind.COMMAND); // a target with no port is run by a program of one's own
        }
        LoadKind start =
                example.map(ExperimentText::loadKind).orElse(recipe.hasPort() ? LoadKind.HTTP : LoadKind.COMMAND);
        Optional<String> dataPath = own.stream()
                .flatMap(e -> Stream.iterate(0, i -> i < e.environmentCount(), i -> i + 1)
                        .map(i -> e.environment(i, "volume.path").strip()))
                .filter(p -> !p.isEmpty())
                .findFirst();
        return new TargetFit(recipe.name(), recipe.description(), Set.copyOf(loads), start, Map.copyOf(load), dataPath);
    }

    /** The examples with one target each, the demo's first; a file that does not read is left out. */
    private static List<ExperimentText> examples(Path folder, Path demo) {
        List<Path> files = new ArrayList<>();
        files.add(demo);
        try (Stream<Path> s = Files.list(folder)) {
            s.filter(p -> p.toString().endsWith(".yaml") && !p.equals(demo))
                    .sorted()
                    .forEach(files::add);
        } catch (IOException e) {
            // no examples: every target starts with the load its port suggests
        }
        List<ExperimentText> examples = new ArrayList<>();
        for (Path f : files) {
            try {
                ExperimentText e = ExperimentText.fromYaml(Files.readString(f));
                if (!e.multiTenant()) {
                    examples.add(e);
                }
            } catch (IOException | RuntimeException e) {
                // left out: the form offers the target without it
            }
        }
        return examples;
    }

    /** The program the target's command load runs, as its example names it ("./bonnie.sh"), or empty. */
    String command() {
        String run = load.getOrDefault("load.command.run", "").strip();
        return run.isEmpty() ? "" : run.split("\\s+")[0];
    }

    /** The load a new experiment on the target starts with, in a few words ("HTTP GET /page-4k.html"). */
    String startText() {
        return switch (start) {
            case HTTP -> "HTTP GET " + load.getOrDefault("load.http.path", "/");
            case PLAN ->
                "JMeter plan " + Path.of(load.getOrDefault("load.plan", "?")).getFileName();
            case COMMAND -> command().isEmpty() ? "a command of your own" : "command " + command();
        };
    }

    /** Gives {@code d} the target's starting load: the example's fields, or the kind alone when there is none. */
    void startLoad(ExperimentText d) {
        if (!load.isEmpty()) {
            ExperimentText.FIELDS.stream().filter(f -> f.startsWith("load.")).forEach(f -> d.set(f, ""));
            load.forEach(d::set);
        }
        d.loadKind(start);
    }
}
