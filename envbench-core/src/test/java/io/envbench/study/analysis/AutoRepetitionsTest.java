package io.envbench.study.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.Comparison;
import io.envbench.study.experiment.Repetitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * repetitions: auto's rule on made-up runs: it waits for its minimum and for an interval of the median to exist (6
 * runs), stops as soon as every judged figure's interval is narrow enough, goes on while one is wide, and stops at its
 * maximum saying the intervals were still wider; rounds.csv keeps where it stopped, and a line cut short is not read.
 */
class AutoRepetitionsTest {
    private static final Repetitions RULE = new Repetitions(6, 8, 10);
    private static final List<String> BOTH = List.of("bare", "docker");

    @TempDir
    Path dir;

    /** {@code runs} runs of 1000 samples over 10 s per environment; run k's latency is {@code ms[k % ms.length]}. */
    private static Comparison runs(int runs, long[] bareMs, long[] dockerMs) {
        Comparison c = new Comparison();
        for (int k = 0; k < runs; k++) {
            long start = 1_000_000L * k;
            for (int i = 0; i < 1000; i++) {
                c.add(
                        new Sample("bare", "GET /", start + 10L * i, bareMs[k % bareMs.length], true, 1000, 100),
                        "r" + k);
                c.add(
                        new Sample("docker", "GET /", start + 10L * i, dockerMs[k % dockerMs.length], true, 1000, 100),
                        "r" + k);
            }
        }
        return c;
    }

    @Test
    void waitsForItsMinimumThenStopsWhereEveryIntervalIsNarrow() {
        long[] steady = {20, 21};
        AutoRepetitions.Decision five = AutoRepetitions.judge(runs(5, steady, steady), BOTH, RULE, 5);
        assertFalse(five.stop(), five.why());
        assertTrue(five.why().contains("below minRepetitions 6"), five.why());
        AutoRepetitions.Decision six = AutoRepetitions.judge(runs(6, steady, steady), BOTH, RULE, 6);
        assertTrue(six.stop(), six.why());
        assertTrue(six.why().startsWith("every 95% interval within 10%"), six.why());
        // 20 and 21 ms alternate: the 90% line's interval, 20..21, is one millisecond, as fine as JMeter measures;
        // the throughput's is what remains
        assertTrue(six.widest().startsWith("throughput of GET / on "), six.widest());
    }

    @Test
    void goesOnWhileOneFigureIsWideAndStopsAtItsMaximum() {
        long[] steady = {20};
        long[] noisy = {10, 13};
        AutoRepetitions.Decision seven = AutoRepetitions.judge(runs(7, steady, noisy), BOTH, RULE, 7);
        assertFalse(seven.stop(), seven.why());
        assertEquals("p90 of GET / on docker", seven.widest());
        assertTrue(seven.why().contains("not every 95% interval within 10% yet"), seven.why());
        AutoRepetitions.Decision eight = AutoRepetitions.judge(runs(8, steady, noisy), BOTH, RULE, 8);
        assertTrue(eight.stop(), eight.why());
        assertTrue(
                eight.why().startsWith("maxRepetitions 8 reached before every 95% interval was within 10%"),
                eight.why());
    }

    @Test
    void anEnvironmentWithoutACompletedRunKeepsTheRunsGoing() {
        long[] steady = {20};
        AutoRepetitions.Decision d =
                AutoRepetitions.judge(runs(6, steady, steady), List.of("bare", "docker", "docker-host"), RULE, 6);
        assertFalse(d.stop(), d.why());
        assertTrue(d.why().contains("every figure of docker-host (no completed run) has no interval yet"), d.why());
    }

    @Test
    void theFileKeepsTheStopAndIgnoresALineCutShort() throws Exception {
        Path file = dir.resolve("rounds.csv");
        assertEquals(Optional.empty(), AutoRepetitions.stoppedAt(file), "no file: no stop");
        assertEquals(0, AutoRepetitions.lastRound(file));
        AutoRepetitions.append(file, new AutoRepetitions.Decision(6, "p90 of \"a, b\" on x", 12.5, false, "wide"));
        assertEquals(Optional.empty(), AutoRepetitions.stoppedAt(file));
        AutoRepetitions.append(
                file,
                new AutoRepetitions.Decision(7, "p90 of \"a, b\" on x", 8, true, "every 95% interval within 10%, ok"));
        assertEquals(
                Optional.of(new AutoRepetitions.Stop(7, "every 95% interval within 10%, ok")),
                AutoRepetitions.stoppedAt(file));
        assertEquals(7, AutoRepetitions.lastRound(file));
        String text = Files.readString(file);
        assertTrue(
                text.startsWith(AutoRepetitions.HEADER + "\n6,\"p90 of \"\"a, b\"\" on x\",12.50,continue: wide\n"),
                text);
        Files.writeString(file, text.substring(0, text.length() - 1 - 3)); // the disk filled mid-line
        assertEquals(Optional.empty(), AutoRepetitions.stoppedAt(file), "a stop cut short is no stop");
    }
}
