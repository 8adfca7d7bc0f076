package io.envbench.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;

class ConsoleProgressTest {
    @Test
    void aRunsLineCountsSamplesOrSaysACommandsOutputWasWritten() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress p = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        Instant t = Instant.parse("2026-11-22T10:00:00Z");
        p.runEnded(new RunRecord(new PlannedRun(1, "bare", 1), t, t.plusSeconds(12), RunRecord.OK, 12345, 30, t), 1, 3);
        p.runEnded(new RunRecord(new PlannedRun(1, "layer", 1), t, t.plusSeconds(70), RunRecord.OK, 0, 30, null), 2, 3);
        p.runEnded(
                new RunRecord(
                        new PlannedRun(1, "volume", 1),
                        t,
                        t.plusSeconds(3),
                        "failed: no samples; see logs/x",
                        0,
                        30,
                        null),
                3,
                3);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertTrue(lines[0].contains("12,345 samples in  12.0 s"), lines[0]);
        assertTrue(
                lines[1].contains("output written in  70.0 s") && !lines[1].contains("samples"),
                "a command load: " + lines[1]);
        assertTrue(
                lines[2].contains("FAILED") && lines[2].contains("0 samples"),
                "a load that failed without samples: " + lines[2]);
    }
}
