package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.GuiTests;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.measure.influxdb.InfluxDbWriter;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Resource Monitor's InfluxDB writer without an InfluxDB: another machine's URL in the field stops the test
 * before anything is written, naming the field and the permission; a server that is down (a closed port on
 * 127.0.0.1) loses points, counted, while samples are taken at full speed and the test runs to its end.
 */
class ResourceMonitorInfluxDbTest {
    @TempDir
    Path dir;

    private final AtomicInteger stops = new AtomicInteger();
    private final List<String> told = new CopyOnWriteArrayList<>();
    private ResourceMonitor monitor;

    @BeforeEach
    void jmeter() {
        GuiTests.initJMeter();
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        monitor = new ResourceMonitor();
        monitor.setInterval("100");
        monitor.setFilename(dir.resolve("metrics.csv").toString());
        monitor.onFailureStop(stops::incrementAndGet);
        monitor.onTellUser(told::add);
    }

    @AfterEach
    void end() {
        monitor.testEnded();
        JMeterUtils.getJMeterProperties().remove(EnvBenchProperties.INFLUXDB_URL);
        assertTrue(JMeterEnvBench.collector().isEmpty(), "the collector is left running");
    }

    @Test
    void anotherMachinesUrlInTheFieldStopsTheTestNamingTheFieldAndTheFix() {
        JMeterUtils.setProperty(EnvBenchProperties.INFLUXDB_URL, "http://127.0.0.1:8086"); // the field wins
        monitor.setInfluxDbUrl("http://192.0.2.7:8086");
        monitor.testStarted();
        assertEquals(1, stops.get());
        String m = told.get(0);
        assertTrue(m.contains("InfluxDB URL (" + EnvBenchProperties.INFLUXDB_URL + "): 'http://192.0.2.7:8086'"), m);
        assertTrue(m.contains("-J" + EnvBenchProperties.INFLUXDB_ALLOW_REMOTE + "=true"), m);
        assertNull(monitor.influxDb());
        assertFalse(Files.exists(dir.resolve("metrics.csv")), "a metrics file was made");
    }

    @Test
    void aServerThatIsDownLosesPointsCountedAndSamplingGoesOnAtFullSpeed() throws Exception {
        int closed = ResourceMonitorPrometheusTest.freePort(); // nothing listens there
        JMeterUtils.setProperty(EnvBenchProperties.INFLUXDB_URL, "http://127.0.0.1:" + closed);
        monitor.testStarted();
        assertEquals(0, stops.get(), told.toString());
        InfluxDbWriter w = monitor.influxDb();
        assertNotNull(w);
        long start = System.nanoTime();
        for (int i = 0; i < 20_000; i++) {
            ResourceMonitorPrometheusTest.feed(
                    monitor, "page " + (i % 5), i % 2 == 0 ? "bare" : "docker", i % 300, true);
        }
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        Thread.sleep(600); // a few ticks, each failing to reach the server
        monitor.testEnded();
        assertEquals(0, stops.get(), "the test was stopped: " + told);
        assertEquals(0, w.written());
        assertTrue(w.dropped() >= 10, "dropped: " + w.dropped()); // 10 series of samples, and the ticks' figures
        assertTrue(tookMs < 5_000, "20,000 samples took " + tookMs + " ms with the server down");
        System.out.printf("server down: 20,000 samples in %d ms, %d points dropped%n", tookMs, w.dropped());
    }
}
