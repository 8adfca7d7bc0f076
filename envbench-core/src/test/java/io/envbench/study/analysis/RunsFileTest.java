package io.envbench.study.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** runs.csv after a crash mid-row: the next run's row (as --resume appends it) is read, and so is every whole row. */
class RunsFileTest {
    @TempDir
    Path dir;

    private static RunRecord record(int round, String env) {
        Instant t = Instant.parse("2026-11-26T07:00:00Z").plusSeconds(round * 60L);
        return new RunRecord(new PlannedRun(round, env, round), t, t.plusSeconds(10), RunRecord.OK, 1000, 40, t);
    }

    @Test
    void aRowCutByACrashIsDroppedBeforeTheNextIsAppended() throws Exception {
        RunsFile runs = new RunsFile(dir.resolve("runs.csv"));
        runs.append(record(1, "bare"));
        runs.append(record(1, "docker"));
        String whole = Files.readString(runs.file());
        // the runner was killed while writing round 2's row: half of it reached the file
        Files.writeString(runs.file(), whole + "2,bare,2,2026-11-26T07:02:00Z,2026-11-2");
        assertEquals(2, runs.read().size(), "a cut row is no record");

        runs.append(record(2, "bare"));
        List<RunRecord> read = runs.read();
        assertEquals(
                List.of("bare-r1", "docker-r1", "bare-r2"),
                read.stream().map(r -> r.run().id()).toList());
        assertEquals(
                whole.lines().count() + 1, Files.readString(runs.file()).lines().count(), "no merged row");
    }
}
