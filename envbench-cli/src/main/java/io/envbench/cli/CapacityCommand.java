package io.envbench.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.report.capacity.CapacityReport;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.runner.CapacitySearch;
import io.envbench.study.runner.ExperimentRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code envbench capacity FILE}: the highest fixed rate of the experiment's built-in HTTP load one environment keeps
 * within the file's {@code capacity:} objectives. Exit 0 with a capacity found, 1 when even the first rate did not
 * hold, 2 for bad input, 3 when it could not go on, 130 when interrupted.
 */
@Command(
        name = "capacity",
        mixinStandardHelpOptions = true,
        description =
                "Searches the highest fixed rate an environment keeps within the experiment's capacity: objectives.")
final class CapacityCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", description = "experiment file (YAML) with a load: http:")
    Path file;

    @Option(
            names = "--environment",
            paramLabel = "NAME",
            description = "the environment to search (default: the experiment's baseline)")
    String environment;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "DIR",
            description = "where the steps go (default: results/NAME-capacity-TIME)")
    Path output;

    @Mixin
    MachineOptions machine;

    private final PrintStream out;
    private final PrintStream err;

    CapacityCommand() {
        this(System.out, System.err);
    }

    CapacityCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Path base = machine.base();
        ExperimentRun run;
        String env;
        try {
            Experiment experiment = ExperimentFile.read(file.toAbsolutePath(), base.resolve("targets"));
            env = environment == null ? experiment.baseline() : environment;
            if (!experiment.environmentNames().contains(env)) {
                throw new InvalidSettingException(
                        "--environment",
                        "'" + env + "' is not an environment of " + experiment.name() + "; use one of "
                                + String.join(", ", experiment.environmentNames()));
            }
            ExperimentRun.checkCapacityLoad(experiment);
            RunDirectory dir = output != null
                    ? new RunDirectory(output.toAbsolutePath())
                    : RunDirectory.timestamped(base.resolve("results"), experiment.name() + "-capacity");
            run = ExperimentRun.prepare(
                    experiment, dir, machine.settings(Duration.ofSeconds(1), RestartPermission.REFUSED));
        } catch (ExperimentException | InvalidSettingException e) {
            err.println("envbench capacity: " + e.getMessage());
            return RunCommand.BAD_INPUT;
        }
        try (SignalStop stop = new SignalStop(run, out, err)) {
            Path dir = run.directory().root().resolve("capacity");
            out.println("EnvBench: capacity of " + env + " (" + run.experiment().name() + "); steps in " + dir);
            CapacitySearch.Result r = run.capacity(env, new ConsoleProgress(out, System.console() != null));
            CapacityReport.write(r, dir);
            out.println(r.summary());
            out.println("Steps: " + dir.resolve(env + ".csv") + "; chart: " + dir.resolve(env + "-knee.png"));
            return Double.isNaN(r.capacity()) ? RunCommand.FAILED : RunCommand.PASSED;
        } catch (InvalidSettingException e) {
            err.println("envbench capacity: " + e.getMessage());
            return RunCommand.BAD_INPUT;
        } catch (IOException e) {
            err.println("envbench capacity: " + e.getMessage());
            return run.cancelled() ? RunCommand.INTERRUPTED : RunCommand.CANNOT_RUN;
        }
    }
}
