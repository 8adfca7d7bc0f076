package io.envbench.controller.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.envbench.study.analysis.RunDirectory;

/** A run directory in the list of past runs: its folder, when it was last written, whether runs are missing. */
record RunDirectoryEntry(Path directory, FileTime modified, boolean partial) {
    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneId.systemDefault());

    /** The run directories (folders with an experiment.yaml) directly under {@code resultsDir}, newest first. */
    static List<RunDirectoryEntry> list(Path resultsDir) {
        if (!Files.isDirectory(resultsDir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(resultsDir)) {
            return s.filter(d -> Files.isRegularFile(new RunDirectory(d).experiment()))
                    .map(RunDirectoryEntry::of)
                    .sorted(Comparator.comparing(RunDirectoryEntry::modified).reversed())
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static RunDirectoryEntry of(Path d) {
        RunDirectory dir = new RunDirectory(d);
        FileTime t;
        try {
            t = Files.getLastModifiedTime(
                    Files.exists(dir.runs().file()) ? dir.runs().file() : dir.experiment());
        } catch (IOException e) {
            t = FileTime.fromMillis(0);
        }
        return new RunDirectoryEntry(d, t, dir.partial());
    }

    @Override
    public String toString() {
        return directory.getFileName() + "  (" + WHEN.format(modified.toInstant()) + (partial ? ", partial" : "") + ")";
    }
}
