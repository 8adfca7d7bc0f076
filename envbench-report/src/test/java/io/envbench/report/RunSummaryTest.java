package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.envbench.measure.stats.Comparison;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finished run's {@code summary.json} gives the same report as its JTLs, without opening them; a summary that no
 * longer matches the JTLs (one changed) or cannot be read is not used.
 */
class RunSummaryTest {
    @TempDir
    Path dir;

    private static final Path TARGETS =
            Path.of("..", "targets").toAbsolutePath().normalize();
    private static final String EXPERIMENT = """
            name: summarised
            target: nginx-static
            environments:
              - { name: bare, placement: bare }
              - { name: docker, placement: docker }
            repetitions: 3
            load: { http: { path: /, threads: 4, warmupSeconds: 1, durationSeconds: 11 } }
            criteria:
              - errorPct(*) < 5
              - p90(docker) <= 3 * p90(bare)
            """;

    @Test
    void theSummaryGivesTheJtlsReportWithoutOpeningThem() throws Exception {
        RunDirectory d = runDirectory();
        RunConclusion fromJtls = RunConclusion.read(d, TARGETS);
        assertFalse(Files.exists(d.summary()), "viewing writes no summary");

        Experiment e = ExperimentFile.read(d.experiment(), TARGETS);
        RunConclusion.of(d, e, d.runs().read(), true, false); // as the runner concludes a run: writes the summary
        assertTrue(Files.isRegularFile(d.summary()), "the end of the runs writes " + d.summary());

        Map<Path, byte[]> jtls = unreadableJtls(d);
        RunConclusion fromSummary = RunConclusion.read(d, TARGETS);
        assertSameReport(fromJtls, fromSummary);
        assertFalse(fromSummary.results().errors().isEmpty(), "the failed samples by code came with it");

        // a JTL that grew after the summary was written: the summary is stale, the JTLs are read
        jtls.forEach((f, bytes) -> write(f, bytes));
        Path grown = jtls.keySet().iterator().next();
        Files.writeString(
                grown,
                (T0 + 500_000) + ",3,GET /,200,OK,t 1-1,text,true,,100,10,1,1,http://x,3,0,0,bare," + (T0 + 500_000)
                        + "\n",
                java.nio.file.StandardOpenOption.APPEND);
        RunConclusion afterGrowth = RunConclusion.read(d, TARGETS);
        String env = grown.getFileName().toString().startsWith("bare") ? "bare" : "docker";
        assertEquals(
                fromJtls.results().comparison().get(env, Comparison.TOTAL).count() + 1,
                afterGrowth.results().comparison().get(env, Comparison.TOTAL).count(),
                "the sample added to " + grown.getFileName() + " counts: the stale summary was not used");

        // a damaged summary: the JTLs are read, with the same report
        write(grown, jtls.get(grown));
        Files.writeString(d.summary(), "{\"version\": 1, \"jtlBytes\": ");
        assertSameReport(fromJtls, RunConclusion.read(d, TARGETS));
    }

    private static void assertSameReport(RunConclusion expected, RunConclusion actual) {
        ComparisonReport a = expected.report();
        ComparisonReport b = actual.report();
        assertEquals(a.markdown(), b.markdown(), "every table of the report");
        assertEquals(a.csv(), b.csv());
        assertRows(a.runRows(), b.runRows());
        assertRows(a.tableRows(), b.tableRows());
        assertRows(a.errorRows(), b.errorRows());
        assertRows(a.costRows(), b.costRows());
        assertRows(a.costLabelRows(), b.costLabelRows());
        assertRows(a.noiseRows(), b.noiseRows());
        assertEquals(expected.verdicts().toString(), actual.verdicts().toString(), "the criteria's verdicts");
        Comparison ca = expected.results().comparison();
        Comparison cb = actual.results().comparison();
        for (String env : ca.environments()) {
            assertEquals(timeline(ca, env), timeline(cb, env), "the timeline the charts draw, " + env);
            for (String run : ca.runs(env)) {
                for (String label : ca.rows()) {
                    assertEquals(
                            ca.get(env, run, label).percentileFromIntendedMs(99),
                            cb.get(env, run, label).percentileFromIntendedMs(99),
                            "the response times from the intended starts");
                }
            }
        }
        assertEquals(a.charts().keySet(), b.charts().keySet(), "the same charts");
    }

    private static void assertRows(List<String[]> expected, List<String[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "row " + i + ": " + Arrays.toString(expected.get(i)));
        }
    }

    private static Map<Long, String> timeline(Comparison c, String env) {
        Map<Long, String> m = new LinkedHashMap<>();
        c.timeline(env).forEach((second, v) -> m.put(second, Arrays.toString(v)));
        return m;
    }

    /**
     * Each run's JTL replaced by bytes of the same size that are no JTL (so the summary still names them rightly, and
     * any reading of them would fail); the real bytes returned.
     */
    static Map<Path, byte[]> unreadableJtls(RunDirectory d) throws Exception {
        Map<Path, byte[]> real = new LinkedHashMap<>();
        for (RunRecord r : d.runs().read()) {
            Path f = d.jtl(r.run());
            byte[] bytes = Files.readAllBytes(f);
            real.put(f, bytes);
            byte[] junk = new byte[bytes.length];
            Arrays.fill(junk, (byte) 'x');
            junk[junk.length - 1] = '\n'; // a whole last row: only reading the rows could tell
            Files.write(f, junk);
        }
        return real;
    }

    private static void write(Path f, byte[] bytes) {
        try {
            Files.write(f, bytes);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static final long T0 = 1_700_000_000_000L;

    /**
     * A finished run directory: two environments x 3 runs of 11 s, two labels, response times that vary, failures with
     * two codes, an intended start per sample, and metrics.
     */
    RunDirectory runDirectory() throws Exception {
        RunDirectory d = new RunDirectory(dir.resolve("summarised-20260101-000000"));
        d.create();
        Files.writeString(d.experiment(), EXPERIMENT);
        int round = 0;
        for (int rep = 1; rep <= 3; rep++) {
            round++;
            for (String env : List.of("bare", "docker")) {
                PlannedRun r = new PlannedRun(round, env, rep);
                long start = T0 + round * 100_000L + (env.equals("docker") ? 50_000 : 0);
                int rate = env.equals("bare") ? 300 : 200 + 10 * rep;
                StringBuilder jtl = new StringBuilder(
                        RunConclusionTest.JTL_HEADER.replace("envbench.env\n", "envbench.env,envbench.intended\n"));
                for (long i = 0; i < 11L * rate; i++) {
                    long t = start + i * 1000 / rate;
                    long elapsed = 1 + (i * 7 + rep) % (env.equals("bare") ? 5 : 13);
                    boolean failed = i % 97 == 3;
                    String code = i % 2 == 0 ? "500" : "502";
                    jtl.append(t)
                            .append(',')
                            .append(elapsed)
                            .append(i % 3 == 0 ? ",GET /big," : ",GET /,")
                            .append(failed ? code + ",Bad," : "200,OK,")
                            .append("t 1-1,text,")
                            .append(!failed)
                            .append(",,")
                            .append(100 + i % 11)
                            .append(",10,1,1,http://x,1,0,0,")
                            .append(env)
                            .append(',')
                            .append(t - i % 4)
                            .append('\n');
                }
                Files.writeString(d.jtl(r), jtl, StandardCharsets.UTF_8);
                StringBuilder m = new StringBuilder(
                        "timestamp,environment,host.cpu.pct,process.jmeter.cpu.pct," + "target.cpu.pct\n");
                for (long s = 0; s < 11; s++) {
                    m.append(start + s * 1000 + 500)
                            .append(',')
                            .append(env)
                            .append(",40,15,")
                            .append(env.equals("bare") ? 10 + rep : 20 + s % 3)
                            .append('\n');
                }
                Files.writeString(d.metrics(r), m);
                d.runs()
                        .append(new RunRecord(
                                r,
                                Instant.ofEpochMilli(start),
                                Instant.ofEpochMilli(start + 11_000),
                                RunRecord.OK,
                                11L * rate,
                                100,
                                Instant.ofEpochMilli(start),
                                new RunRecord.Cpus("", "", "")));
            }
        }
        return d;
    }
}
