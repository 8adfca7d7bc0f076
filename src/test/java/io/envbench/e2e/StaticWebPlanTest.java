package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** testplans/static-web.jmx in the real JMeter, headless, one environment per run, on the real Docker engine. */
@BesideOthers("its containers and port 18080 are locked; it asserts no rate or time")
@ResourceLock(SharedResources.PORT_18080)
class StaticWebPlanTest extends DockerEndToEndTest {
    @ParameterizedTest
    @ValueSource(strings = {"bare", "docker-bridge", "docker-host"})
    void eachEnvironmentRunsAndTagsItsSamples(String env) throws Exception {
        Path jtl = dir.resolve(env + ".jtl");
        List<Sample> samples = Jmeter.run(Jmeter.STATIC_WEB, jtl, Jmeter.shortRun(env));

        assertTrue(samples.size() > 100, "samples: " + samples.size());
        assertEquals(
                List.of(env),
                samples.stream().map(Sample::environment).distinct().toList(),
                "every sample tagged " + env);
        assertEquals(
                List.of(),
                samples.stream().filter(s -> !s.success()).map(Sample::label).toList(),
                "no errors");
        assertEquals(
                List.of("EnvBench start", "light: GET page", "saturation: GET page", "warm-up: GET page"),
                samples.stream().map(Sample::label).distinct().sorted().toList());
        assertTrue(
                samples.stream().filter(s -> s.label().contains("GET")).allMatch(s -> s.receivedBytes() > 4096),
                "the 4 KiB page and headers came back");

        String start = Jmeter.lines(jtl).stream()
                .filter(l -> l.contains(",EnvBench start,"))
                .collect(Collectors.joining());
        switch (env) {
            case "bare" -> assertTrue(start.contains("host process pid"), start);
            case "docker-bridge" ->
                assertTrue(start.contains("network=bridge published=127.0.0.1:18080->8080/tcp"), start);
            case "docker-host" -> assertTrue(start.contains("network=host published=none"), start);
            default -> throw new IllegalArgumentException(env);
        }
    }
}
