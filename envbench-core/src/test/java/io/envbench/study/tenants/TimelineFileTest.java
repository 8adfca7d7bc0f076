package io.envbench.study.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import io.envbench.study.cpucontrol.CpuAction;
import io.envbench.study.cpucontrol.TimelineCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's timeline is the one timeline format: the run's events as notes, the controller's actions with their kind. */
class TimelineFileTest {
    @TempDir
    Path dir;

    @Test
    void theRunsEventsAndTheControllersActionsGoInOneFormatAndComeBack() throws Exception {
        Path file = dir.resolve("timeline/dynamic-r1.csv");
        Instant t0 = Instant.parse("2026-11-22T10:00:00Z");
        try (TimelineFile t = new TimelineFile(file, Clock.fixed(t0, ZoneOffset.UTC))) {
            t.record(Timeline.ALL, "tenants ready", "the last in 4100 ms");
            t.acted(new CpuAction(
                    t0.plusSeconds(12),
                    Duration.ofSeconds(12),
                    "tenant-3",
                    CpuAction.Kind.RELEASE,
                    "release to 1",
                    "cpu 97% of its 1 CPU (0) for 3 steps, at least 90%"));
            t.acted(new CpuAction(
                    t0.plusSeconds(20),
                    Duration.ofSeconds(20),
                    "",
                    CpuAction.Kind.STEER_IRQ,
                    "steer IRQ 38 -> CPU 1",
                    "rotation"));
        }
        assertEquals(TimelineCsv.HEADER, Files.readAllLines(file).get(0));
        List<TimelineCsv.Row> rows = TimelineCsv.read(file);
        assertEquals(
                List.of("note", "release", "steer_irq"),
                rows.stream().map(TimelineCsv.Row::kind).toList());
        assertEquals(
                List.of("", "tenant-3", ""),
                rows.stream().map(TimelineCsv.Row::tenant).toList());
        assertEquals(12.0, rows.get(1).seconds());
        List<TimelineFile.Row> back = TimelineFile.read(file);
        assertEquals(
                List.of(Timeline.ALL, "tenant-3", Timeline.ALL),
                back.stream().map(TimelineFile.Row::tenant).toList());
        assertEquals("release to 1", back.get(1).action());
        assertEquals("the last in 4100 ms", back.get(0).why());
    }
}
