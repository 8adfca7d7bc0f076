package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run directory written by hand, concluded: at a fixed rate of 1,000/s bare kept it and docker fell to 500/s (said
 * first); JMeter saturated its own CPU in docker's runs (no verdict on JMeter's figures there, CPU per request judged).
 */
class RunConclusionTest {
    @TempDir
    Path dir;

    static final String JTL_HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                    + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,envbench.env\n";
    static final long T0 = 1_700_000_000_000L;

    @Test
    void aRateNotKeptAndASaturatedGeneratorAreSaidFirst() throws Exception {
        Experiment e = ExperimentFile.parse(
                """
                name: concl
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker, placement: docker }
                repetitions: 2
                load: { http: { path: /, threads: 4, requestsPerSecond: 1000, warmupSeconds: 1, durationSeconds: 11 } }
                """,
                dir.resolve("concl.yaml"),
                Path.of("..", "targets").toAbsolutePath().normalize());
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        List<RunRecord> runs = twoRounds(d, 99);
        RunConclusion c = RunConclusion.of(d, e, runs, true, false);
        assertTrue(
                c.notices().stream()
                        .anyMatch(n -> n.startsWith("RATE NOT KEPT on docker: 500.")
                                && n.contains("/s achieved of 1000.0/s asked")),
                c.notices().toString());
        assertTrue(
                c.notices().stream().noneMatch(n -> n.contains("RATE NOT KEPT on bare")),
                c.notices().toString());
        assertTrue(
                c.notices().stream()
                        .anyMatch(n -> n.startsWith("NO VERDICT on docker: JMeter used 99% of the CPUs it had")),
                c.notices().toString());
        assertEquals(Set.of("docker"), c.generatorBound());
        String md = c.report().markdown();
        assertTrue(md.contains("generator-bound"), md);
        assertTrue(md.contains("## CPU per request"), md);
        assertTrue(md.contains("## CPU per request by label (apportioned)"), md);
        List<String[]> byLabel = c.report().costLabelRows();
        assertEquals(4, byLabel.size(), "two labels x two environments");
        String[] big = byLabel.stream()
                .filter(r -> r[0].equals("GET /big") && r[1].equals("bare"))
                .findFirst()
                .orElseThrow();
        String[] small = byLabel.stream()
                .filter(r -> r[0].equals("GET /") && r[1].equals("bare"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                4, Double.parseDouble(big[3]) / Double.parseDouble(small[3]), 0.05, "four times the response time");
    }

    /**
     * A plan's own rate ({@code envbench.rate.per.minute}, iterations) is checked on the request its timer paces
     * ({@code capacity.rateLabel}): here a quarter of the samples, 250/s of 1,000 for bare, 125/s for docker; without
     * the label the notice says the rate was not checked and how to have it checked.
     */
    @Test
    void aPlansOwnRateIsCheckedOnThePacedRequest() throws Exception {
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        List<RunRecord> runs = twoRounds(d, 40);
        List<String> paced = RunConclusion.of(d, planAtARate("capacity: { rateLabel: GET /big }"), runs, true, false)
                .notices();
        assertTrue(
                paced.stream()
                        .anyMatch(n -> n.startsWith("RATE NOT KEPT on docker: 125.")
                                && n.contains("/s achieved of 250.0/s asked (median of runs, of 'GET /big')")),
                paced.toString());
        assertTrue(paced.stream().noneMatch(n -> n.contains("RATE NOT KEPT on bare")), paced.toString());

        List<String> unnamed =
                RunConclusion.of(d, planAtARate(""), runs, true, false).notices();
        assertTrue(
                unnamed.stream()
                        .anyMatch(n -> n.startsWith("RATE NOT CHECKED: envbench.rate.per.minute asks 250.0")
                                && n.contains("capacity: rateLabel:")),
                unnamed.toString());
        assertTrue(unnamed.stream().noneMatch(n -> n.startsWith("RATE NOT KEPT")), unnamed.toString());

        List<String> misnamed = RunConclusion.of(
                        d, planAtARate("capacity: { rateLabel: GET /none }"), runs, true, false)
                .notices();
        assertTrue(
                misnamed.stream().anyMatch(n -> n.startsWith("RATE NOT KEPT on bare: no sample labelled 'GET /none'")),
                misnamed.toString());
    }

    private Experiment planAtARate(String capacity) throws Exception {
        Path plan = Path.of("..", "testplans", "seed-001-isucon.jmx")
                .toAbsolutePath()
                .normalize();
        return ExperimentFile.parse(
                """
                name: planned
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker, placement: docker }
                repetitions: 2
                load:
                  plan: %s
                  properties: { envbench.rate.per.minute: 15000 }
                  warmupSeconds: 1
                  durationSeconds: 11
                %s
                """.formatted(plan, capacity),
                dir.resolve("planned.yaml"),
                Path.of("..", "targets").toAbsolutePath().normalize());
    }

    /** Two rounds: bare at 1,000/s with JMeter at 40%, docker at 500/s with JMeter at {@code dockerJmeterCpu}%. */
    private static List<RunRecord> twoRounds(RunDirectory d, double dockerJmeterCpu) throws Exception {
        List<RunRecord> runs = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            runs.add(run(d, new PlannedRun(round, "bare", round), 1000, 40));
            runs.add(run(d, new PlannedRun(round, "docker", round), 500, dockerJmeterCpu));
        }
        return runs;
    }

    /** 11 s of samples at {@code rate}/s, and metrics with JMeter at {@code jmeterCpu}% on CPU 0 of its own. */
    static RunRecord run(RunDirectory d, PlannedRun r, int rate, double jmeterCpu) throws Exception {
        long start = T0 + r.round() * 100_000L + (r.environment().equals("docker") ? 50_000 : 0);
        StringBuilder jtl = new StringBuilder(JTL_HEADER);
        for (long i = 0; i < 11L * rate; i++) {
            jtl.append(start + i * 1000 / rate)
                    .append(
                            i % 4 == 1 // a second label, four times as slow (never the last sample)
                                    ? ",4,GET /big,200,OK,t 1-1,text,true,,100,10,1,1,http://x,4,0,0,"
                                    : ",1,GET /,200,OK,t 1-1,text,true,,100,10,1,1,http://x,1,0,0,")
                    .append(r.environment())
                    .append('\n');
        }
        Files.createDirectories(d.jtl(r).getParent());
        Files.writeString(d.jtl(r), jtl);
        StringBuilder m = new StringBuilder("timestamp,environment,host.cpu.pct,host.cpu0.pct,host.cpu1.pct,"
                + "process.jmeter.cpu.pct,target.cpu.pct\n");
        for (long s = 0; s < 11; s++) {
            m.append(start + s * 1000 + 500)
                    .append(',')
                    .append(r.environment())
                    .append(",60,")
                    .append(jmeterCpu)
                    .append(",20,")
                    .append(jmeterCpu)
                    .append(",20\n");
        }
        Files.createDirectories(d.metrics(r).getParent());
        Files.writeString(d.metrics(r), m);
        return new RunRecord(
                r,
                Instant.ofEpochMilli(start),
                Instant.ofEpochMilli(start + 11_000),
                RunRecord.OK,
                11L * rate,
                100,
                Instant.ofEpochMilli(start),
                new RunRecord.Cpus("0", "1", ""));
    }
}
