package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Studies 002 and 003 from the JMeter side: testplans/seed-002-postgres.jmx and seed-003-bonnie.jmx in the real assembled
 * JMeter, headless, one short round each, on the real engine. Every place starts, its EnvBench Command sampler runs the
 * study's program there (psql in four places, bonnie++ on five storages) and passes; psql's phases are sub-samples
 * with their wall-clock time; bonnie++'s figures are in the message; nothing labelled is left (checked after each test).
 */
@Isolated
class SeedCommandPlansTest extends DockerEndToEndTest {
    static final List<String> PSQL_PLACES = List.of("host", "same-container", "other-container", "published-port");
    static final List<String> BONNIE_PLACES = List.of("host", "cow", "bind", "volume", "tmpfs");

    @Test
    void studyTwosPlanTimesPsqlInFourPlaces() throws Exception {
        Path jtl = dir.resolve("seed-002.jtl");
        List<Sample> samples = Jmeter.run(
                Jmeter.ROOT.resolve("testplans/seed-002-postgres.jmx"),
                jtl,
                List.of(
                        "-Jenvbench.repetitions=1",
                        "-Jenvbench.inserts=50",
                        "-Jenvbench.selects=200",
                        "-Jenvbench.port=18432",
                        "-Jenvbench.metrics.file=" + dir.resolve("m.csv")));
        String lines = String.join("\n", Jmeter.lines(jtl));
        assertEquals(
                List.of(),
                samples.stream().filter(s -> !s.success()).map(Sample::label).toList(),
                lines);
        for (String place : PSQL_PLACES) {
            assertEquals(
                    1,
                    samples.stream()
                            .filter(s -> s.label().equals(place + ": start"))
                            .count(),
                    place + "\n" + lines);
            assertEquals(
                    1,
                    samples.stream()
                            .filter(s -> s.label().equals(place + ": psql"))
                            .count(),
                    place + "\n" + lines);
            for (String phase : List.of("insert", "select")) {
                List<Sample> sub = samples.stream()
                        .filter(s -> s.label().equals(place + ": psql " + phase))
                        .toList();
                assertEquals(1, sub.size(), place + " " + phase + "\n" + lines);
                assertTrue(sub.get(0).elapsedMs() > 0, "the phase's wall-clock time: " + sub.get(0));
            }
        }
        String psqlLines =
                Jmeter.lines(jtl).stream().filter(l -> l.contains(": psql,")).collect(Collectors.joining("\n"));
        assertTrue(
                psqlLines.contains("insert: 50 statements, elapsed ")
                        && psqlLines.contains("select: 200 statements, elapsed "),
                psqlLines);
        assertEquals(
                4,
                Jmeter.lines(jtl).stream().filter(l -> l.contains(": psql,0,")).count(),
                "exit code 0 as response code:\n" + psqlLines);
    }

    @Test
    void studyThreesPlanRunsBonnieOnFiveStorages() throws Exception {
        Path jtl = dir.resolve("seed-003.jtl");
        // a smaller file than the study's 2 GiB, still 32 times the 32 MiB memory limit, and large enough that a fast
        // virtual disk (about 400 MB/s here) takes seconds to write it: bonnie++ shows a write under about a second as
        // +++++
        List<Sample> samples = Jmeter.run(
                Jmeter.ROOT.resolve("testplans/seed-003-bonnie.jmx"),
                jtl,
                List.of(
                        "-Jenvbench.repetitions=1",
                        "-Jenvbench.bonnie.size.mb=1024",
                        "-Jenvbench.bonnie.ram.mb=32",
                        "-Jenvbench.bonnie.files=0",
                        "-Jenvbench.bonnie.memory=32m",
                        "-Jenvbench.bonnie.tmpfs.memory=1200m",
                        "-Jenvbench.metrics.file=" + dir.resolve("m.csv")));
        String lines = String.join("\n", Jmeter.lines(jtl));
        assertEquals(
                List.of(),
                samples.stream().filter(s -> !s.success()).map(Sample::label).toList(),
                lines);
        assertEquals(
                BONNIE_PLACES.stream().map(p -> p + ": bonnie++").toList(),
                samples.stream()
                        .map(Sample::label)
                        .filter(l -> l.endsWith(": bonnie++"))
                        .toList(),
                "interleaved, one each:\n" + lines);
        List<String> bonnie = Jmeter.lines(jtl).stream()
                .filter(l -> l.contains(": bonnie++,"))
                .toList();
        assertTrue(
                bonnie.stream().allMatch(l -> l.matches(".*bonnie\\+\\+ (1G|1024M), block write .*")),
                String.join("\n", bonnie));
        // measured on disk (tmpfs may be too quick for bonnie++ to time, '+++++')
        assertTrue(
                bonnie.stream()
                        .filter(l -> !l.contains(",tmpfs: "))
                        .allMatch(l -> l.matches(".*block write \\d+ K/s.*")),
                String.join("\n", bonnie));
        assertTrue(
                samples.stream().filter(s -> s.label().endsWith(": bonnie++")).allMatch(s -> s.elapsedMs() > 0), lines);
    }
}
