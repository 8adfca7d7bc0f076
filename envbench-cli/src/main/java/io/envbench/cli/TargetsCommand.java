package io.envbench.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.study.experiment.EnvironmentPlan;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The local images experiment files need, one per line ({@code nginx-static}, {@code redmine}, ...): what the
 * launcher builds, with their targets' host packages, before it runs them, so a run sets up only its own targets.
 */
@Command(
        name = "targets",
        description = "the images (targets/NAME) the experiment files need, one per line: what setup prepares for them")
final class TargetsCommand implements Callable<Integer> {
    @Mixin
    MachineOptions machine = new MachineOptions();

    @Option(
            names = "--podman",
            description = "only the images of targets placed on podman: what setup copies into Podman's image store")
    boolean podman;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "experiment files (YAML)")
    List<Path> files;

    private final PrintStream out;
    private final PrintStream err;

    TargetsCommand() {
        this(System.out, System.err);
    }

    TargetsCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Path targets = machine.base().resolve("targets");
        Set<String> images = new TreeSet<>();
        for (Path f : files) {
            try {
                Experiment e = ExperimentFile.read(f.toAbsolutePath(), targets);
                if (podman) { // a single server's own image (Podman runs no multi-service target)
                    e.environments().stream()
                            .map(EnvironmentPlan::definition)
                            .filter(EnvironmentDefinition::usesPodman)
                            .map(d -> TargetRecipe.buildFolderOf(
                                    TargetRecipe.load(targets, d.target()).image()))
                            .forEach(images::add);
                    continue;
                }
                for (String target : e.targets()) {
                    images.addAll(TargetRecipe.imageFolders(targets, target));
                }
            } catch (ExperimentException | InvalidSettingException ex) {
                err.println("envbench targets: " + ex.getMessage());
                return RunCommand.BAD_INPUT;
            }
        }
        images.forEach(out::println);
        return RunCommand.PASSED;
    }
}
