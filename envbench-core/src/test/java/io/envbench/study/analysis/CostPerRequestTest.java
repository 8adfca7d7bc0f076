package io.envbench.study.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CPU per request from a run directory written by hand: bare's nginx at 20% of a core for 1,000 requests/s (200 µs
 * each); the bridge's container at 20% plus docker-proxy at 30% for the same rate (500 µs, 300 of them the proxy's).
 */
class CostPerRequestTest {
    @TempDir
    Path dir;

    static final long T0 = 1_700_000_000_000L;

    @Test
    void eachRunsCpuOverItsRequestsAfterTheWarmup() throws Exception {
        Experiment e = experiment();
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        Comparison c = new Comparison();
        List<RunRecord> runs = new ArrayList<>();
        addTwoRoundsEach(d, c, runs, false);
        CostPerRequest cost = CostPerRequest.read(d, e, runs, c);
        assertEquals(4, cost.runs().size());
        RunStatistics bare = cost.microsecondsPerRequest().get("bare");
        RunStatistics bridge = cost.microsecondsPerRequest().get("docker-bridge");
        assertEquals(2, bare.runs());
        assertEquals(200, bare.median(), 5, "20% of a core / 1,000 per s");
        assertEquals(500, bridge.median(), 10, "(20% + 30% docker-proxy) / 1,000 per s");
        assertEquals(30, cost.cpuPct().get("docker-bridge")[1], 1e-9, "docker-proxy's share");
        // a warm-up at 100% would double bare's cost if it were counted
        assertTrue(
                cost.runs().stream().allMatch(r -> r.cpuPct() < 60), cost.runs().toString());
    }

    /**
     * Two labels, one taking three times as long: each run's CPU per request is shared by time, so "GET /big" is
     * given three times the CPU of "GET /" and the two, weighted by their counts, give back the run's total.
     */
    @Test
    void aPlanOfSeveralLabelsSharesEachRunsCpuByResponseTime() throws Exception {
        Experiment e = experiment();
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        Comparison c = new Comparison();
        List<RunRecord> runs = new ArrayList<>();
        addTwoRoundsEach(d, c, runs, true);
        CostPerRequest cost = CostPerRequest.read(d, e, runs, c);
        Map<String, Map<String, RunStatistics>> byLabel = cost.microsecondsPerRequestByLabel();
        assertEquals(List.of("GET /", "GET /big"), List.copyOf(byLabel.keySet()), "the plan's labels, in its order");
        assertEquals(100, byLabel.get("GET /").get("bare").median(), 3, "200 us x 1 ms / 2 ms mean");
        assertEquals(300, byLabel.get("GET /big").get("bare").median(), 8, "200 us x 3 ms / 2 ms mean");
        assertEquals(250, byLabel.get("GET /").get("docker-bridge").median(), 8);
        assertEquals(750, byLabel.get("GET /big").get("docker-bridge").median(), 20);
        for (CostPerRequest.Run r : cost.runs()) {
            double weighted = (r.microseconds("GET /") + r.microseconds("GET /big")) / 2;
            assertEquals(r.microseconds(), weighted, 1e-6, "half the requests each: the shares add up to the total");
        }
        Comparison oneLabel = new Comparison();
        RunRecord only = run(d, oneLabel, new PlannedRun(1, "bare", 1), "process.bare.cpu.pct", 20, 0, false);
        assertTrue(
                CostPerRequest.read(d, e, List.of(only), oneLabel)
                        .microsecondsPerRequestByLabel()
                        .isEmpty(),
                "one label: nothing to share");
    }

    private Experiment experiment() throws Exception {
        return ExperimentFile.parse(
                """
                name: cost
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker-bridge, placement: docker }
                load: { http: { path: /, requestsPerSecond: 1000, warmupSeconds: 2, durationSeconds: 12 } }
                """,
                dir.resolve("cost.yaml"),
                Path.of("..", "targets").toAbsolutePath().normalize());
    }

    /** Two rounds of bare (20% of a core) and docker-bridge (20%, plus docker-proxy at 30%), at 1,000 requests/s. */
    private static void addTwoRoundsEach(RunDirectory d, Comparison c, List<RunRecord> runs, boolean twoLabels)
            throws Exception {
        for (int rep = 1; rep <= 2; rep++) {
            runs.add(run(d, c, new PlannedRun(rep, "bare", rep), "process.bare.cpu.pct", 20, 0, twoLabels));
            runs.add(run(
                    d,
                    c,
                    new PlannedRun(rep, "docker-bridge", rep),
                    "container.docker-bridge.cpu.pct",
                    20,
                    30,
                    twoLabels));
        }
    }

    /** One run: 10 s of 1,000 samples/s after a 2 s warm-up, its metrics (the warm-up at 100%) and record. */
    private static RunRecord run(RunDirectory d, Comparison c, PlannedRun r, String cpuColumn, double cpu, double proxy)
            throws Exception {
        return run(d, c, r, cpuColumn, cpu, proxy, false);
    }

    /** As above; with {@code twoLabels}, every other sample is "GET /big" and takes 3 ms where "GET /" takes 1. */
    private static RunRecord run(
            RunDirectory d, Comparison c, PlannedRun r, String cpuColumn, double cpu, double proxy, boolean twoLabels)
            throws Exception {
        long start = T0 + r.round() * 100_000L;
        for (long ms = 2000; ms < 12_000; ms++) { // the comparison holds samples after the warm-up only
            boolean big = twoLabels && ms % 2 == 1;
            c.add(
                    new Sample(r.environment(), big ? "GET /big" : "GET /", start + ms, big ? 3 : 1, true, 100, 10),
                    r.id());
        }
        StringBuilder m = new StringBuilder(
                "timestamp,environment,target.cpu.pct," + cpuColumn + ",process.docker-proxy.cpu.pct\n");
        for (long s = 0; s < 12; s++) {
            double v = s < 2 ? 100 : cpu;
            m.append(start + s * 1000 + 500)
                    .append(',')
                    .append(r.environment())
                    .append(',')
                    .append(v)
                    .append(',')
                    .append(v)
                    .append(',')
                    .append(s < 2 ? 100 : proxy)
                    .append('\n');
        }
        Files.createDirectories(d.metrics(r).getParent());
        Files.writeString(d.metrics(r), m);
        return new RunRecord(
                r,
                Instant.ofEpochMilli(start),
                Instant.ofEpochMilli(start + 12_000),
                RunRecord.OK,
                10_000,
                100,
                Instant.ofEpochMilli(start));
    }
}
