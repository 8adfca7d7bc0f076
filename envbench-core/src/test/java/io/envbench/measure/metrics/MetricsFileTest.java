package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the collector writes, the report reads back: averages, peaks, sums over disks. */
class MetricsFileTest {
    @TempDir
    Path dir;

    @Test
    void writtenByTheCollectorsWriterReadPerEnvironment() throws Exception {
        Path f = dir.resolve("m.csv");
        try (MetricsCsvWriter w = new MetricsCsvWriter(f)) {
            w.write(1000, "bare", Map.of("host.cpu.pct", 10.0, "host.disk.vda.write.bytesPerSec", 100.0));
            w.write(
                    2000,
                    "bare",
                    Map.of(
                            "host.cpu.pct",
                            30.0,
                            "host.disk.vda.write.bytesPerSec",
                            300.0,
                            "host.disk.vdb.write.bytesPerSec",
                            50.0));
            w.write(3000, "docker-host", Map.of("host.cpu.pct", 80.0));
        }
        MetricsFile m = MetricsFile.read(f);
        assertEquals(Set.of("bare", "docker-host"), m.environments());
        assertEquals(20.0, m.summary("bare", "host.cpu.pct").average(), 1e-9);
        assertEquals(30.0, m.summary("bare", "host.cpu.pct").peak(), 1e-9);
        assertEquals(1.0, m.over("bare", "host.cpu.pct").get(1)[0], 1e-9, "seconds since the environment's first row");
        assertEquals(0.0, m.over("docker-host", "host.cpu.pct").get(0)[0], 1e-9);
        var disks = m.summaryOfSum("bare", Pattern.compile("host\\.disk\\..*\\.write\\.bytesPerSec"));
        assertEquals(350.0, disks.peak(), 1e-9);
        assertEquals(225.0, disks.average(), 1e-9);
        assertTrue(Double.isNaN(m.summary("bare", "no.such.metric").average()));
    }

    @Test
    void anotherCsvIsRefusedByName() throws Exception {
        Path f = Files.writeString(dir.resolve("x.csv"), "a,b,c\n1,2,3\n");
        IOException e = assertThrows(IOException.class, () -> MetricsFile.read(f));
        assertTrue(e.getMessage().contains("not an EnvBench metrics file"), e.getMessage());
    }
}
