package io.envbench.e2e;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.results.ResultFiles;
import io.envbench.report.ComparisonReport;
import io.envbench.report.RunConclusion;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentFile;
import io.envbench.study.experiment.PlannedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Benchmark (run by {@code ./envbench bench}, not by the test suite): the bytes a run directory keeps per 1,000,000
 * samples of the demo, as JMeter wrote them (plain), gzip-compressed with every column ({@code results: full}) and
 * with the report's columns ({@code results: compact}), side by side in one run with the time the compression took
 * and the time the run directory's report takes on each (median of interleaved rounds), and whether the three reports
 * are the same. The samples are synthetic in the demo's shape: its columns and sample variables as the assembled
 * JMeter writes them, four environments, 8 threads at 1,000 requests/s, sub-millisecond to few-ms answers, the intended
 * start of the open model. Prints; asserts nothing.
 */
@Isolated
class CompactResultsBenchmark {
    static final int SAMPLES = Integer.getInteger("envbench.bench.samples", 1_000_000);
    static final int ROUNDS = Integer.getInteger("envbench.bench.rounds", 3);
    static final List<String> ENVIRONMENTS = List.of("bare", "docker-bridge", "docker-host", "docker-host-volume");
    static final int REPETITIONS = 2;
    static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"envbench.env\","
            + "\"envbench.engine\",\"envbench.intended\",\"envbench.host.cpu.pct\",\"envbench.target.cpu.pct\","
            + "\"envbench.target.mem.bytes\"";

    @TempDir
    Path dir;

    @Test
    void bytesKeptAndReportTimePlainFullCompact() throws Exception {
        int perRun = SAMPLES / (ENVIRONMENTS.size() * REPETITIONS);
        long seconds = Math.max(1, perRun / 1000);
        Experiment e = ExperimentFile.parse(
                """
                name: bench
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                  - { name: docker-bridge, placement: docker, network: bridge }
                  - { name: docker-host, placement: docker, network: host }
                  - { name: docker-host-volume, placement: docker, network: host }
                repetitions: %d
                load: { http: { path: /page-4k.html, threads: 8, requestsPerSecond: 1000, warmupSeconds: 4, durationSeconds: %d } }
                """.formatted(REPETITIONS, seconds), dir.resolve("bench.yaml"), Jmeter.ROOT.resolve("targets"));
        List<PlannedRun> planned = new ArrayList<>();
        for (int rep = 1; rep <= REPETITIONS; rep++) {
            for (String env : ENVIRONMENTS) {
                planned.add(new PlannedRun(rep, env, rep));
            }
        }
        Map<String, RunDirectory> dirs = new LinkedHashMap<>();
        Map<String, List<RunRecord>> records = new LinkedHashMap<>();
        Map<String, Long> compressMs = new LinkedHashMap<>();
        for (String form : List.of("plain", "full", "compact")) {
            RunDirectory d = new RunDirectory(dir.resolve(form));
            d.create();
            records.put(form, writeRuns(d, planned, perRun));
            long t0 = System.nanoTime();
            if (!form.equals("plain")) {
                for (PlannedRun r : planned) {
                    ResultFiles.compress(
                            d.jmeterJtl(r), form.equals("full") ? ResultColumns.FULL : ResultColumns.COMPACT);
                }
            }
            compressMs.put(form, (System.nanoTime() - t0) / 1_000_000);
            dirs.put(form, d);
        }

        Map<String, long[]> reportMs = new LinkedHashMap<>();
        Map<String, String> output = new LinkedHashMap<>();
        dirs.keySet().forEach(f -> reportMs.put(f, new long[ROUNDS + 1]));
        for (int round = 0; round <= ROUNDS; round++) { // round 0 warms the JIT, and is not counted
            for (String form : dirs.keySet()) {
                long t0 = System.nanoTime();
                ComparisonReport c = RunConclusion.of(dirs.get(form), e, records.get(form), true, false)
                        .report();
                String text = c.text() + c.markdown() + c.csv();
                reportMs.get(form)[round] = (System.nanoTime() - t0) / 1_000_000;
                // each form has its own folder, which the report names
                output.put(form, text.replace(dirs.get(form).root().toString(), "RUN"));
            }
        }

        long samples = (long) perRun * planned.size();
        double perMillion = 1e6 / samples;
        long plainBytes = bytes(dirs.get("plain"));
        System.out.printf(
                Locale.ROOT,
                "%n%,d samples of the demo's shape (%d runs of %,d), bytes kept in jtl/ per 1,000,000 samples:%n"
                        + "%-22s %14s %10s %16s %18s%n",
                samples,
                planned.size(),
                perRun,
                "",
                "MB / 1M",
                "vs plain",
                "compress s / 1M",
                "report s (median)");
        for (String form : dirs.keySet()) {
            long b = bytes(dirs.get(form));
            long[] ms = Arrays.copyOfRange(reportMs.get(form), 1, ROUNDS + 1);
            Arrays.sort(ms);
            System.out.printf(
                    Locale.ROOT,
                    "%-22s %14.1f %10.3f %16.2f %18.2f%n",
                    form.equals("plain") ? "plain (as before)" : form + " gz",
                    b * perMillion / 1e6,
                    (double) b / plainBytes,
                    compressMs.get(form) * perMillion / 1000,
                    ms[ms.length / 2] / 1000.0);
        }
        boolean same = output.get("plain").equals(output.get("full"))
                && output.get("plain").equals(output.get("compact"));
        if (!same) {
            for (String form : List.of("full", "compact")) {
                List<String> a = output.get("plain").lines().toList();
                List<String> b = output.get(form).lines().toList();
                for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                    if (!a.get(i).equals(b.get(i))) {
                        System.out.printf("first difference, plain / %s:%n%s%n%s%n", form, a.get(i), b.get(i));
                        break;
                    }
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "target: <= 15 MB per 1M samples; report output identical for plain, full gz and compact gz: %s%n",
                same ? "yes" : "NO");
    }

    private static long bytes(RunDirectory d) throws IOException {
        try (Stream<Path> files = Files.list(d.root().resolve("jtl"))) {
            long sum = 0;
            for (Path f : files.toList()) {
                sum += Files.size(f);
            }
            return sum;
        }
    }

    /**
     * Each run's JTL as the assembled JMeter writes the demo's load (8 threads, 1,000/s, the open model's intended
     * start, the per-sample metrics left null as the runner's plan leaves them), and its record.
     */
    private static List<RunRecord> writeRuns(RunDirectory d, List<PlannedRun> planned, int perRun) throws IOException {
        List<RunRecord> out = new ArrayList<>();
        for (PlannedRun r : planned) {
            Random rnd = new Random(r.id().hashCode());
            long start = 1_795_653_514_913L + planned.indexOf(r) * 60_000L;
            boolean bridge = r.environment().equals("docker-bridge");
            try (BufferedWriter w = Files.newBufferedWriter(d.jmeterJtl(r))) {
                w.write(HEADER);
                w.write('\n');
                for (int i = 0; i < perRun; i++) {
                    long intended = start + i; // 1,000/s
                    long t = intended + (rnd.nextInt(10) == 0 ? rnd.nextInt(3) : 0);
                    int elapsed = rnd.nextInt(bridge ? 4 : 2) + (rnd.nextInt(200) == 0 ? rnd.nextInt(40) : 0);
                    int connect = rnd.nextInt(500) == 0 ? 1 : 0;
                    w.write(t + "," + elapsed + ",GET /page-4k.html,200,OK,HTTP load 2-" + (i % 8 + 1)
                            + ",text,true,,4336,132,8,8,http://127.0.0.1:18080/page-4k.html," + elapsed + ",0,"
                            + connect + "," + r.environment() + ",," + intended + ",null,null,null\n");
                }
            }
            out.add(new RunRecord(
                    r,
                    Instant.ofEpochMilli(start),
                    Instant.ofEpochMilli(start + perRun),
                    RunRecord.OK,
                    perRun,
                    100,
                    Instant.ofEpochMilli(start),
                    new RunRecord.Cpus("0", "1", "")));
        }
        return out;
    }
}
