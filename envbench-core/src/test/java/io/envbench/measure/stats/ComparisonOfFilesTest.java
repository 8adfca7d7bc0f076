package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.results.ResultFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files read side by side give the comparison that reading them one after the other gives, and the same failures. */
class ComparisonOfFilesTest {
    @TempDir
    Path dir;

    private static final String HEADER = "timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n";

    /** A run's file: environments and labels in an order of their own, seconds that overlap another file's. */
    private Path file(String folder, String name, long seed, String... envs) throws IOException {
        Random r = new Random(seed);
        StringBuilder b = new StringBuilder(HEADER);
        long t = 1_700_000_000_000L + seed * 700;
        for (int i = 0; i < 2000; i++) {
            t += r.nextInt(9);
            b.append(t)
                    .append(',')
                    .append(r.nextInt(300))
                    .append(",label ")
                    .append((char) ('a' + (seed + r.nextInt(4)) % 6))
                    .append(',')
                    .append(r.nextInt(13) != 0)
                    .append(',')
                    .append(r.nextInt(5000))
                    .append(',')
                    .append(r.nextInt(200))
                    .append(',')
                    .append(envs[r.nextInt(envs.length)])
                    .append('\n');
        }
        Files.createDirectories(dir.resolve(folder));
        return Files.writeString(dir.resolve(folder).resolve(name), b);
    }

    /** Everything a report reads of a comparison, in its order. */
    private static String figures(Comparison c) {
        StringBuilder b = new StringBuilder();
        b.append(c.environments()).append(c.labels()).append(c.runFiles()).append('\n');
        Comparison.Summary s = c.summary();
        s.byRun()
                .forEach((env, runs) -> runs.forEach((run, byLabel) -> byLabel.forEach((label, st) -> b.append(env)
                        .append('/')
                        .append(run)
                        .append('/')
                        .append(label)
                        .append(Arrays.toString(st.elapsed().valuesMs()))
                        .append(Arrays.toString(st.elapsed().counts()))
                        .append(st.errors())
                        .append(',')
                        .append(st.firstStartMs())
                        .append(',')
                        .append(st.lastEndMs())
                        .append(',')
                        .append(st.receivedBytes())
                        .append(',')
                        .append(st.sentBytes())
                        .append('\n'))));
        b.append(s.origins()).append('\n');
        s.timeline()
                .forEach((env, seconds) -> seconds.forEach((second, v) ->
                        b.append(env).append(second).append(Arrays.toString(v)).append('\n')));
        for (String env : c.environments()) {
            for (String label : c.rows()) {
                SampleStatistics st = c.get(env, label);
                b.append(st == null ? "-" : st.meanMs() + " " + st.percentileMs(90) + " " + st.throughputPerSec())
                        .append('\n');
            }
        }
        return b.toString();
    }

    @Test
    void sideBySideReadsAsOneAfterTheOther() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(file("r1", "bare.jtl", 1, "bare", "docker"));
        files.add(file("r1", "docker.jtl", 2, "docker", "podman", "bare"));
        files.add(file("r2", "bare.jtl", 3, "podman")); // the same name: both runs named by their folders
        files.add(ResultFiles.compress(file("r3", "host.jtl", 4, "host", "bare"), ResultColumns.FULL));
        files.add(file("r4", "late.jtl", 5, "bare"));
        Comparison oneByOne = Comparison.of(files, label -> !label.endsWith("f"), 1);
        Comparison sideBySide = Comparison.of(files, label -> !label.endsWith("f"), 4);
        assertEquals(figures(oneByOne), figures(sideBySide));
        assertTrue(oneByOne.runs("bare").size() > 2, "several runs compared");
    }

    @Test
    void failuresAreThoseOfReadingOneAfterTheOther() throws IOException {
        Path ok = file("a", "ok.jtl", 1, "bare");
        Path damaged = Files.writeString(dir.resolve("damaged.jtl"), HEADER + "1,2,x,true,3,4,bare\n1,2\n");
        Path total = Files.writeString(dir.resolve("total.jtl"), HEADER + "1,2,TOTAL,true,3,4,bare\n");
        for (List<Path> files : List.of(List.of(ok, damaged, total), List.of(ok, total, damaged), List.of(ok, ok))) {
            String oneByOne = assertThrows(Exception.class, () -> Comparison.of(files, l -> true, 1))
                    .getMessage();
            String sideBySide = assertThrows(Exception.class, () -> Comparison.of(files, l -> true, 4))
                    .getMessage();
            assertEquals(oneByOne, sideBySide);
        }
    }
}
