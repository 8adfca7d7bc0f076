package io.envbench.controller.setup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import io.envbench.base.recipe.TargetRecipe;
import io.envbench.study.experiment.Experiment;

/**
 * Which of an experiment's images {@code scripts/images.sh} would build before the experiment can run, and why (its
 * {@code --check}: the script is the one place that decides a rebuild, by the hash of each image's recipe), and the
 * rebuild itself when the user asks for it.
 */
public final class ImageCheck {
    /**
     * One image to build: which, the hash of the recipe it would be built from ("-" when that depends on an image
     * rebuilt first), why (what changed since it was built) and about how long it takes.
     */
    public record Rebuild(String image, String recipeHash, String why, String estimate) {
        @Override
        public String toString() {
            return image + ": " + why + " (" + estimate + ")";
        }
    }

    private static final long CHECK_SECONDS = 60;

    private final Path script;
    private final Map<String, String> environment;

    /** @param root the EnvBench folder (its {@code scripts/images.sh}) */
    public ImageCheck(Path root) {
        this(root, Map.of());
    }

    /** @param environment set for the script on top of this process's (tests point it at a fixture) */
    ImageCheck(Path root, Map<String, String> environment) {
        this.script = root.resolve("scripts").resolve("images.sh");
        this.environment = Map.copyOf(environment);
    }

    /** The folders of targets/ whose images the experiment's targets run. */
    public static Set<String> folders(Experiment e, Path targetsDir) {
        Set<String> folders = new TreeSet<>();
        e.targets().forEach(t -> folders.addAll(TargetRecipe.imageFolders(targetsDir, t)));
        return folders;
    }

    /**
     * The images to build before these folders' targets can run, in build order; empty when every one is up to date,
     * or when it cannot be told here (no script, Docker not answering: the run's own checks then say what is missing).
     */
    public Optional<List<Rebuild>> needed(Set<String> folders) throws InterruptedException {
        if (!Files.isRegularFile(script) || folders.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path out = Files.createTempFile("envbench-images-check", ".txt");
            try {
                Process p = process("--check", folders)
                        .redirectOutput(out.toFile())
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (!p.waitFor(CHECK_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return Optional.empty();
                }
                return p.exitValue() == 0
                        ? Optional.of(parse(Files.readString(out, StandardCharsets.UTF_8)))
                        : Optional.empty();
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The rebuild of these folders' images (and their host packages), as {@code ./envbench setup} does it. */
    public ProcessBuilder rebuild(Set<String> folders) {
        return process("--no-versions", folders).redirectErrorStream(true);
    }

    private ProcessBuilder process(String mode, Set<String> folders) {
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), mode));
        command.addAll(folders);
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().putAll(environment);
        return b;
    }

    /** {@code --check}'s lines: IMAGE, HASH, WHY, ESTIMATE separated by tabs. */
    static List<Rebuild> parse(String checkOutput) {
        List<Rebuild> out = new ArrayList<>();
        for (String line : checkOutput.split("\n")) {
            String[] f = line.split("\t");
            if (f.length == 4) {
                out.add(new Rebuild(f[0], f[1], f[2], f[3]));
            }
        }
        return out;
    }
}
