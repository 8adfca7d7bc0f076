package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.Seccomp;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.definition.EnvironmentDefinition.Placement;
import io.envbench.base.recipe.TargetRecipeTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading good experiment files, defaults, and writing them back. Bad files: {@link ExperimentFileErrorsTest}. */
class ExperimentFileTest {
    static final Path TARGETS = TargetRecipeTest.TARGETS;
    static final Path STATIC_WEB = Path.of("..", "testplans", "experiments", "static-web.yaml")
            .toAbsolutePath()
            .normalize();

    @Test
    void theExampleFileReadsAsWritten() throws Exception {
        Experiment e = ExperimentFile.read(STATIC_WEB, TARGETS);
        assertEquals("static-web", e.name());
        assertEquals(List.of("bare", "docker-bridge", "docker-host", "docker-host-volume"), e.environmentNames());
        assertEquals(Placement.BARE, e.environment("bare").definition().placement());
        assertEquals(
                NetworkMode.BRIDGE,
                e.environment("docker-bridge").definition().options().networkMode());
        assertEquals(
                NetworkMode.HOST,
                e.environment("docker-host").definition().options().networkMode());
        var volume = e.environment("docker-host-volume").definition().options().volume();
        assertEquals(VolumeMount.Kind.BIND, volume.kind());
        assertEquals(TARGETS.resolve("nginx-static/site").toString(), volume.source(), "relative to the file's folder");
        assertEquals("/srv/site", volume.containerPath());
        e.environments()
                .forEach(env -> assertEquals("nginx-static", env.definition().target(), env.name()));
        assertEquals(18080, e.port());
        assertEquals(Duration.ofSeconds(60), e.readyTimeout());
        assertEquals(Repetitions.fixed(6), e.repetitions());
        assertEquals(RunOrder.INTERLEAVED, e.order());
        assertEquals("bare", e.baseline());
        HttpLoad http = e.load().http().orElseThrow();
        assertEquals(
                new HttpLoad("/page-4k.html", 8, 500, Duration.ZERO, Duration.ofSeconds(4), Duration.ofSeconds(14)),
                http);
        assertFalse(http.closedLoop());
        assertEquals(Duration.ofSeconds(4), e.load().warmup());
        assertEquals(Duration.ofSeconds(14), e.load().duration());
        assertEquals(3, e.criteria().size());
        assertEquals(Criterion.Operator.LESS, e.criteria().get(0).operator());
        assertEquals(STATIC_WEB, e.file());
    }

    @Test
    void theExampleRoundTripsThroughToYaml() throws Exception {
        Experiment first = ExperimentFile.read(STATIC_WEB, TARGETS);
        String yaml = first.toYaml();
        Experiment second = ExperimentFile.parse(yaml, STATIC_WEB, TARGETS);
        assertEquals(yaml, second.toYaml());
        assertSameExperiment(first, second);
    }

    @Test
    void everyOptionRoundTrips(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("plan.jmx"), "<jmeterTestPlan/>");
        Files.createDirectories(dir.resolve("site"));
        Path file = dir.resolve("all.yaml");
        String yaml = """
                name: all.options_1
                description: "every field: set"
                port: 18099
                readyTimeoutSeconds: 12.5
                environments:
                  - name: docker-limited
                    placement: docker
                    target: nginx-static
                    network: host
                    volume: { type: tmpfs, path: /var/cache/nginx }
                    cpuset: "0"
                    cpus: 0.5
                    cpuShares: 512
                    memory: 512m
                    seccomp: unconfined
                  - name: docker-bind
                    placement: docker
                    target: nginx-static
                    volume: { type: bind, source: site, path: /srv/site }
                  - name: docker-named
                    placement: docker
                    target: nginx-static
                    volume: { type: named, source: envbench-data, path: /data }
                repetitions: 2
                order: randomized
                seed: 42
                baseline: docker-bind
                load:
                  plan: plan.jmx
                  properties: { envbench.threads: 8, envbench.page: page-1k.html }
                  warmupSeconds: 2
                  durationSeconds: 30
                criteria:
                  - "p95(docker-limited, 'GET: page') < 1.5 * p95(docker-bind, 'GET: page')"
                  - throughput(docker-named) > 100
                """;
        Experiment first = ExperimentFile.parse(yaml, file, TARGETS);
        var limited = first.environment("docker-limited").definition();
        assertEquals(18099, limited.port());
        assertEquals(Duration.ofMillis(12_500), limited.readyTimeout());
        assertEquals(
                new VolumeMount(VolumeMount.Kind.TMPFS, "", "/var/cache/nginx"),
                limited.options().volume());
        assertEquals("0", limited.options().cpuset().orElseThrow().toString());
        assertEquals(0.5, limited.options().cpus().orElseThrow());
        assertEquals(512, limited.options().cpuShares().orElseThrow());
        assertEquals(512L << 20, limited.options().memoryBytes().orElseThrow());
        assertEquals(Seccomp.UNCONFINED, limited.options().seccomp());
        assertEquals(
                Seccomp.DEFAULT,
                first.environment("docker-bind").definition().options().seccomp(),
                "left out: the engine's own profile");
        // a bind source is relative to the file, like plan:
        assertEquals(
                dir.resolve("site").toString(),
                first.environment("docker-bind").definition().options().volume().source());
        assertEquals(Optional.of(dir.resolve("plan.jmx")), first.load().plan());
        assertEquals(
                Map.of("envbench.threads", "8", "envbench.page", "page-1k.html"),
                first.load().properties());
        assertEquals("GET: page", first.criteria().get(0).figure().label());

        String written = first.toYaml();
        assertTrue(written.contains("memory: 512m"), written);
        assertTrue(written.contains("seccomp: unconfined"), written);
        assertEquals(
                written.indexOf("seccomp:"),
                written.lastIndexOf("seccomp:"),
                "written only where the filter is off: " + written);
        assertTrue(written.contains("readyTimeoutSeconds: 12.5"), written);
        Experiment second = ExperimentFile.parse(written, file, TARGETS);
        assertEquals(written, second.toYaml());
        assertSameExperiment(first, second);
    }

    @Test
    void repetitionsAutoReadsItsBoundsAndIsWrittenBackTheSame() throws Exception {
        String yaml = """
                name: auto
                environments:
                  - { name: bare, placement: bare, target: nginx-static }
                repetitions: auto
                maxRepetitions: 12
                intervalWidth: 7.5%
                load:
                  http: { path: /, durationSeconds: 10 }
                """;
        Experiment e = ExperimentFile.parse(yaml, Path.of("auto.yaml"), TARGETS);
        assertEquals(new Repetitions(Repetitions.AUTO_MIN, 12, 7.5), e.repetitions());
        assertEquals(12, e.rounds().size(), "the most it may run is planned");
        String written = e.toYaml();
        assertTrue(
                written.contains("repetitions: auto\nminRepetitions: 6\nmaxRepetitions: 12\nintervalWidth: 7.5%\n"),
                written);
        assertEquals(
                e.repetitions(),
                ExperimentFile.parse(written, Path.of("auto.yaml"), TARGETS).repetitions());
        assertEquals(
                Repetitions.auto(),
                ExperimentFile.parse(
                                yaml.replace("maxRepetitions: 12\nintervalWidth: 7.5%\n", ""),
                                Path.of("a.yaml"),
                                TARGETS)
                        .repetitions(),
                "auto alone: 6 to 20 rounds, 10%");
    }

    @Test
    void defaultsAreFilledInAndWrittenOut() throws Exception {
        String yaml = """
                name: minimal
                environments:
                  - { name: docker, placement: docker, target: nginx-static }
                  - { name: bare, placement: bare, target: nginx-static }
                load:
                  http: { path: /, durationSeconds: 10 }
                """;
        Experiment e = ExperimentFile.parse(yaml, Path.of("minimal.yaml"), TARGETS);
        assertEquals("", e.description());
        assertEquals(Experiment.DEFAULT_PORT, e.port());
        assertEquals(Experiment.DEFAULT_READY_TIMEOUT, e.readyTimeout());
        assertEquals(Repetitions.fixed(Experiment.DEFAULT_REPETITIONS), e.repetitions());
        assertEquals(RunOrder.INTERLEAVED, e.order());
        assertEquals(1, e.seed());
        assertEquals("bare", e.baseline(), "the environment named bare is the baseline, wherever it stands");
        assertEquals(
                new HttpLoad("/", 1, 0, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(10)),
                e.load().http().orElseThrow());
        assertEquals(
                NetworkMode.BRIDGE,
                e.environment("docker").definition().options().networkMode());
        assertEquals(List.of(), e.criteria());
        String written = e.toYaml();
        for (String line : List.of(
                "port: 18080",
                "readyTimeoutSeconds: 60",
                "repetitions: 3",
                "order: interleaved",
                "seed: 1",
                "baseline: bare",
                "network: bridge",
                "type: none",
                "threads: 1",
                "requestsPerSecond: 0",
                "rampUpSeconds: 0",
                "warmupSeconds: 0",
                "durationSeconds: 10",
                "target: nginx-static")) {
            assertTrue(written.contains(line), line + " missing in\n" + written);
        }
    }

    @Test
    void withoutAnEnvironmentNamedBareTheFirstIsTheBaseline() throws Exception {
        String yaml = """
                name: no-bare
                target: nginx-static
                environments:
                  - { name: docker-host, placement: docker, network: host }
                  - { name: docker-bridge, placement: docker }
                load: { http: { path: /, durationSeconds: 10 } }
                """;
        assertEquals(
                "docker-host",
                ExperimentFile.parse(yaml, Path.of("x.yaml"), TARGETS).baseline());
    }

    @Test
    void aPlanGetsItsWarmupAndDurationAsProperties(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("p.jmx"), "<jmeterTestPlan/>");
        Files.createDirectories(dir.resolve("experiments"));
        String yaml = """
                name: plan
                target: nginx-static
                environments: [ { name: bare, placement: bare } ]
                load:
                  plan: ../p.jmx
                  properties: { envbench.threads: 4 }
                  warmupSeconds: 5
                  durationSeconds: 60
                """;
        Experiment e = ExperimentFile.parse(yaml, dir.resolve("experiments/plan.yaml"), TARGETS);
        assertEquals(dir.resolve("p.jmx"), e.load().plan().orElseThrow());
        assertFalse(e.load().http().isPresent());
        assertEquals(
                Map.of("envbench.threads", "4", LoadPlan.WARMUP_PROPERTY, "5", LoadPlan.DURATION_PROPERTY, "60"),
                e.load().jmeterProperties());
        assertEquals(
                Map.of("envbench.threads", "4", LoadPlan.WARMUP_PROPERTY, "1", LoadPlan.DURATION_PROPERTY, "3"),
                e.quick().load().jmeterProperties());
    }

    /** ContainerOptions has no equals: compare what the file says, field by field. */
    static void assertSameExperiment(Experiment a, Experiment b) {
        assertEquals(a.name(), b.name());
        assertEquals(a.description(), b.description());
        assertEquals(a.load(), b.load());
        assertEquals(a.repetitions(), b.repetitions());
        assertEquals(a.order(), b.order());
        assertEquals(a.seed(), b.seed());
        assertEquals(a.baseline(), b.baseline());
        assertEquals(a.criteria(), b.criteria());
        assertEquals(a.environmentNames(), b.environmentNames());
        for (int i = 0; i < a.environments().size(); i++) {
            var x = a.environments().get(i).definition();
            var y = b.environments().get(i).definition();
            assertEquals(x.target(), y.target());
            assertEquals(x.placement(), y.placement());
            assertEquals(x.port(), y.port());
            assertEquals(x.readyTimeout(), y.readyTimeout());
            assertEquals(x.options().toString(), y.options().toString());
            assertEquals(x.options().volume(), y.options().volume());
        }
    }
}
