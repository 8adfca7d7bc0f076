package io.envbench.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerCleanup;
import io.envbench.launch.docker.DockerReaper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code envbench clean [--orphans] [--yes]}: removes what EnvBench runs left on the Docker daemon. Leftovers of runs
 * whose owner is provably gone are removed at once (every start does the same); orphans, whose owner cannot be seen
 * from here, are listed, and removed with {@code --orphans} once the user confirms (or with {@code --yes}). Exit 0 when
 * done (also when the user declined), 2 for bad daemon settings, 3 when the daemon does not answer.
 */
@Command(
        name = "clean",
        mixinStandardHelpOptions = true,
        description = "Removes containers, networks and volumes that EnvBench runs left on the Docker daemon.")
final class CleanCommand implements Callable<Integer> {
    @Option(
            names = "--orphans",
            description = "also remove resources whose owner cannot be seen from here (another host, or another PID "
                    + "namespace such as a JMeter in a container that was killed), after you confirm")
    boolean orphans;

    @Option(names = "--yes", description = "with --orphans: remove them without asking")
    boolean yes;

    @Mixin
    MachineOptions machine;

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;

    CleanCommand() {
        this(System.in, System.out, System.err);
    }

    CleanCommand(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws IOException {
        DockerCleanup cleanup;
        try {
            cleanup = DockerCleanup.open(machine.daemon());
        } catch (InvalidSettingException e) {
            err.println("envbench clean: " + e.getMessage());
            return RunCommand.BAD_INPUT;
        } catch (TargetStartException e) {
            err.println("envbench clean: " + e.getMessage());
            return RunCommand.CANNOT_RUN;
        }
        try (cleanup) {
            DockerReaper.Sweep sweep = cleanup.leftovers();
            sweep.decisions().stream()
                    .filter(DockerReaper.Decision::removed)
                    .forEach(d -> out.println("removed " + describe(d) + ": " + d.why()));
            out.println(sweep.removed() + " leftover(s) of runs whose owner is gone removed");
            List<DockerReaper.Decision> found = cleanup.orphans();
            if (found.isEmpty()) {
                out.println("no orphans: every other EnvBench resource belongs to a run that is still alive here");
                return RunCommand.PASSED;
            }
            out.println(found.size() + " orphan(s), whose owner cannot be seen from here:");
            found.forEach(d -> out.println("  " + describe(d) + ": " + d.why()));
            if (!orphans) {
                out.println("kept; if their runs are over, remove them with ./envbench clean --orphans");
                return RunCommand.PASSED;
            }
            if (!yes && !confirmed(found.size())) {
                out.println("nothing removed: answer y to remove them, or pass --yes");
                return RunCommand.PASSED;
            }
            int removed = 0;
            for (DockerReaper.Decision d : found) {
                DockerReaper.Decision done = cleanup.remove(d);
                if (done.removed()) {
                    removed++;
                    out.println("removed " + describe(d));
                } else {
                    err.println("could not remove " + describe(d) + ": " + done.why());
                }
            }
            out.println(removed + " of " + found.size() + " orphan(s) removed");
            return removed == found.size() ? RunCommand.PASSED : RunCommand.CANNOT_RUN;
        }
    }

    private boolean confirmed(int count) throws IOException {
        out.print("remove these " + count + "? A run still using them elsewhere would lose them [y/N] ");
        out.flush();
        String answer = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
        return answer != null && List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT));
    }

    private static String describe(DockerReaper.Decision d) {
        String id = d.id().length() > 12 && !"volume".equals(d.kind()) ? d.id().substring(0, 12) : d.id();
        return d.kind() + " " + (d.name().isEmpty() ? id : d.name().replaceFirst("^/", "") + " (" + id + ")");
    }
}
