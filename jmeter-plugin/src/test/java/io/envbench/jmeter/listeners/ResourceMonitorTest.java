package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.GuiTests;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.metrics.MetricsFile;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Resource Monitor starts the collector at the interval asked for, or stops the test and writes nothing. */
class ResourceMonitorTest {
    @TempDir
    Path dir;

    private final AtomicInteger stops = new AtomicInteger();
    private ResourceMonitor monitor;

    private ResourceMonitor monitor(String interval, Path file) {
        monitor = new ResourceMonitor();
        monitor.setInterval(interval);
        monitor.setFilename(file.toString());
        monitor.onFailureStop(stops::incrementAndGet);
        return monitor;
    }

    @AfterEach
    void end() {
        if (monitor != null) {
            monitor.testEnded();
        }
        assertTrue(JMeterEnvBench.collector().isEmpty(), "the collector is left running");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "99", "0", "-1000", "1.5", "", "99999999999999999999"})
    void aBadIntervalStopsTheTestAndWritesNothing(String interval) throws Exception {
        Path file = dir.resolve("metrics.csv");
        monitor(interval, file).testStarted();
        assertEquals(1, stops.get(), "the test is stopped");
        assertTrue(JMeterEnvBench.collector().isEmpty(), "no collector runs");
        Thread.sleep(300);
        assertFalse(Files.exists(file), "a metrics file was written");
    }

    @Test
    void aBadOnWriteFailureStopsTheTestNamingTheProperty() throws Exception {
        GuiTests.initJMeter();
        JMeterUtils.setProperty(EnvBenchProperties.ON_WRITE_FAILURE, "later");
        try {
            Path file = dir.resolve("metrics.csv");
            monitor("1000", file).testStarted();
            assertEquals(1, stops.get(), "the test is stopped");
            assertTrue(JMeterEnvBench.collector().isEmpty(), "no collector runs");
        } finally {
            JMeterUtils.getJMeterProperties().remove(EnvBenchProperties.ON_WRITE_FAILURE);
        }
    }

    /**
     * The metrics file stops (here: its folder is removed after the start, before the first row a second later, so its
     * header cannot be written): told, and stopped.
     */
    @Test
    void aMetricsFileThatStopsStopsTheTestAndMarksItsEnd() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("out"));
        Path file = folder.resolve("metrics.csv");
        AtomicInteger exits = new AtomicInteger();
        monitor("1000", file).onFailureExit(exits::incrementAndGet);
        monitor.testStarted();
        Files.delete(folder);
        WriteWatch watch = monitor.watch();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (watch.failed().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(List.of(file), watch.failed());
        assertEquals(1, stops.get(), "the test is stopped");
        monitor.testEnded();
        assertEquals(1, exits.get(), "jmeter -n exits with 1");
    }

    @Test
    void aFileThatCannotBeWrittenStopsTheTest() throws IOException {
        Path notAFolder = Files.writeString(dir.resolve("results"), "a file, not a folder");
        monitor("1000", notAFolder.resolve("metrics.csv")).testStarted();
        assertEquals(1, stops.get());
        assertTrue(JMeterEnvBench.collector().isEmpty());
    }

    @Test
    void aGoodIntervalStartsTheCollectorAtThatInterval() throws Exception {
        Path file = dir.resolve("metrics.csv");
        monitor("100", file).testStarted();
        assertEquals(0, stops.get());
        MetricsCollector c = JMeterEnvBench.collector().orElseThrow();
        assertEquals(Duration.ofMillis(100), c.interval());
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        monitor.testEnded();
        List<String> lines = Files.readAllLines(file);
        assertTrue(lines.get(0).startsWith("timestamp,environment,host.cpu.pct"), "plain CSV, the header first");
        assertTrue(
                MetricsFile.read(file).sourceOf("host.cpu.pct").isPresent(),
                "the sources beside it: " + Files.readString(MetricsFile.sourcesFile(file)));
    }
}
