package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.Sample;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** The Resource Monitor in the real JMeter, headless: in small plans (no Docker), and static-web.jmx's with a real container. */
@Isolated
class ResourceMonitorTest {
    @TempDir
    Path dir;

    /** A Resource Monitor at the Test Plan level: the default interval field, this file name. */
    static String monitor(String filename) {
        return """
                <io.envbench.jmeter.listeners.ResourceMonitor guiclass="io.envbench.jmeter.listeners.ResourceMonitorGui" testclass="io.envbench.jmeter.listeners.ResourceMonitor" testname="EnvBench Resource Monitor">
                  <stringProp name="ResourceMonitor.interval_ms">${__P(envbench.metrics.interval.ms,1000)}</stringProp>
                  <stringProp name="ResourceMonitor.filename">%s</stringProp>
                </io.envbench.jmeter.listeners.ResourceMonitor>
                <hashTree/>
                """.formatted(filename);
    }

    /** A Debug Sampler every 100 ms. */
    private static final String PACED_DEBUG = Jmeter.DEBUG_SAMPLER.replace("<hashTree/>", """
            <hashTree>
              <ConstantTimer guiclass="ConstantTimerGui" testclass="ConstantTimer" testname="pace">
                <stringProp name="ConstantTimer.delay">100</stringProp>
              </ConstantTimer>
              <hashTree/>
            </hashTree>
            """);

    /** No Docker needed: the monitor fails at test start, before any environment. */
    @Test
    void aBadIntervalStopsTheTestBeforeAnySampleAndWritesNoMetrics() throws Exception {
        Path metrics = dir.resolve("metrics.csv");
        Path plan = Jmeter.plan(dir.resolve("monitor.jmx"), monitor(metrics.toString()), PACED_DEBUG, -1, 60);
        Path jtl = dir.resolve("r.jtl");
        long t0 = System.nanoTime();
        List<Sample> samples = Jmeter.run(plan, jtl, List.of("-Jenvbench.metrics.interval.ms=fast"));
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;

        assertEquals(List.of(), samples, "samples after the monitor failed");
        assertTrue(seconds < 45, "the 60 s test was not stopped: it took " + seconds + " s");
        assertFalse(Files.exists(metrics), "metrics written");
        String log = Files.readString(dir.resolve("r.jtl.log"));
        assertTrue(
                log.contains(
                        "ERROR o.a.j.u.JMeterUtils: EnvBench Resource Monitor: Interval (ms): 'fast' is not a whole number"
                                + " of milliseconds; give a whole number from 100 to 3600000, e.g. 1000 in the Resource Monitor's field or"
                                + " -Jenvbench.metrics.interval.ms=1000. The test is stopped; no metrics are written."),
                log);
        assertTrue(
                Files.readString(dir.resolve("r.jtl.out")).contains("EnvBench Resource Monitor: Interval (ms): 'fast'"),
                "the error on the console");
    }

    /** No Docker needed: the host alone is measured. */
    @Test
    void theDefaultMetricsFileGoesNextToTheJtl() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path results = Files.createDirectories(dir.resolve("results"));
        Path plan = Jmeter.plan(
                dir.resolve("monitor.jmx"),
                monitor("${__P(envbench.metrics.file,envbench-metrics.csv)}"),
                PACED_DEBUG,
                -1,
                2);
        Path jtl = results.resolve("r.jtl");
        List<Sample> samples = Jmeter.run(plan, jtl, List.of("-Jenvbench.metrics.interval.ms=200"), work);

        assertTrue(samples.size() > 5, samples.size() + " samples");
        Path metrics = results.resolve("envbench-metrics.csv");
        assertTrue(Files.isRegularFile(metrics), "no metrics file next to the JTL");
        assertTrue(Files.readAllLines(metrics).size() > 3, "metrics rows");
        assertFalse(Files.exists(work.resolve("envbench-metrics.csv")), "metrics in the working directory");
    }

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
                CSVParser csv = CSVParser.parse(
                        r,
                        CSVFormat.DEFAULT
                                .builder()
                                .setHeader()
                                .setSkipHeaderRecord(true)
                                .build())) { // plain CSV: no comment marker needed, the header comes first
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
        // the sources file beside it names where each group of columns came from: a local daemon's container is read
        // from its cgroup files
        assertTrue(Files.isRegularFile(MetricsFile.sourcesFile(metrics)), "the sources beside the metrics file");
        MetricsFile read = MetricsFile.read(metrics);
        assertTrue(
                read.sourceOf("container.docker-bridge.cpu.pct").orElse("").startsWith("cgroup v"),
                read.sources().toString());
        assertTrue(read.sourceOf("host.cpu.pct").isPresent(), read.sources().toString());
        assertTrue(times.size() > 20, "rows " + times.size());
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            gaps.add(times.get(i) - times.get(i - 1));
        }
        long median = gaps.stream().sorted().toList().get(gaps.size() / 2);
        assertTrue(median >= 180 && median <= 240, "median gap " + median + " ms for a 200 ms interval");
        assertTrue(maxContainerCpu > 10, "nginx worked under saturation: " + maxContainerCpu);

        List<String> lines = Files.readAllLines(jtl);
        assertTrue(
                lines.get(0)
                        .endsWith(
                                "\"envbench.env\",\"envbench.engine\",\"envbench.intended\",\"envbench.host.cpu.pct\",\"envbench.target.cpu.pct\",\"envbench.target.mem.bytes\""),
                lines.get(0));
        long withFigures = lines.stream()
                .skip(1)
                .filter(l -> l.matches(
                        ".*,docker-bridge,,(null)?,[0-9.]+,[0-9.]+,[0-9.]+$")) // no Arrivals Timer: no intended start
                .count();
        assertTrue(
                withFigures > (lines.size() - 1) * 0.8,
                withFigures + " of " + (lines.size() - 1) + " samples carry the figures");
    }
}
