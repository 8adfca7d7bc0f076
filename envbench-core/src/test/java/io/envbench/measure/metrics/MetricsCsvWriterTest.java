package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
        assertEquals(
                List.of(
                        "timestamp,environment,host.cpu.pct,container.docker-bridge.cpu.pct",
                        "1000,bare,12.500,",
                        "2000,bare,13,",
                        "3000,docker-bridge,50.250,99"),
                lines);
    }

    @Test
    void sourcesGoInACommentLineAndSeveralEnvironmentsInOneField() throws Exception {
        Path f = dir.resolve("m.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(f)) {
            w.write(1000, "a,b", Map.of("host.cpu.pct", 1.0), Map.of("host.*", "procfs of this host"));
            Map<String, Double> more = new LinkedHashMap<>();
            more.put("host.cpu.pct", 2.0);
            more.put("container.a.cpu.pct", 3.0);
            Map<String, String> sources = new LinkedHashMap<>();
            sources.put("host.*", "procfs of this host");
            sources.put("container.a.*", "docker stats stream");
            w.write(2000, "a,b", more, sources);
            w.write(3000, "a,b", more, sources);
        }
        assertEquals(
                List.of(
                        "# sources: host.*=procfs of this host; container.a.*=docker stats stream",
                        "timestamp,environment,host.cpu.pct,container.a.cpu.pct",
                        "1000,\"a,b\",1,",
                        "2000,\"a,b\",2,3",
                        "3000,\"a,b\",2,3"),
                Files.readAllLines(f));
        MetricsFile m = MetricsFile.read(f);
        assertEquals(Set.of("a,b"), m.environments());
        assertEquals(Optional.of("docker stats stream"), m.sourceOf("container.a.cpu.pct"));
        assertEquals(Optional.of("procfs of this host"), m.sourceOf("host.cpu.pct"));
        assertEquals(Optional.empty(), m.sourceOf("process.jmeter.cpu.pct"));
        assertEquals(3.0, m.summary("a,b", "container.a.cpu.pct").peak());
        assertEquals(2, m.summary("a,b", "container.a.cpu.pct").samples());
    }

    @Test
    void valuesKeepThreeDecimalsAtMost() {
        assertEquals("12.500", MetricsCsvWriter.format(12.5));
        assertEquals("-0.007", MetricsCsvWriter.format(-0.0071));
        assertEquals("0.050", MetricsCsvWriter.format(0.05));
        assertEquals("42", MetricsCsvWriter.format(42.0));
        assertEquals("1000000.001", MetricsCsvWriter.format(1_000_000.0009));
    }
}
