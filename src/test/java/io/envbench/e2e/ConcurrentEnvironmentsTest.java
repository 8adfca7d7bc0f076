package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.LongSummaryStatistics;

import io.envbench.launch.docker.DockerInventory;
import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** testplans/two-at-once.jmx in the real JMeter: two environments at once, each loaded and tagged by its own thread group. */
@Isolated
class ConcurrentEnvironmentsTest {
    @TempDir
    Path dir;

    @Test
    void twoEnvironmentsRunAtOnceAndEverySampleCarriesItsOwn() throws Exception {
        DockerInventory docker = Jmeter.docker();
        Path jtl = dir.resolve("two.jtl");
        List<Sample> samples =
                // each thread group's seconds count from its own start, its environment's start included: a container
                // can take most of 5 s on a loaded CI machine (4 samples were left there)
                Jmeter.run(Jmeter.ROOT.resolve("testplans/two-at-once.jmx"), jtl, List.of("-Jenvbench.two.seconds=12"));

        assertEquals(
                List.of(),
                samples.stream().filter(s -> !s.success()).map(Sample::label).toList(),
                "no errors");
        for (String env : List.of("first", "second")) {
            List<Sample> own = samples.stream()
                    .filter(s -> s.label().startsWith(env + ":") || s.label().equals("EnvBench start " + env))
                    .toList();
            assertTrue(own.size() > 20, env + ": " + own.size() + " samples");
            assertEquals(
                    List.of(env),
                    own.stream().map(Sample::environment).distinct().toList(),
                    "every sample of " + env + " tagged " + env);
        }
        // they ran at the same time: the load of each overlaps the other's
        LongSummaryStatistics a = samples.stream()
                .filter(s -> s.label().startsWith("first:"))
                .mapToLong(Sample::startMs)
                .summaryStatistics();
        LongSummaryStatistics b = samples.stream()
                .filter(s -> s.label().startsWith("second:"))
                .mapToLong(Sample::startMs)
                .summaryStatistics();
        // (how long depends on how fast each started on a busy host)
        long from = Math.max(a.getMin(), b.getMin());
        long to = Math.min(a.getMax(), b.getMax());
        long firstInBoth = samples.stream()
                .filter(s -> s.label().startsWith("first:") && s.startMs() >= from && s.startMs() <= to)
                .count();
        long secondInBoth = samples.stream()
                .filter(s -> s.label().startsWith("second:") && s.startMs() >= from && s.startMs() <= to)
                .count();
        assertTrue(
                to - from > 500 && firstInBoth > 10 && secondInBoth > 10,
                "overlap of first " + a + " and second " + b + ": " + (to - from) + " ms, samples of each in it: "
                        + firstInBoth + ", " + secondInBoth);
        assertEquals(List.of(), docker.containers(), "stopped at the end of the test");
    }
}
