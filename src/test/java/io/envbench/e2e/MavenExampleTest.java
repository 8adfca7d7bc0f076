package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * testplans/maven: {@code mvn verify} of the example runs static-web.jmx ({@code bare}: nginx on the host, no Docker)
 * in the JMeter 5.6.3 the jmeter-maven-plugin assembles, with EnvBench from the release's Maven repository as a
 * jmeterExtension, and passes; the same with a page that does not exist fails the build on its criterion (no failed
 * sample). The pom is copied to a temporary folder, so nothing is written in the checkout.
 */
@BesideOthers("bare-metal nginx on port 18080, locked; no Docker")
@ResourceLock(SharedResources.PORT_18080)
class MavenExampleTest {
    private static final Path EXAMPLE = Jmeter.ROOT.resolve("testplans/maven/pom.xml");

    @TempDir
    Path dir;

    @Test
    void verifyRunsThePlanWithEnvBenchAndFailsOnItsCriterion() throws Exception {
        long started = System.nanoTime();
        Path passing = Files.createDirectories(dir.resolve("passing"));
        Files.copy(EXAMPLE, passing.resolve("pom.xml"));
        Result ok = mvn(passing);
        assertEquals(0, ok.exit(), ok.output());
        assertTrue(ok.output().contains("BUILD SUCCESS"), ok.output());
        Path csv = results(passing);
        List<Sample> samples = Jmeter.samples(csv);
        assertTrue(samples.size() > 100, "samples: " + samples.size());
        assertEquals(
                List.of("bare"),
                samples.stream().map(Sample::environment).distinct().toList());
        assertEquals(List.of(), samples.stream().filter(s -> !s.success()).toList(), "no errors");
        assertTrue(
                Jmeter.lines(csv).stream()
                        .anyMatch(l -> l.contains(",EnvBench start,") && l.contains("host process pid")),
                "EnvBench started nginx on the host");
        long passedAt = System.nanoTime();

        Path failing = Files.createDirectories(dir.resolve("failing"));
        Files.copy(EXAMPLE, failing.resolve("pom.xml"));
        Result broken = mvn(failing, "-Denvbench.page=no-such-page.html");
        assertNotEquals(0, broken.exit(), "a failed criterion fails the build: " + broken.output());
        assertTrue(broken.output().contains("Failing build because error percentage"), broken.output());
        List<Sample> failed = Jmeter.samples(results(failing));
        assertTrue(failed.stream().anyMatch(s -> !s.success()), "the 404s are failed samples");
        System.out.printf(
                "Maven example: passing build %.1f s, failing build %.1f s%n",
                (passedAt - started) / 1e9, (System.nanoTime() - passedAt) / 1e9);
    }

    private record Result(int exit, String output) {}

    /** The example's build, in {@code project}, against this checkout and its version. */
    private Result mvn(Path project, String... properties) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "mvn",
                "-B",
                "verify",
                "-Denvbench.root=" + Jmeter.ROOT,
                "-Denvbench.version=" + System.getProperty("envbench.version")));
        cmd.addAll(List.of(properties));
        Path output = project.resolve("mvn.txt");
        Process p = new ProcessBuilder(cmd)
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("mvn verify did not end in 300 s: " + Files.readString(output));
        }
        return new Result(p.exitValue(), Files.readString(output));
    }

    private static Path results(Path project) throws Exception {
        try (Stream<Path> files = Files.list(project.resolve("target/jmeter/results"))) {
            // the JTL, named by the plugin with the date; the Resource Monitor's envbench-metrics.csv is beside it
            List<Path> csv =
                    files.filter(f -> f.toString().endsWith("-static-web.csv")).toList();
            assertEquals(1, csv.size(), csv.toString());
            return csv.get(0);
        }
    }
}
