package io.envbench.study.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import io.envbench.base.process.ProcessFileLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which folders of a results folder {@code clean --results-older-than} may remove: old run directories, nothing else. */
class OldRunsTest {
    @TempDir
    Path results;

    private Path runDirectory(String name, Duration age) throws Exception {
        Path d = Files.createDirectories(results.resolve(name).resolve("jtl"));
        Files.writeString(d.resolveSibling("experiment.yaml"), "name: x\n");
        Files.writeString(d.resolveSibling("runs.csv"), "run\n");
        Files.writeString(d.resolve("bare-r1.jtl"), "timeStamp\n");
        age(d.getParent(), age);
        return d.getParent();
    }

    private static void age(Path dir, Duration age) throws Exception {
        FileTime then = FileTime.from(Instant.now().minus(age));
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                Files.setLastModifiedTime(p, then);
            }
        }
    }

    @Test
    void onlyOldRunDirectoriesNoRunnerHoldsAreListed() throws Exception {
        Path old = runDirectory("static-web-20261001-100000", Duration.ofDays(40));
        runDirectory("static-web-20261120-100000", Duration.ofDays(5));
        Path touched = runDirectory("static-web-20261002-100000", Duration.ofDays(40));
        Files.writeString(touched.resolve("jtl/bare-r2.jtl"), "timeStamp\n"); // a resumed run wrote into it today
        Path notOurs = Files.createDirectories(results.resolve("my-notes"));
        Files.writeString(notOurs.resolve("experiment.yaml"), "not a run: no runs.csv\n");
        age(notOurs, Duration.ofDays(400));
        Path held = runDirectory("static-web-20261003-100000", Duration.ofDays(40));
        Files.writeString(held.resolve(RunDirectory.LOCK_FILE), "");
        age(held, Duration.ofDays(40));
        try (ProcessFileLock lock = ProcessFileLock.tryLock(held.resolve(RunDirectory.LOCK_FILE))
                .lock()
                .orElseThrow()) {
            assertEquals(List.of(old), OldRuns.olderThan(results, Duration.ofDays(30), Instant.now()));
        }
        assertEquals(
                List.of(old, held),
                OldRuns.olderThan(results, Duration.ofDays(30), Instant.now()),
                "no longer held: listed too");
        OldRuns.remove(old);
        assertFalse(Files.exists(old));
        assertTrue(Files.exists(notOurs) && Files.exists(touched), "nothing else touched");
        assertEquals(List.of(), OldRuns.olderThan(results.resolve("nosuch"), Duration.ofDays(1), Instant.now()));
    }
}
