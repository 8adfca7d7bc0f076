package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.SampleStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Golden test: every figure of our comparison against the real JMeter 5.6.3 report generator
 * ({@code jmeter -g}, statistics.json, statistic_window=-1) on the same files.
 */
@BesideOthers("its container (docker-host) and port 18080 are locked; it compares figures, no rate or time")
@ResourceLock(SharedResources.LABELLED_DOCKER)
@ResourceLock(SharedResources.PORT_18080)
class ReportGoldenTest {
    @TempDir
    Path dir;

    static final String HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,"
                    + "bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"envbench.env\"";

    /** Synthetic samples: several labels, ties, errors, uneven sizes. */
    static Path synthetic(Path file, String env, int n, long seed, String... labels) throws Exception {
        Random r = new Random(seed);
        long t = 1_700_000_000_000L;
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            w.write(HEADER);
            w.newLine();
            for (int i = 0; i < n; i++) {
                t += r.nextInt(7);
                String label = labels[r.nextInt(labels.length)];
                long elapsed = r.nextInt(5) == 0 ? 12 : (long) Math.abs(r.nextGaussian() * 30 + 20);
                boolean ok = r.nextInt(17) != 0;
                w.write(t + "," + elapsed + "," + label + "," + (ok ? "200,OK" : "500,\"Server, Error\"")
                        + ",t 1-1,text," + ok + ","
                        + (ok ? "" : "boom") + "," + (1000 + r.nextInt(5000)) + "," + (100 + r.nextInt(50))
                        + ",1,1,http://127.0.0.1/,"
                        + elapsed + ",0,0," + env);
                w.newLine();
            }
        }
        return file;
    }

    static JsonNode jmeterStatistics(Path jtl) throws Exception {
        Path out = jtl.resolveSibling(jtl.getFileName() + "-report");
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                Jmeter.HOME.resolve("bin/ApacheJMeter.jar").toString(),
                "-g",
                jtl.toString(),
                "-o",
                out.toString(),
                "-Jjmeter.reportgenerator.statistic_window=-1",
                "-j",
                jtl.resolveSibling(jtl.getFileName() + "-g.log").toString());
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(jtl.resolveSibling("g.out").toFile())
                .start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "jmeter -g finished");
        assertEquals(0, p.exitValue(), Files.readString(jtl.resolveSibling("g.out")));
        return new ObjectMapper().readTree(out.resolve("statistics.json").toFile());
    }

    static void assertSame(Path jtl, String env) throws Exception {
        JsonNode golden = jmeterStatistics(jtl);
        Comparison c = Comparison.of(List.of(jtl));
        int compared = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = golden.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String label = e.getKey().equals("Total") ? Comparison.TOTAL : e.getKey();
            SampleStatistics s = c.get(env, label);
            JsonNode g = e.getValue();
            String where = jtl.getFileName() + " " + label;
            assertEquals(g.get("sampleCount").asLong(), s.count(), where);
            // JMeter keeps error % as a float: agree to float precision
            assertEquals(g.get("errorPct").asDouble(), s.errorPct(), 1e-5, where + " errorPct");
            assertEquals(g.get("meanResTime").asDouble(), s.meanMs(), 1e-9, where + " mean");
            assertEquals(g.get("medianResTime").asDouble(), s.medianMs(), 1e-9, where + " median");
            assertEquals(g.get("minResTime").asDouble(), s.minMs(), 1e-9, where + " min");
            assertEquals(g.get("maxResTime").asDouble(), s.maxMs(), 1e-9, where + " max");
            assertEquals(g.get("pct1ResTime").asDouble(), s.percentileMs(90), 1e-9, where + " p90");
            assertEquals(g.get("pct2ResTime").asDouble(), s.percentileMs(95), 1e-9, where + " p95");
            assertEquals(g.get("pct3ResTime").asDouble(), s.percentileMs(99), 1e-9, where + " p99");
            assertEquals(
                    g.get("throughput").asDouble(),
                    s.throughputPerSec(),
                    1e-9 * Math.max(1, s.throughputPerSec()),
                    where + " throughput");
            assertEquals(
                    g.get("receivedKBytesPerSec").asDouble(),
                    s.receivedKBytesPerSec(),
                    1e-9 * Math.max(1, s.receivedKBytesPerSec()),
                    where + " received");
            assertEquals(
                    g.get("sentKBytesPerSec").asDouble(),
                    s.sentKBytesPerSec(),
                    1e-9 * Math.max(1, s.sentKBytesPerSec()),
                    where + " sent");
            compared++;
        }
        assertTrue(compared >= 2, "Total and at least one label compared");
    }

    @Test
    void syntheticFilesWithTiesErrorsAndSeveralLabels() throws Exception {
        assertSame(
                synthetic(
                        dir.resolve("mixed.jtl"), "docker-bridge", 5_000, 1, "login", "open project", "create ticket"),
                "docker-bridge");
    }

    @Test
    void oneSample() throws Exception {
        assertSame(synthetic(dir.resolve("one.jtl"), "bare", 1, 2, "only"), "bare");
    }

    @Test
    void hundredThousandSamples() throws Exception {
        assertSame(synthetic(dir.resolve("large.jtl"), "docker-host", 100_000, 3, "GET /a", "GET /b"), "docker-host");
    }

    @Test
    void aRealRunOfTheDemoPlan() throws Exception {
        Jmeter.docker();
        Path jtl = dir.resolve("real.jtl");
        List<String> props = new ArrayList<>(Jmeter.shortRun("docker-host"));
        Jmeter.run(Jmeter.STATIC_WEB, jtl, props);
        assertSame(jtl, "docker-host");
    }
}
