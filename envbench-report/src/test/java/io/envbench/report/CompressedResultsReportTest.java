package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.results.ResultFiles;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of a run directory is the same, table for table, whether its JTLs are plain, compressed with every
 * column, compressed compact, or a mix: figures, verdicts, errors by code and message, CPU per request.
 */
class CompressedResultsReportTest {
    /** The assembled JMeter's columns: JMeter's defaults and EnvBench's sample variables. */
    static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"envbench.env\","
            + "\"envbench.engine\",\"envbench.intended\",\"envbench.host.cpu.pct\",\"envbench.target.cpu.pct\","
            + "\"envbench.target.mem.bytes\"\n";

    @TempDir
    Path dir;

    @Test
    void theReportIsTheSameForPlainFullCompactAndMixedResults() throws Exception {
        Experiment e = ExperimentFile.parse(
                """
                name: gz
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker, placement: docker }
                repetitions: 3
                load: { http: { path: /, threads: 4, requestsPerSecond: 500, warmupSeconds: 1, durationSeconds: 6 } }
                """,
                dir.resolve("gz.yaml"),
                Path.of("..", "targets").toAbsolutePath().normalize());
        RunDirectory d = new RunDirectory(dir.resolve("run"));
        d.create();
        List<PlannedRun> planned = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            planned.add(new PlannedRun(round, "bare", round));
            planned.add(new PlannedRun(round, "docker", round));
        }

        String plain = report(d, e, planned, null);
        assertTrue(plain.contains("502") && plain.contains("Bad, \"gateway\""), "the errors table is in it:\n" + plain);
        assertEquals(plain, report(d, e, planned, ResultColumns.FULL), "compressed, every column");
        assertEquals(plain, report(d, e, planned, ResultColumns.COMPACT), "compressed, the report's columns");

        // a mix: half the runs compressed (an older runner's folder, a resumed one)
        writeRuns(d, planned);
        for (int i = 0; i < planned.size(); i += 2) {
            ResultFiles.compress(d.jmeterJtl(planned.get(i)), ResultColumns.COMPACT);
        }
        assertTrue(d.jtl(planned.get(0)).toString().endsWith(".jtl.gz"));
        assertFalse(d.jtl(planned.get(1)).toString().endsWith(".gz"));
        assertEquals(plain, conclusion(d, e, planned), "plain and compressed runs in one folder");
    }

    /** The report's tables (console text, Markdown, CSV) of freshly written runs, compressed with {@code columns}. */
    private static String report(RunDirectory d, Experiment e, List<PlannedRun> planned, ResultColumns columns)
            throws Exception {
        writeRuns(d, planned);
        if (columns != null) {
            for (PlannedRun r : planned) {
                ResultFiles.compress(d.jmeterJtl(r), columns);
                assertTrue(Files.exists(ResultFiles.compressedOf(d.jmeterJtl(r))));
                assertFalse(Files.exists(d.jmeterJtl(r)));
            }
        }
        return conclusion(d, e, planned);
    }

    private static String conclusion(RunDirectory d, Experiment e, List<PlannedRun> planned) throws Exception {
        List<RunRecord> runs = new ArrayList<>();
        for (PlannedRun r : planned) {
            runs.add(new RunRecord(
                    r,
                    Instant.ofEpochMilli(start(r)),
                    Instant.ofEpochMilli(start(r) + 6_000),
                    RunRecord.OK,
                    6L * 500,
                    100,
                    Instant.ofEpochMilli(start(r)),
                    new RunRecord.Cpus("0", "1", "")));
        }
        ComparisonReport c = RunConclusion.of(d, e, runs, true, false).report();
        return c.text() + "\n----\n" + c.markdown() + "\n----\n" + c.csv();
    }

    private static long start(PlannedRun r) {
        return 1_700_000_000_000L + r.round() * 100_000L + (r.environment().equals("docker") ? 50_000 : 0);
    }

    /** Each run's JTL (errors with quoted messages among its samples) and metrics, every compressed form removed. */
    private static void writeRuns(RunDirectory d, List<PlannedRun> planned) throws IOException {
        for (PlannedRun r : planned) {
            ResultFiles.deleteAll(d.jmeterJtl(r));
            Random rnd = new Random(r.id().hashCode());
            boolean docker = r.environment().equals("docker");
            StringBuilder jtl = new StringBuilder(HEADER);
            for (int i = 0; i < 6 * 500; i++) {
                long t = start(r) + i * 2L;
                long elapsed = rnd.nextInt(docker ? 6 : 3);
                boolean ok = rnd.nextInt(docker ? 20 : 50) != 0;
                String code = ok ? "200" : rnd.nextBoolean() ? "502" : "500";
                String message = ok ? "OK" : code.equals("502") ? "\"Bad, \"\"gateway\"\"\"" : "Internal Server Error";
                jtl.append(t)
                        .append(',')
                        .append(elapsed)
                        .append(i % 4 == 1 ? ",GET /big," : ",GET /,")
                        .append(code)
                        .append(',')
                        .append(message)
                        .append(",HTTP load 1-")
                        .append(i % 4 + 1)
                        .append(",text,")
                        .append(ok)
                        .append(",,")
                        .append(i % 4 == 1 ? 40_000 : 4_336)
                        .append(",132,4,4,http://127.0.0.1:18080/,")
                        .append(elapsed)
                        .append(",0,0,")
                        .append(r.environment())
                        .append(",,")
                        .append(t - rnd.nextInt(2))
                        .append(",null,null,null\n");
            }
            Files.createDirectories(d.jmeterJtl(r).getParent());
            Files.writeString(d.jmeterJtl(r), jtl);
            StringBuilder m = new StringBuilder("timestamp,environment,host.cpu.pct,host.cpu0.pct,host.cpu1.pct,"
                    + "process.jmeter.cpu.pct,target.cpu.pct\n");
            for (long s = 0; s < 6; s++) {
                m.append(start(r) + s * 1000 + 500)
                        .append(',')
                        .append(r.environment())
                        .append(",30,20,40,20,")
                        .append(docker ? 35 : 12)
                        .append('\n');
            }
            Files.createDirectories(d.metrics(r).getParent());
            Files.writeString(d.metrics(r), m);
        }
    }
}
