package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import io.envbench.measure.engines.EngineMetrics;
import io.envbench.measure.results.JtlReader;
import org.junit.jupiter.api.Test;

class MetricNameTest {
    /** The assembled JMeter's user.properties, as jmeter-dist ships it. */
    private static final Path USER_PROPERTIES = Path.of("../jmeter-dist/src/main/dist/bin/user.properties");

    @Test
    void theVariablesJMeterSavesAreTheCataloguesInItsOrder() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(USER_PROPERTIES)) {
            p.load(r);
        }
        List<String> saved = Arrays.asList(p.getProperty("sample_variables", "").split(","));
        List<String> expected = new ArrayList<>(
                List.of(JtlReader.ENV_COLUMN, EngineMetrics.ENGINE_VARIABLE, JtlReader.INTENDED_COLUMN));
        MetricName.perSample().forEach(m -> expected.add(m.sampleVariable()));
        assertEquals(expected, saved, USER_PROPERTIES + ": sample_variables");
    }

    @Test
    void everyFixedNameIsSpelledOnceAndClaimedByNoFamily() {
        Set<String> columns =
                Arrays.stream(MetricName.values()).map(MetricName::column).collect(Collectors.toSet());
        assertEquals(MetricName.values().length, columns.size());
        for (MetricName m : MetricName.values()) {
            for (MetricName.Family f : MetricName.Family.values()) {
                assertFalse(f.has(m.column()), f + " claims " + m.column());
            }
        }
    }

    @Test
    void aFamilysNamesAreFoundByItsPattern() {
        String core = MetricName.Family.CORE.of("3", "pct");
        assertEquals("host.cpu3.pct", core);
        assertTrue(MetricName.Family.CORE.has(core));
        assertTrue(MetricName.Family.CORE.any("pct").matcher(core).matches());
        assertFalse(MetricName.Family.CORE
                .any("pct")
                .matcher(MetricName.HOST_CPU.column())
                .matches());
        String disk = MetricName.Family.DISK.of("sda", "write.bytesPerSec");
        assertTrue(MetricName.Family.DISK.any("write.bytesPerSec").matcher(disk).matches());
        assertFalse(MetricName.Family.DISK.any("read.bytesPerSec").matcher(disk).matches());
        assertEquals("process.docker-proxy.cpu.pct", MetricName.DOCKER_PROXY_CPU);
    }

    /** Whether a metrics-file column is in the catalogue: a fixed name or a family's. */
    static boolean catalogued(String column) {
        return Arrays.stream(MetricName.values()).anyMatch(m -> m.column().equals(column))
                || Arrays.stream(MetricName.Family.values()).anyMatch(f -> f.has(column));
    }
}
