package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Resource Monitor of static-web.jmx in the real JMeter, headless, with a real container. */
class ResourceMonitorTest {
    @TempDir
    Path dir;

    @Test
    void metricsFileHasRowsAtTheIntervalAndTheJtlCarriesTheFigures() throws Exception {
        Jmeter.docker();
        Path jtl = dir.resolve("r.jtl");
        Path metrics = dir.resolve("metrics.csv");
        List<String> props = new ArrayList<>(Jmeter.shortRun("docker-bridge"));
        props.add("-Jenvbench.metrics.interval.ms=200");
        props.add("-Jenvbench.metrics.file=" + metrics);
        Jmeter.run(Jmeter.STATIC_WEB, jtl, props);

        List<Long> times = new ArrayList<>();
        double maxContainerCpu = 0;
        List<String> header;
        try (Reader r = Files.newBufferedReader(metrics);
             CSVParser csv = CSVParser.parse(r, CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build())) {
            header = csv.getHeaderNames();
            for (CSVRecord rec : csv) {
                times.add(Long.parseLong(rec.get("timestamp")));
                String cpu = rec.get("container.docker-bridge.cpu.pct");
                if (!cpu.isEmpty()) {
                    maxContainerCpu = Math.max(maxContainerCpu, Double.parseDouble(cpu));
                }
                double host = Double.parseDouble(rec.get("host.cpu.pct"));
                assertTrue(host >= 0 && host <= 100, "host cpu " + host);
            }
        }
        assertEquals(List.of("timestamp", "environment", "host.cpu.pct"), header.subList(0, 3));
        assertTrue(header.contains("process.docker-proxy.cpu.pct"), header.toString());
        assertTrue(header.contains("container.docker-bridge.net.rx.bytesPerSec"), header.toString());
        assertTrue(times.size() > 20, "rows " + times.size());
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            gaps.add(times.get(i) - times.get(i - 1));
        }
        long median = gaps.stream().sorted().toList().get(gaps.size() / 2);
        assertTrue(median >= 180 && median <= 240, "median gap " + median + " ms for a 200 ms interval");
        assertTrue(maxContainerCpu > 10, "nginx worked under saturation: " + maxContainerCpu);

        List<String> lines = Files.readAllLines(jtl);
        assertTrue(lines.get(0).endsWith("\"envbench.env\",\"envbench.host.cpu.pct\",\"envbench.target.cpu.pct\",\"envbench.target.mem.bytes\""),
                lines.get(0));
        long withFigures = lines.stream().skip(1).filter(l -> l.matches(".*,docker-bridge,[0-9.]+,[0-9.]+,[0-9.]+$")).count();
        assertTrue(withFigures > (lines.size() - 1) * 0.8, withFigures + " of " + (lines.size() - 1) + " samples carry the figures");
    }
}
