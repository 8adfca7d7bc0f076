package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.base.output.FullDiskChannel;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
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

    /**
     * The disk fills in the middle of a row: the file ends at its last whole row, read back as data, says why it stopped,
     * and takes no row after (one further row would be appended onto nothing it could vouch for).
     */
    @Test
    void aFullDiskEndsTheFileAtItsLastWholeRowAndStopsIt() throws Exception {
        Path f = dir.resolve("m.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(f, FullDiskChannel.withRoomFor(40))) {
            assertTrue(w.write(1000, "bare", Map.of("host.cpu.pct", 12.5))); // 17 bytes a row
            assertTrue(w.write(2000, "bare", Map.of("host.cpu.pct", 13.5)));
            assertFalse(w.write(3000, "bare", Map.of("host.cpu.pct", 14.5)), "6 of its 17 bytes fitted");
            assertEquals(Optional.of("no space left on device"), w.stoppedBecause());
            assertFalse(w.write(4000, "bare", Map.of("host.cpu.pct", 15.5)), "dropped after the stop");
        }
        assertEquals(
                "timestamp,environment,host.cpu.pct\n1000,bare,12.500\n2000,bare,13.500\n",
                Files.readString(f),
                "whole rows only");
        assertEquals(2, MetricsFile.read(f).summary("bare", "host.cpu.pct").samples());
    }

    /** The file stays plain CSV (its header first, as pandas and spreadsheets read it); the sources go beside it. */
    @Test
    void sourcesGoBesideThePlainCsvAndSeveralEnvironmentsInOneField() throws Exception {
        Path f = dir.resolve("m.csv");
        Files.writeString(MetricsFile.sourcesFile(f), "{\"sources\":{\"host.*\":\"a stale run's\"}}");
        try (MetricsCsvWriter w = new MetricsCsvWriter(f)) {
            assertFalse(Files.exists(MetricsFile.sourcesFile(f)), "an earlier file's sources are not this one's");
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
                        "timestamp,environment,host.cpu.pct,container.a.cpu.pct",
                        "1000,\"a,b\",1,",
                        "2000,\"a,b\",2,3",
                        "3000,\"a,b\",2,3"),
                Files.readAllLines(f));
        Path side = dir.resolve("m.csv.json");
        JsonNode json = new ObjectMapper().readTree(side.toFile());
        assertEquals("m.csv", json.get("metricsFile").asText());
        assertEquals("procfs of this host", json.get("sources").get("host.*").asText());
        assertEquals(
                "docker stats stream", json.get("sources").get("container.a.*").asText());
        try (var files = Files.list(dir)) {
            assertEquals(
                    Set.of("m.csv", "m.csv.json"),
                    files.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet()),
                    "no .part left");
        }
        // a plain CSV reader, no comment marker: the first row is the header
        try (CSVParser p = CSVFormat.DEFAULT
                .builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .build()
                .parse(Files.newBufferedReader(f))) {
            assertEquals(
                    List.of("timestamp", "environment", "host.cpu.pct", "container.a.cpu.pct"), p.getHeaderNames());
            assertEquals(3, p.getRecords().size());
        }
        MetricsFile m = MetricsFile.read(f);
        assertEquals(Set.of("a,b"), m.environments());
        assertEquals(Optional.of("docker stats stream"), m.sourceOf("container.a.cpu.pct"));
        assertEquals(Optional.of("procfs of this host"), m.sourceOf("host.cpu.pct"));
        assertEquals(Optional.empty(), m.sourceOf("process.jmeter.cpu.pct"));
        assertEquals(3.0, m.summary("a,b", "container.a.cpu.pct").peak());
        assertEquals(2, m.summary("a,b", "container.a.cpu.pct").samples());
    }

    /** Files kept from before (docs/experiments) start with the sources comment: still read, sources and all. */
    @Test
    void anOldFileWithTheSourcesCommentLineIsStillRead() throws Exception {
        Path f = Files.writeString(
                dir.resolve("old.csv"),
                "# sources: host.*=procfs of this host; container.a.*=cgroup v1\n"
                        + "timestamp,environment,host.cpu.pct,container.a.cpu.pct\n"
                        + "1000,bare,10,\n2000,bare,20,5\n");
        MetricsFile m = MetricsFile.read(f);
        assertEquals(Optional.of("cgroup v1"), m.sourceOf("container.a.cpu.pct"));
        assertEquals(Optional.of("procfs of this host"), m.sourceOf("host.cpu.pct"));
        assertEquals(2, m.summary("bare", "host.cpu.pct").samples());
        assertEquals(15.0, m.summary("bare", "host.cpu.pct").average());
    }

    @Test
    void aDamagedSourcesFileIsNamedWithTheFix() throws Exception {
        Path f = Files.writeString(dir.resolve("m.csv"), "timestamp,environment,host.cpu.pct\n1000,bare,10\n");
        Path side = MetricsFile.sourcesFile(f);
        for (String bad : List.of("{\"sources\": {\"host.*\": ", "[1, 2]", "{\"sources\": {\"host.*\": 3}}")) {
            Files.writeString(side, bad);
            IOException e = assertThrows(IOException.class, () -> MetricsFile.read(f), bad);
            assertTrue(e.getMessage().startsWith(side.toString()), e.getMessage());
            assertTrue(e.getMessage().endsWith("; delete it to read m.csv without its sources"), e.getMessage());
        }
        Files.delete(side);
        assertEquals(1, MetricsFile.read(f).summary("bare", "host.cpu.pct").samples());
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
