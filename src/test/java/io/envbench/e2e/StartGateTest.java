package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.envbench.study.runner.JMeterInstall;
import io.envbench.study.runner.JMeterStartGate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Start Gate in the real JMeter with the built-in plan, as the runner starts a JMeter ahead of its run: it waits
 * (its engine up, no sample) for as long as nobody opens it, and once its standard input closes without the empty line
 * it exits 0 without a sample. Without the runner's property it does not wait at all (every other use of the plan).
 * Opening it is checked by every interleaved run of {@code ExperimentRunTest}.
 */
@BesideOthers("a JMeter of its own that sends no sample: no target, no Docker")
class StartGateTest {
    static final Path PLAN = Jmeter.ROOT.resolve("testplans/http-load.jmx");

    @TempDir
    Path dir;

    @Test
    void aJMeterStartedAheadWaitsWithoutASampleAndExitsWhenItsRunWillNotCome() throws Exception {
        Path jtl = dir.resolve("ahead.jtl");
        Process p = start(jtl, Map.of(JMeterStartGate.ENABLED_PROPERTY, "true"));
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean waiting = false;
            while (!waiting && (line = out.readLine()) != null) {
                waiting = line.equals(JMeterStartGate.WAITING);
            }
            assertTrue(waiting, "JMeter said it waits at the gate");
            // still there a while later, with no sample sent
            assertFalse(p.waitFor(2, TimeUnit.SECONDS), "JMeter waits at the gate");
            assertTrue(samples(jtl).isEmpty(), "no sample before the gate opens: " + samples(jtl));
            p.getOutputStream().close(); // the run will not come
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "JMeter ended once its standard input closed");
            assertEquals(0, p.exitValue());
        } finally {
            p.destroyForcibly();
        }
        assertTrue(samples(jtl).isEmpty(), "no sample: " + samples(jtl));
        String log = Files.readString(dir.resolve("ahead.log"));
        assertTrue(log.contains("standard input ended before the run started"), log);
    }

    @Test
    void withoutTheRunnersPropertyTheGateDoesNotWait() throws Exception {
        Path jtl = dir.resolve("plain.jtl");
        // the plan's default endpoint has no server: each sample fails at once, which is enough to show it ran
        Process p = start(jtl, Map.of("envbench.port", "1", "envbench.duration.seconds", "1"));
        try {
            p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "JMeter ran its test and ended");
        } finally {
            p.destroyForcibly();
        }
        assertFalse(samples(jtl).isEmpty(), "the test ran without waiting");
        assertFalse(Files.readString(dir.resolve("plain.log")).contains("Start Gate"), "the gate stayed out of it");
    }

    private Process start(Path jtl, Map<String, String> props) throws Exception {
        List<String> cmd = new JMeterInstall(Jmeter.HOME)
                .headless(
                        PLAN, jtl, dir.resolve(jtl.getFileName().toString().replace(".jtl", ".log")), props, List.of());
        return new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
    }

    private static List<String> samples(Path jtl) throws Exception {
        return Files.exists(jtl) ? Files.readAllLines(jtl).stream().skip(1).toList() : List.of();
    }
}
