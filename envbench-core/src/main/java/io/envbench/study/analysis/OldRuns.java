package io.envbench.study.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.envbench.base.process.ProcessFileLock;
import org.apache.commons.io.file.PathUtils;

/**
 * Run directories under a results folder that are old enough to go: only folders the runner made (an
 * {@code experiment.yaml} and a {@code runs.csv} in them), none a runner holds now, none with a file written within
 * the age given. Anything else in the folder is never listed, so never removed.
 */
public final class OldRuns {
    private OldRuns() {}

    /** The run directories directly under {@code results} whose newest file is older than {@code age}, oldest first. */
    public static List<Path> olderThan(Path results, Duration age, Instant now) throws IOException {
        if (!Files.isDirectory(results)) {
            return List.of();
        }
        Instant before = now.minus(age);
        List<Path> old = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(results)) {
            for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
                RunDirectory run = new RunDirectory(d);
                if (!Files.isRegularFile(run.experiment()) || !Files.isRegularFile(d.resolve("runs.csv"))) {
                    continue;
                }
                if (newest(d).isBefore(before) && !held(d)) {
                    old.add(d);
                }
            }
        }
        old.sort(Comparator.comparing(OldRuns::newestUnchecked));
        return old;
    }

    /** Deletes a run directory listed by {@link #olderThan}, with everything in it. */
    public static void remove(Path runDirectory) throws IOException {
        PathUtils.delete(runDirectory);
    }

    private static Instant newest(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            Instant newest = Instant.EPOCH;
            for (Path p : all.toList()) {
                Instant t = Files.getLastModifiedTime(p).toInstant();
                if (t.isAfter(newest)) {
                    newest = t;
                }
            }
            return newest;
        }
    }

    private static Instant newestUnchecked(Path dir) {
        try {
            return newest(dir);
        } catch (IOException e) {
            return Instant.EPOCH;
        }
    }

    /** A runner holds it (its lock file is locked): a resumed run may be writing into it. */
    private static boolean held(Path dir) throws IOException {
        Path lock = dir.resolve(RunDirectory.LOCK_FILE);
        if (!Files.exists(lock)) {
            return false;
        }
        ProcessFileLock.Attempt a = ProcessFileLock.tryLock(lock);
        if (a.lock().isEmpty()) {
            return true;
        }
        a.lock().get().close();
        return false;
    }
}
