package io.envbench.study.experiment;

import static io.envbench.study.experiment.ExperimentFileTest.TARGETS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field of an experiment file at and beyond its type's limits, names that climb out of their folder, ranges
 * that would expand to millions of items, and names whose files would collide: each is refused within seconds with
 * the field path and a message that says the limit or the fix, never a clamp, a hang or a stack trace. The table in
 * src/test/README.md ("Bad input: what was tried") lists these rows.
 */
class BadInputTest {
    private static final Duration WITHIN = Duration.ofSeconds(5);

    /** {@link ExperimentFileErrorsTest#VALID} with {@code old} replaced. */
    private static String with(String old, String replacement) {
        assertTrue(ExperimentFileErrorsTest.VALID.contains(old), old);
        return ExperimentFileErrorsTest.VALID.replace(old, replacement);
    }

    private static String top(String line) {
        return ExperimentFileErrorsTest.VALID + line + "\n";
    }

    private static String http(String line) {
        return with("    durationSeconds: 5", "    durationSeconds: 5\n    " + line);
    }

    private static String docker(String line) {
        return with("    network: bridge", "    " + line);
    }

    private static final String MAX_INT = "2147483647";
    private static final String MAX_INT_PLUS_1 = "2147483648";
    private static final String MAX_LONG = "9223372036854775807";
    private static final String MAX_LONG_PLUS_1 = "9223372036854775808";

    static Stream<Arguments> refused() {
        return Stream.of(
                // whole numbers: repetitions
                Arguments.of(top("repetitions: 0"), "repetitions", "0 is below 1"),
                Arguments.of(top("repetitions: -1"), "repetitions", "-1 is below 1"),
                Arguments.of(top("repetitions: 1001"), "repetitions", "at most 1000"),
                Arguments.of(top("repetitions: " + MAX_INT), "repetitions", "at most 1000"),
                Arguments.of(top("repetitions: " + MAX_INT_PLUS_1), "repetitions", "'2147483648' is too large"),
                Arguments.of(top("repetitions: " + MAX_LONG_PLUS_1), "repetitions", "is too large"),
                Arguments.of(top("repetitions: 1e3"), "repetitions", "not a whole number"),
                Arguments.of(top("repetitions: .nan"), "repetitions", "not a whole number"),
                Arguments.of(top("repetitions: ' '"), "repetitions", "not a whole number"),
                Arguments.of(top("repetitions: '\u0663'"), "repetitions", "not a whole number"),
                Arguments.of(top("repetitions: 0x10"), "repetitions", "not a whole number"),
                Arguments.of(top("repetitions: automatic"), "repetitions", "not a whole number"),
                // repetitions: auto
                Arguments.of(
                        top("repetitions: auto\nmaxRepetitions: 3"), "maxRepetitions", "3 is below minRepetitions (6)"),
                Arguments.of(top("repetitions: auto\nminRepetitions: 4"), "minRepetitions", "4 is below 6"),
                Arguments.of(
                        top("repetitions: auto\nminRepetitions: 8\nmaxRepetitions: 7"),
                        "maxRepetitions",
                        "7 is below minRepetitions (8)"),
                Arguments.of(top("repetitions: auto\nmaxRepetitions: 1001"), "maxRepetitions", "at most 1000"),
                Arguments.of(top("repetitions: auto\nintervalWidth: 0%"), "intervalWidth", "is not above 0"),
                Arguments.of(top("repetitions: auto\nintervalWidth: wide"), "intervalWidth", "is not a percentage"),
                Arguments.of(top("repetitions: auto\nintervalWidth: NaN"), "intervalWidth", "is not a percentage"),
                Arguments.of(
                        top("repetitions: auto\nintervalWidth: Infinity%"), "intervalWidth", "is not a percentage"),
                Arguments.of(top("repetitions: 4\nmaxRepetitions: 10"), "maxRepetitions", "repetitions: auto only"),
                Arguments.of(top("intervalWidth: 5%"), "intervalWidth", "repetitions: auto only"),
                // port
                Arguments.of(top("port: 0"), "port", "use 1 to 65535"),
                Arguments.of(top("port: 65536"), "port", "use 1 to 65535"),
                Arguments.of(top("port: " + MAX_INT_PLUS_1), "port", "'2147483648' is too large"),
                Arguments.of(
                        top("port: 4294985376"), "port", "is too large"), // 2^32 + 18080: never wrapped round to 18080
                Arguments.of(top("seed: " + MAX_LONG_PLUS_1), "seed", "is too large"),
                // seconds
                Arguments.of(top("readyTimeoutSeconds: 0"), "readyTimeoutSeconds", "positive number of seconds"),
                Arguments.of(top("readyTimeoutSeconds: 86401"), "readyTimeoutSeconds", "above a day"),
                Arguments.of(top("readyTimeoutSeconds: " + MAX_LONG), "readyTimeoutSeconds", "is too large"),
                Arguments.of(top("readyTimeoutSeconds: .inf"), "readyTimeoutSeconds", "not a number"),
                Arguments.of(
                        with("durationSeconds: 5", "durationSeconds: 1e400"),
                        "load.http.durationSeconds",
                        "is too large"),
                Arguments.of(
                        with("durationSeconds: 5", "durationSeconds: NaN"),
                        "load.http.durationSeconds",
                        "not a number"),
                Arguments.of(
                        with("durationSeconds: 5", "durationSeconds: -0"),
                        "load.http.durationSeconds",
                        "is not a length"),
                Arguments.of(http("rampUpSeconds: 100"), "load.http.rampUpSeconds", "longer than durationSeconds"),
                Arguments.of(http("rampUpSeconds: " + MAX_INT), "load.http.rampUpSeconds", "is too large"),
                Arguments.of(http("warmupSeconds: 5"), "load.http.warmupSeconds", "leaves nothing"),
                Arguments.of(http("warmupSeconds: " + MAX_LONG_PLUS_1), "load.http.warmupSeconds", "is too large"),
                // threads and rate
                Arguments.of(http("threads: 0"), "load.http.threads", "0 is below 1"),
                Arguments.of(http("threads: 10001"), "load.http.threads", "at most 10000"),
                Arguments.of(http("threads: " + MAX_INT), "load.http.threads", "at most 10000"),
                Arguments.of(http("threads: " + MAX_INT_PLUS_1), "load.http.threads", "is too large"),
                Arguments.of(http("requestsPerSecond: -1"), "load.http.requestsPerSecond", "not a rate"),
                Arguments.of(http("requestsPerSecond: 1e300"), "load.http.requestsPerSecond", "at most 1000000"),
                Arguments.of(http("requestsPerSecond: .nan"), "load.http.requestsPerSecond", "not a number"),
                // container limits
                Arguments.of(
                        docker("cpuset: 0-" + MAX_INT),
                        "environments[1].cpuset",
                        "largest CPU number Linux supports (8191)"),
                Arguments.of(docker("cpuset: 0-99999999"), "environments[1].cpuset", "largest CPU number"),
                Arguments.of(docker("cpuset: '" + MAX_LONG + "'"), "environments[1].cpuset", "largest CPU number"),
                Arguments.of(docker("cpuset: '8000-8191'"), "environments[1].cpuset", "does not exist on this host"),
                Arguments.of(docker("cpuset: '-1'"), "environments[1].cpuset", "not a CPU list"),
                Arguments.of(docker("cpuset: '0,,1'"), "environments[1].cpuset", "not a CPU list"),
                Arguments.of(docker("cpuset: '\u0660'"), "environments[1].cpuset", "not a CPU list"),
                Arguments.of(docker("cpuset: ' '"), "environments[1].cpuset", "is empty"),
                Arguments.of(docker("cpus: 0"), "environments[1].cpus", "at least 0.01"),
                Arguments.of(
                        docker("cpus: 0.001"),
                        "environments[1].cpus",
                        "at least 0.01 (the smallest quota Docker sets)"),
                Arguments.of(docker("cpus: 1e300"), "environments[1].cpus", "at most"),
                Arguments.of(docker("cpus: .nan"), "environments[1].cpus", "not a number"),
                Arguments.of(docker("cpuShares: 1"), "environments[1].cpuShares", "use 2 to 262144"),
                Arguments.of(
                        docker("cpuShares: 4294967808"), "environments[1].cpuShares", "is too large"), // 2^32 + 512
                Arguments.of(
                        docker("seccomp: disabled"),
                        "environments[1].seccomp",
                        "use default (the engine's own profile) or unconfined"),
                Arguments.of(docker("memory: 5m"), "environments[1].memory", "minimum of 6m"),
                Arguments.of(docker("memory: 1025g"), "environments[1].memory", "at most 1024g"),
                Arguments.of(docker("memory: 99999999999999999999g"), "environments[1].memory", "is too large"),
                Arguments.of(docker("memory: " + MAX_LONG), "environments[1].memory", "is too large"),
                Arguments.of(docker("memory: -1"), "environments[1].memory", "not a size"),
                // names that climb out of their folder, hide, or run long
                Arguments.of(with("name: t\n", "name: '../x'\n"), "name", "must not name another folder"),
                Arguments.of(with("name: t\n", "name: '..'\n"), "name", "must not name another folder"),
                Arguments.of(with("name: t\n", "name: '/abs'\n"), "name", "must not name another folder"),
                Arguments.of(with("name: t\n", "name: 'a/b'\n"), "name", "must not name another folder"),
                Arguments.of(
                        with("name: t\n", "name: " + "x".repeat(65) + "\n"),
                        "name",
                        "65 characters long; give at most 64"),
                Arguments.of(
                        with("  - name: docker\n", "  - name: '.hidden'\n").replace("(docker)", "(.hidden)"),
                        "environments[1].name",
                        "must not name another folder"),
                Arguments.of(
                        with("  - name: docker\n", "  - name: 'é'\n").replace("(docker)", "(é)"),
                        "environments[1].name",
                        "letters, digits"),
                Arguments.of(
                        with("target: nginx-static", "target: '../nginx-static'"),
                        "target",
                        "not a recipe's folder name"),
                Arguments.of(
                        with("target: nginx-static", "target: 'nginx-static/../nginx-static'"),
                        "target",
                        "not a recipe's folder name"),
                Arguments.of(
                        with(
                                "target: nginx-static",
                                "target: '" + TARGETS.resolve("nginx-static").toAbsolutePath() + "'"),
                        "target",
                        "not a recipe's folder name"),
                Arguments.of(
                        docker("volume: { type: named, source: /etc, path: /data }"),
                        "environments[1].volume.source",
                        "must not name another folder"),
                // two environments whose files would share a name
                Arguments.of(
                        with("  - name: docker\n", "  - name: Bare\n").replace("(docker)", "(Bare)"),
                        "environments[1].name",
                        "'Bare' and 'bare' (environments[0]) differ only in case"),
                // bind sources that do not exist: Docker would make them, as root, empty
                Arguments.of(
                        docker("volume: { type: bind, source: /no/such/folder, path: /data }"),
                        "environments[1].volume.source",
                        "does not exist (looked for /no/such/folder); create the folder first"));
    }

    @ParameterizedTest(name = "[{index}] {1}: {2}")
    @MethodSource("refused")
    void isRefusedWithinSecondsNamingTheFieldAndTheLimit(String yaml, String fieldPath, String fragment) {
        ExperimentException e = assertTimeoutPreemptively(
                WITHIN,
                () -> assertThrows(
                        ExperimentException.class, () -> ExperimentFile.parse(yaml, Path.of("bad.yaml"), TARGETS)));
        assertEquals(fieldPath, e.fieldPath(), e.getMessage());
        assertTrue(e.getMessage().startsWith("bad.yaml line "), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), "no exception class names for the user: " + e.getMessage());
    }

    @Test
    void theLimitsThemselvesAreAccepted() throws Exception {
        String yaml = with(
                                "    durationSeconds: 5",
                                "    durationSeconds: 5\n    threads: 10000\n    requestsPerSecond: 1000000")
                        .replace("    network: bridge", "    cpuShares: 262144\n    memory: 1024g\n    cpuset: '0'")
                + "repetitions: 1000\nport: 65535\n"
                + "readyTimeoutSeconds: 86400\nseed: " + MAX_LONG + "\n";
        Experiment e = ExperimentFile.parse(yaml, Path.of("edge.yaml"), TARGETS);
        assertEquals(Repetitions.fixed(1000), e.repetitions());
        assertEquals(10000, e.load().http().orElseThrow().threads());
        assertEquals(65535, e.port());
        assertEquals(Long.MAX_VALUE, e.seed());
        assertEquals(
                1024L << 30,
                e.environments().get(1).definition().options().memoryBytes().getAsLong());
    }

    @Test
    void tooManyRunsInAllAreRefusedBeforeAnythingIsPlanned() {
        StringBuilder envs = new StringBuilder();
        for (int i = 0; i < 11; i++) {
            envs.append("  - { name: e").append(i).append(", placement: bare }\n");
        }
        String yaml = "name: t\ntarget: nginx-static\nenvironments:\n" + envs
                + "repetitions: 1000\nload:\n  http:\n    path: /\n" + "    durationSeconds: 5\n";
        ExperimentException e = assertThrows(
                ExperimentException.class, () -> ExperimentFile.parse(yaml, Path.of("many.yaml"), TARGETS));
        assertTrue(
                e.getMessage().contains("1000 repetitions of 11 environments make 11000 runs, above 10000"),
                e.getMessage());
    }

    @Test
    void aPlanWithASamplerLabelledTotalIsRefusedBeforeAnyRun(@TempDir Path dir) throws Exception {
        Path plan = dir.resolve("total.jmx");
        Files.writeString(
                plan,
                "<jmeterTestPlan><hashTree><HTTPSamplerProxy guiclass=\"HttpTestSampleGui\" "
                        + "testclass=\"HTTPSamplerProxy\" testname=\"TOTAL\" enabled=\"true\"/></hashTree></jmeterTestPlan>\n");
        String yaml = ExperimentFileErrorsTest.VALID.replace(
                "  http:\n    path: /page-4k.html\n    durationSeconds: 5\n",
                "  plan: total.jmx\n  durationSeconds: 5\n");
        ExperimentException e = assertThrows(
                ExperimentException.class, () -> ExperimentFile.parse(yaml, dir.resolve("t.yaml"), TARGETS));
        assertEquals("load.plan", e.fieldPath());
        assertTrue(e.getMessage().contains("labelled 'TOTAL', the name of the row EnvBench adds"), e.getMessage());
        assertTrue(e.getMessage().contains("rename that sampler"), e.getMessage());
    }

    @Test
    void anExistingBindSourceIsResolvedRelativeToTheFile(@TempDir Path dir) throws Exception {
        Files.createDirectory(dir.resolve("html"));
        Experiment e = ExperimentFile.parse(
                with("    network: bridge", "    volume: { type: bind, source: html, path: /data }"),
                dir.resolve("t.yaml"),
                TARGETS);
        assertEquals(
                dir.resolve("html").toString(),
                e.environments().get(1).definition().options().volume().source());
    }
}
