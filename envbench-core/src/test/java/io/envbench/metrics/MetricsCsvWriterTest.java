package io.envbench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsCsvWriterTest {
    @TempDir
    Path dir;

    @Test
    void aNewColumnWidensTheWholeFile() throws Exception {
        Path f = dir.resolve("m.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(f)) {
            w.write(1000, "bare", Map.of("host.cpu.pct", 12.5));
            w.write(2000, "bare", Map.of("host.cpu.pct", 13.0));
            Map<String, Double> more = new LinkedHashMap<>();
            more.put("host.cpu.pct", 50.25);
            more.put("container.docker-bridge.cpu.pct", 99.0);
            w.write(3000, "docker-bridge", more);
        }
        List<String> lines = Files.readAllLines(f);
        assertEquals(List.of("timestamp,environment,host.cpu.pct,container.docker-bridge.cpu.pct", "1000,bare,12.500,",
                "2000,bare,13,", "3000,docker-bridge,50.250,99"), lines);
    }
}
