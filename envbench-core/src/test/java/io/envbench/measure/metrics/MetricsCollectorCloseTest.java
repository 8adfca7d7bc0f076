package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reading that outlives close's wait (a Docker or /proc read that hangs) publishes nothing once close has closed
 * the outputs: no row after the listeners stopped hearing, and the closed metrics file is not opened again. The
 * reading is held on the real host by holding the registry's lock, which every tick takes first.
 */
class MetricsCollectorCloseTest {
    @TempDir
    Path dir;

    @Test
    void aTickStillUnderWayAfterCloseWritesNoRowAndTellsNoListener() throws Exception {
        closeWhileATickIsStuck(dir.resolve("metrics.csv"));
    }

    @Test
    void withoutAFileTooNoListenerHearsATickAfterClose() throws Exception {
        closeWhileATickIsStuck(null);
    }

    private void closeWhileATickIsStuck(Path file) throws Exception {
        List<MetricsCollector.Tick> heard = new CopyOnWriteArrayList<>();
        CountDownLatch twoTicks = new CountDownLatch(2);
        // the collector closes with the test even when an assertion fails first (a second close does nothing)
        try (EnvironmentRegistry registry = new EnvironmentRegistry(
                        Files.createDirectories(dir.resolve("targets")), DockerDaemon.fromEnvironment());
                MetricsCollector c = new MetricsCollector(
                        registry,
                        Duration.ofMillis(100),
                        file,
                        ProcessHandle.current().pid())) {
            c.addListener(t -> {
                heard.add(t);
                twoTicks.countDown();
            });
            c.start();
            assertTrue(twoTicks.await(20, TimeUnit.SECONDS), "the collector wrote its first rows");
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                synchronized (registry) { // the next tick's runningTargets() waits here
                    held.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            holder.start();
            held.await();
            Thread.sleep(300); // the tick under way is now stuck in its reading
            c.close(Duration.ofMillis(200));
            int heardAtClose = heard.size();
            List<String> rowsAtClose = file == null ? List.of() : Files.readAllLines(file);
            release.countDown();
            holder.join();
            Thread.sleep(500); // the stuck tick ends its reading and would publish now

            assertEquals(heardAtClose, heard.size(), "no listener heard a tick after close");
            if (file != null) {
                assertEquals(rowsAtClose, Files.readAllLines(file), "no row written, the file not opened again");
                assertTrue(
                        rowsAtClose.size() >= 3, "the header and the rows before close stand: " + rowsAtClose.size());
            }
        }
    }

    @Test
    void aClosedMetricsFileRefusesARowByName() throws Exception {
        Path file = dir.resolve("m.csv");
        MetricsCsvWriter w = new MetricsCsvWriter(file);
        w.write(1L, "bare", Map.of("host.cpu.pct", 1.0));
        w.close();
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> w.write(2L, "bare", Map.of("host.cpu.pct", 2.0)));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertEquals(2, Files.readAllLines(file).size(), "the header and the one row");
    }
}
