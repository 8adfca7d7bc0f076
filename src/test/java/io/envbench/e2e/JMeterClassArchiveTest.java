package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.envbench.study.runner.JMeterClassArchive;
import io.envbench.study.runner.JMeterInstall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The assembled JMeter's class archive: made once, then named on every command the runner starts JMeter with, and a
 * JMeter started so runs a plan to its end. Prints a start-and-stop time with and without it, interleaved (not
 * asserted).
 */
@Isolated
class JMeterClassArchiveTest {
    @TempDir
    Path dir;

    @Test
    void madeOnceThenEveryJMeterStartsWithItAndRuns() throws Exception {
        JMeterInstall jmeter = new JMeterInstall(Jmeter.HOME);
        // an earlier run in this JVM's suite made it already: made again here, as the first run of a machine does
        Files.deleteIfExists(jmeter.classArchive());
        JMeterClassArchive.Result made = JMeterClassArchive.ensure(jmeter, dir.resolve("work"));
        assertTrue(made.madeIn().toMillis() > 0, "made now: " + made.describe());
        assertTrue(made.archive().isPresent(), made.describe());
        assertTrue(
                Files.size(made.archive().get()) > 1_000_000,
                "a real dump: " + made.archive().get());
        System.out.println(made.describe());
        JMeterClassArchive.Result again = JMeterClassArchive.ensure(jmeter, dir.resolve("work"));
        assertEquals(made.archive(), again.archive());
        assertTrue(again.madeIn().isZero(), "made once: " + again.describe());
        try (var left = Files.list(dir.resolve("work"))) {
            assertEquals(List.of(), left.toList(), "its temp folder is gone");
        }

        Path plan = Jmeter.plan(dir.resolve("plan.jmx"), "", Jmeter.DEBUG_SAMPLER, 3, 0);
        List<Long> withMs = new ArrayList<>();
        List<Long> withoutMs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (boolean with : new boolean[] {true, false}) {
                Path jtl = dir.resolve((with ? "with-" : "without-") + i + ".jtl");
                List<String> cmd = jmeter.headless(plan, jtl, dir.resolve("jmeter-" + i + ".log"), Map.of(), List.of());
                assertTrue(
                        cmd.contains("-XX:SharedArchiveFile=" + made.archive().get()),
                        "the runner's command names it: " + cmd);
                if (!with) {
                    cmd = new ArrayList<>(cmd);
                    cmd.removeIf(a -> a.startsWith("-XX:SharedArchiveFile=") || a.startsWith("-Xlog:cds"));
                }
                long t0 = System.nanoTime();
                Process p = new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("out-" + i + ".txt").toFile())
                        .start();
                assertTrue(p.waitFor(120, TimeUnit.SECONDS), "JMeter ended");
                (with ? withMs : withoutMs).add((System.nanoTime() - t0) / 1_000_000);
                assertEquals(0, p.exitValue(), Files.readString(dir.resolve("out-" + i + ".txt")));
                assertEquals(4, Files.readAllLines(jtl).size(), "a header and three samples: " + jtl);
            }
        }
        withMs.sort(null);
        withoutMs.sort(null);
        System.out.printf(
                "JMeter start to exit (3 samples), median of 3 interleaved: with its class archive %d ms, without %d ms"
                        + " (%.2f)%n",
                withMs.get(1), withoutMs.get(1), (double) withMs.get(1) / withoutMs.get(1));
    }
}
