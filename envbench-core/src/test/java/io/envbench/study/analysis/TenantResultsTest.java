package io.envbench.study.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.measure.metrics.MetricsCsvWriter;
import io.envbench.study.experiment.Criterion;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.experiment.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-tenant figures of a run directory written by hand (two configurations x two runs, two tenants): each figure is
 * the tenant's per-run value after the warm-up, throughput as JMeter's count / (last end - first start), the 90% line
 * by nearest rank, CPU the average of its container column after the warm-up; the table names every tenant.
 */
class TenantResultsTest {
    static final String HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                    + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,envbench.env\n";
    static final long T0 = 1_700_000_000_000L;

    static String row(long start, long elapsed, boolean ok, String tenant) {
        return start + "," + elapsed + ",home,200,OK," + tenant + ": users 1-1,text," + ok
                + ",,100,10,1,1,http://x,1,0,0," + tenant + "\n";
    }

    static final String EXPERIMENT = """
            name: mt
            target: daytrader
            tenants:
              count: 2
              highTenants: 1
              low: { threads: 4, requestsPerSecond: 100 }
              high: { threads: 8, requestsPerSecond: 1000 }
            configurations:
              - { name: none }
              - { name: dynamic, cpuControl: dynamic }
            load:
              plan: ../testplans/daytrader.jmx
              warmupSeconds: 1
              durationSeconds: 20
            """;

    /** Two runs of each configuration written by hand: "dynamic" answers twice as fast; tenant-2 fails 1 sample in 10. */
    static List<RunRecord> writeRuns(RunDirectory d, Experiment e) throws Exception {
        List<PlannedRun> plan = Schedule.of(e);
        assertEquals(
                List.of("none-r1", "dynamic-r1", "none-r2", "dynamic-r2"),
                plan.stream().map(PlannedRun::id).toList());
        for (PlannedRun r : plan) {
            long slow = r.environment().equals("none") ? 2 : 1; // "dynamic" answers twice as fast
            StringBuilder jtl = new StringBuilder(HEADER);
            jtl.append(row(T0, 1000, true, "tenant-1")); // in the warm-up: left out
            for (int i = 0; i < 10; i++) {
                jtl.append(
                        row(T0 + 1000 + i * 200, 5 * slow, i != 0, "tenant-2")); // tenant-2's first sample comes first
                jtl.append(row(T0 + 1000 + i * 100, (i + 1) * slow, true, "tenant-1"));
            }
            Files.writeString(d.jtl(r), jtl);
            try (MetricsCsvWriter m = new MetricsCsvWriter(d.metrics(r))) {
                m.write(
                        T0 + 500,
                        "tenant-1,tenant-2",
                        Map.of(
                                "host.cpu.pct",
                                99.0,
                                "container.tenant-1.cpu.pct",
                                500.0,
                                "container.tenant-2.cpu.pct",
                                500.0));
                m.write(
                        T0 + 1500,
                        "tenant-1,tenant-2",
                        Map.of(
                                "host.cpu.pct",
                                40.0,
                                "container.tenant-1.cpu.pct",
                                30.0,
                                "container.tenant-2.cpu.pct",
                                10.0 * slow));
                m.write(
                        T0 + 2500,
                        "tenant-1,tenant-2",
                        Map.of(
                                "host.cpu.pct",
                                60.0,
                                "container.tenant-1.cpu.pct",
                                50.0,
                                "container.tenant-2.cpu.pct",
                                30.0 * slow));
            }
        }
        return plan.stream()
                .map(r -> new RunRecord(
                        r,
                        Instant.ofEpochMilli(T0),
                        Instant.ofEpochMilli(T0 + 5000),
                        RunRecord.OK,
                        21,
                        100,
                        Instant.ofEpochMilli(T0)))
                .toList();
    }

    /** {@code yaml}'s tenants figures from two rounds of the runs {@link #writeRuns} writes. */
    private static TenantResults twoRoundsOf(String yaml, Path dir) throws Exception {
        Experiment e = ExperimentFile.parse(yaml, Path.of("mt.yaml"), TargetRecipeTest.TARGETS)
                .withRepetitions(2);
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        return TenantResults.read(d, e, writeRuns(d, e));
    }

    /** A configuration naming its own scenario: tenant-2 is low under none and high under dynamic. */
    @Test
    void aTenantUnderAnotherLoadThanTheBaselinesHasNoVerdict(@TempDir Path dir) throws Exception {
        TenantResults t = twoRoundsOf(EXPERIMENT.replace("- { name: none }", "- { name: none, highTenants: 0 }"), dir);
        TenantResults.Row dynamic1 = t.rows().get(2);
        TenantResults.Row dynamic2 = t.rows().get(3);
        assertEquals("dynamic/tenant-1", dynamic1.configuration() + "/" + dynamic1.tenant());
        assertTrue(dynamic1.throughputVsBaseline() != null, "low under both: compared");
        assertEquals("dynamic/tenant-2", dynamic2.configuration() + "/" + dynamic2.tenant());
        assertEquals(null, dynamic2.throughputVsBaseline(), "high under dynamic, low under none: not compared");
        assertEquals(null, dynamic2.meanVsBaseline());
        String[] cells = t.tableRows().get(3);
        assertEquals(TenantResults.OTHER_LOAD, cells[cells.length - 1]);
        assertEquals(TenantResults.OTHER_LOAD, cells[cells.length - 2]);
        assertTrue(t.markdown().contains("\"other load\": the tenant runs another load"), t.markdown());
        assertTrue(t.text().contains("so it has no verdict against it"), t.text());
    }

    @Test
    void eachTenantsFiguresPerConfigurationFromItsRuns(@TempDir Path dir) throws Exception {
        Experiment e = ExperimentFile.parse(EXPERIMENT, Path.of("mt.yaml"), TargetRecipeTest.TARGETS);
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        List<RunRecord> runs = writeRuns(d, e.withRepetitions(2));
        TenantResults t = TenantResults.read(d, e.withRepetitions(2), runs);
        assertEquals(
                List.of("none/tenant-1", "none/tenant-2", "dynamic/tenant-1", "dynamic/tenant-2"),
                t.rows().stream().map(r -> r.configuration() + "/" + r.tenant()).toList());
        TenantResults.Row none1 = t.rows().get(0);
        assertEquals(2, none1.throughput().runs());
        // tenant-1 under none: 10 samples from T0+1000 to T0+1900+20 -> 10 / 0.92 s; mean of 2..20 = 11; nearest-rank
        // 90% of 10 = 9th = 18
        assertEquals(10 / 0.92, none1.throughput().mean(), 1e-9);
        assertEquals(11.0, none1.meanMs().mean(), 1e-9);
        assertEquals(18.0, none1.p90Ms().mean(), 1e-9);
        assertEquals(0.0, none1.throughput().ciHalfWidth95(), 1e-9, "the two runs agree");
        assertEquals(40.0, none1.cpuPct().mean(), 1e-9, "the reading in the warm-up is left out");
        TenantResults.Row none2 = t.rows().get(1);
        assertEquals(10.0, none2.errorPct().mean(), 1e-9);
        assertEquals(40.0, none2.cpuPct().mean(), 1e-9);
        assertEquals(50.0, t.hostCpuPct("none").mean(), 1e-9);
        TenantResults.Row dynamic1 = t.rows().get(2);
        assertEquals(5.5, dynamic1.meanMs().mean(), 1e-9);
        assertTrue(
                dynamic1.meanVsBaseline().mark().startsWith("-50.0%"),
                dynamic1.meanVsBaseline().mark());
        assertTrue(
                dynamic1.meanVsBaseline().mark().contains("too few runs: 2 vs 2"),
                "no verdict from 2 runs: " + dynamic1.meanVsBaseline().mark());
        String text = t.text();
        for (String tenant : List.of("tenant-1", "tenant-2")) {
            assertEquals(
                    2,
                    text.lines()
                            .filter(l -> l.contains(" " + tenant + " ") && !l.contains(" under "))
                            .count(),
                    text);
        }
        assertTrue(t.markdown().contains("| dynamic | tenant-2 | 2 |"), t.markdown());
        t.writeCsv(dir.resolve("tenants.csv"));
        List<String> csv = Files.readAllLines(dir.resolve("tenants.csv"));
        assertEquals(1 + 4 + 2, csv.size(), String.join("\n", csv));
        assertEquals(
                List.of("tenant-1", "tenant-2"),
                List.copyOf(t.configurationsByTenant().labels()),
                "the charts' bars in tenant order");
        // tenant-2, the high one, asks more than it can get by design: the check leaves it out
        assertEquals(List.of(), t.threadBound());
        assertTrue(!t.text().contains("Held by their own threads"), t.text());
    }

    @Test
    void aLowTenantHeldByItsOwnThreadsIsNamed(@TempDir Path dir) throws Exception {
        // both tenants low, asked 1000/s of 8 threads answering in 5-11 ms: at most 730-1600/s, and each got about
        // 5/s; under none (10-11 ms) the ceiling is at or below the rate, under dynamic (5-5.5 ms) above it
        TenantResults t = twoRoundsOf(
                EXPERIMENT
                        .replace("highTenants: 1", "highTenants: 0")
                        .replace("  high: { threads: 8, requestsPerSecond: 1000 }\n", "")
                        .replace(
                                "low: { threads: 4, requestsPerSecond: 100 }",
                                "low: { threads: 8, requestsPerSecond: 1000 }"),
                dir);
        assertEquals(2, t.threadBound().size(), t.threadBound().toString());
        assertTrue(
                t.threadBound().get(0).startsWith("tenant-1 under none: "),
                t.threadBound().get(0));
        assertTrue(
                t.threadBound()
                        .get(1)
                        .startsWith("tenant-2 under none: 5.5/s of 1000.0/s asked; 8 threads at 10.0 ms each send at"
                                + " most 800.0/s: give it more than 10 threads"),
                t.threadBound().get(1));
        assertTrue(t.text().contains("Held by their own threads, not by the machine:"), t.text());
        assertTrue(t.markdown().contains("- tenant-2 under none:"), t.markdown());
    }

    /** Criteria of a multi-tenant experiment are evaluated on the tenants' figures: CONFIGURATION/TENANT, * for each. */
    @Test
    void criteriaOnATenantUnderAConfiguration(@TempDir Path dir) throws Exception {
        Experiment e = ExperimentFile.parse(EXPERIMENT + """
                criteria:
                  - mean(dynamic/tenant-1) <= 0.6 * mean(none/tenant-1)
                  - errorPct(*) < 5
                  - p90(none/tenant-1, home) > 15
                """, Path.of("mt.yaml"), TargetRecipeTest.TARGETS)
                .withRepetitions(2);
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        List<RunRecord> runs = writeRuns(d, e);
        List<Criterion.Result> results = RunResults.read(d, e, runs).evaluate();
        assertEquals(3, results.size());
        assertTrue(
                results.get(0).passed(),
                "dynamic answers twice as fast (5.5 ms against 11): "
                        + results.get(0).explanation());
        assertTrue(
                !results.get(1).passed() && results.get(1).explanation().contains("none/tenant-2"),
                "tenant-2 fails 10% of its samples under each configuration: "
                        + results.get(1).explanation());
        assertTrue(results.get(2).passed(), results.get(2).explanation());
    }
}
