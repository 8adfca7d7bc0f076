package io.envbench.study.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Reads experiment files (YAML; every field in {@code testplans/experiments/README.md}). Every problem is an
 * {@link ExperimentException} naming the line, the field path and the fix; the first one found is reported.
 */
public final class ExperimentFile {
    private ExperimentFile() {}

    /**
     * @param targetsDir the folder of target recipes, to check every target an environment names
     */
    public static Experiment read(Path file, Path targetsDir) throws ExperimentException {
        Objects.requireNonNull(file, "file");
        String yaml;
        try {
            yaml = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ExperimentException(
                    file,
                    "",
                    0,
                    "does not exist (looked for " + file.toAbsolutePath().normalize()
                            + "); check the path, e.g. testplans/experiments/static-web.yaml");
        } catch (IOException e) {
            throw new ExperimentException(file, "", 0, "cannot be read (" + e + "); check its permissions");
        }
        return parse(yaml, file, targetsDir);
    }

    /**
     * @param yaml       the file's text
     * @param file       where it came from: names it in messages, and a relative {@code plan:} or bind-mount source
     *                   is relative to its folder (need not exist)
     * @param targetsDir the folder of target recipes, to check every target an environment names
     */
    public static Experiment parse(String yaml, Path file, Path targetsDir) throws ExperimentException {
        Objects.requireNonNull(yaml, "yaml");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(targetsDir, "targetsDir");
        YamlTree.Node root = YamlTree.parse(yaml, file);
        return new ExperimentReader(file.toAbsolutePath().normalize(), targetsDir, root).experiment();
    }
}
