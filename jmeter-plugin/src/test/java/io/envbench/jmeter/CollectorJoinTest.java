package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.metrics.MetricsFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector a plan's elements share: whoever starts it sets up its outputs before its first tick, so an output
 * slow to set up (an InfluxDB writer's HTTP client on a loaded machine) still hears every row of the metrics file; a
 * set-up that fails leaves no collector running.
 */
class CollectorJoinTest {
    private static final Duration EVERY = Duration.ofMillis(100);

    @TempDir
    Path dir;

    @BeforeEach
    void jmeter() {
        GuiTests.initJMeter();
    }

    @AfterEach
    void noneLeft() {
        while (JMeterEnvBench.collector().isPresent()) {
            JMeterEnvBench.leaveCollector();
        }
    }

    @Test
    void aSlowSetUpStillHearsEveryRowOfTheMetricsFile() throws Exception {
        Path csv = dir.resolve("metrics.csv");
        List<Long> heard = new CopyOnWriteArrayList<>();
        MetricsCollector c = JMeterEnvBench.joinCollector(EVERY, csv, first -> {
            try {
                Thread.sleep(5 * EVERY.toMillis()); // five ticks' time: ticks before the set-up ends would be lost
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            first.addListener(t -> heard.add(t.epochMs()));
        });
        // a second element joins the same collector and sets up nothing
        AtomicInteger secondSetUps = new AtomicInteger();
        assertSame(c, JMeterEnvBench.joinCollector(EVERY, csv, second -> secondSetUps.incrementAndGet()));
        assertEquals(0, secondSetUps.get(), "the set-up of an element that joins a running collector");
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (heard.size() < 4 && System.nanoTime() < until) {
            Thread.sleep(EVERY.toMillis());
        }
        JMeterEnvBench.leaveCollector();
        assertTrue(JMeterEnvBench.collector().isPresent(), "left by one of two: still running");
        JMeterEnvBench.leaveCollector();
        assertTrue(JMeterEnvBench.collector().isEmpty(), "left by both: stopped");

        List<Long> rows = new ArrayList<>();
        MetricsFile.forEachRow(csv, r -> rows.add(r.epochMs()));
        assertTrue(rows.size() >= 4, "metrics rows: " + rows);
        Set<Long> missed = new TreeSet<>(rows);
        heard.forEach(missed::remove);
        assertEquals(Set.of(), missed, "rows of the metrics file the set-up's listener did not hear; heard " + heard);
    }

    @Test
    void aSetUpThatFailsLeavesNoCollector() throws Exception {
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> JMeterEnvBench.joinCollector(EVERY, dir.resolve("metrics.csv"), c -> {
                    throw new IllegalStateException("no output");
                }));
        assertEquals("no output", e.getMessage());
        assertFalse(JMeterEnvBench.collector().isPresent(), "a collector left running");
        MetricsCollector next = JMeterEnvBench.joinCollector(EVERY, null, c -> {});
        assertTrue(JMeterEnvBench.collector().isPresent());
        assertSame(next, JMeterEnvBench.collector().get());
    }
}
