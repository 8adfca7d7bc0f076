package io.envbench.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerCleanup;
import io.envbench.launch.docker.DockerReaper;
import io.envbench.launch.docker.PodmanEngine;
import io.envbench.study.analysis.OldRuns;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code envbench clean [--orphans] [--images] [--yes]}, {@code envbench clean --results-older-than DAYS [--yes]}:
 * removes what EnvBench runs left on the Docker daemon, and on request the images it built, or old run directories. Leftovers of runs
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

    @Option(names = "--yes", description = "with --orphans, --images or --results-older-than: remove without asking")
    boolean yes;

    @Option(
            names = "--images",
            description = "also remove the images EnvBench built (labelled io.envbench.image; setup builds them again),"
                    + " after you confirm")
    boolean images;

    @Option(
            names = "--results-older-than",
            paramLabel = "DAYS",
            description = "remove run directories under ROOT/results (folders the runner made) whose newest file is"
                    + " older than DAYS days, after you confirm; nothing else is touched, the Docker daemon neither")
    Integer resultsOlderThanDays;

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
        if (resultsOlderThanDays != null) {
            return oldResults();
        }
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
        int done;
        try (cleanup) {
            done = clean(cleanup);
        }
        // Podman's leftovers and images too, when its API service runs here (a run placed something on podman)
        if (Files.exists(PodmanEngine.SOCKET_PATH)) {
            out.println("on Podman (" + PodmanEngine.SOCKET + "):");
            try (DockerCleanup podman = DockerCleanup.open(PodmanEngine.daemon())) {
                done = Math.max(done, clean(podman));
            } catch (TargetStartException e) {
                err.println("envbench clean: Podman: " + e.getMessage());
                done = RunCommand.CANNOT_RUN;
            }
        }
        return done;
    }

    /** One engine's leftovers, images (with --images) and orphans (with --orphans). */
    private int clean(DockerCleanup cleanup) throws IOException {
        DockerReaper.Sweep sweep = cleanup.leftovers();
        sweep.decisions().stream()
                .filter(DockerReaper.Decision::removed)
                .forEach(d -> out.println("removed " + describe(d) + ": " + d.why()));
        out.println(sweep.removed() + " leftover(s) of runs whose owner is gone removed");
        if (images && !removeImages(cleanup)) {
            return RunCommand.CANNOT_RUN;
        }
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

    /** @return whether every image listed went (or the user kept them) */
    private boolean removeImages(DockerCleanup cleanup) throws IOException {
        List<DockerCleanup.BuiltImage> built = cleanup.images();
        if (built.isEmpty()) {
            out.println("no images built by EnvBench here");
            return true;
        }
        long bytes =
                built.stream().mapToLong(DockerCleanup.BuiltImage::sizeBytes).sum();
        out.println(built.size() + " image(s) EnvBench built, " + bytes / 1_000_000 + " MB together:");
        built.forEach(i -> out.println("  " + name(i)));
        if (!yes && !confirmed("remove these " + built.size() + " images? ./envbench setup builds them again [y/N] ")) {
            out.println("images kept: answer y to remove them, or pass --yes");
            return true;
        }
        int failed = 0;
        for (DockerCleanup.BuiltImage i : built) {
            Optional<String> why = cleanup.removeImage(i);
            if (why.isEmpty()) {
                out.println("removed image " + name(i));
            } else {
                failed++;
                err.println("kept image " + name(i) + ": " + why.get());
            }
        }
        return failed == 0;
    }

    private static String name(DockerCleanup.BuiltImage i) {
        return i.tags().isEmpty() ? i.id() : String.join(", ", i.tags());
    }

    /** Run directories past their age, listed, removed once confirmed; never anything the runner did not make. */
    private int oldResults() throws IOException {
        if (resultsOlderThanDays < 1) {
            err.println("envbench clean: --results-older-than: " + resultsOlderThanDays
                    + " is below 1; give an age in days, e.g. 30");
            return RunCommand.BAD_INPUT;
        }
        Path results = machine.base().resolve("results");
        List<Path> old = OldRuns.olderThan(results, Duration.ofDays(resultsOlderThanDays), Instant.now());
        if (old.isEmpty()) {
            out.println("no run directory in " + results + " is older than " + resultsOlderThanDays + " day(s)");
            return RunCommand.PASSED;
        }
        out.println(old.size() + " run director" + (old.size() == 1 ? "y" : "ies") + " in " + results
                + " with nothing written for " + resultsOlderThanDays + " day(s):");
        old.forEach(d -> out.println("  " + d.getFileName()));
        if (!yes && !confirmed("remove these " + old.size() + " with all their files? [y/N] ")) {
            out.println("nothing removed: answer y to remove them, or pass --yes");
            return RunCommand.PASSED;
        }
        for (Path d : old) {
            OldRuns.remove(d);
            out.println("removed " + d);
        }
        return RunCommand.PASSED;
    }

    private boolean confirmed(int count) throws IOException {
        return confirmed("remove these " + count + "? A run still using them elsewhere would lose them [y/N] ");
    }

    private boolean confirmed(String question) throws IOException {
        out.print(question);
        out.flush();
        if (answers == null) { // one reader for every question: a second would miss what the first buffered
            answers = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        String answer = answers.readLine();
        return answer != null && List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT));
    }

    private BufferedReader answers;

    private static String describe(DockerReaper.Decision d) {
        String id = d.id().length() > 12 && !"volume".equals(d.kind()) ? d.id().substring(0, 12) : d.id();
        return d.kind() + " " + (d.name().isEmpty() ? id : d.name().replaceFirst("^/", "") + " (" + id + ")");
    }
}
