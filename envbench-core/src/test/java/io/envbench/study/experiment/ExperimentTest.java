package io.envbench.study.experiment;

import static io.envbench.study.experiment.ExperimentFileTest.STATIC_WEB;
import static io.envbench.study.experiment.ExperimentFileTest.TARGETS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class ExperimentTest {
    private static Experiment staticWeb() throws ExperimentException {
        return ExperimentFile.read(STATIC_WEB, TARGETS);
    }

    @Test
    void quickShortensTheLoadAndKeepsEverythingElse() throws Exception {
        Experiment full = staticWeb();
        Experiment quick = full.quick();
        HttpLoad h = quick.load().http().orElseThrow();
        assertEquals(Duration.ofSeconds(1), h.warmup());
        assertEquals(Duration.ofSeconds(3), h.duration());
        assertEquals(Duration.ZERO, h.rampUp());
        assertEquals(Duration.ofSeconds(1), quick.load().warmup());
        assertEquals(Duration.ofSeconds(3), quick.load().duration());
        HttpLoad original = full.load().http().orElseThrow();
        assertEquals(original.path(), h.path());
        assertEquals(original.threads(), h.threads());
        assertEquals(original.requestsPerSecond(), h.requestsPerSecond());
        assertEquals(full.repetitions(), quick.repetitions());
        assertEquals(full.criteria(), quick.criteria());
        assertEquals(full.environmentNames(), quick.environmentNames());
        assertTrue(quick.toYaml().contains("durationSeconds: 3"), quick.toYaml());
    }

    @Test
    void quickNeverLengthensAShortLoad() {
        LoadPlan shortLoad = LoadPlan.http(
                new HttpLoad("/", 2, 50, Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(2)));
        HttpLoad q = shortLoad.quick().http().orElseThrow();
        assertEquals(Duration.ofMillis(500), q.warmup());
        assertEquals(Duration.ofSeconds(2), q.duration());
        assertEquals(Duration.ZERO, q.rampUp());
        // a warm-up longer than the quick run is cut to 1 s, so some figures remain
        HttpLoad cut = LoadPlan.http(
                        new HttpLoad("/", 2, 0, Duration.ZERO, Duration.ofSeconds(2), Duration.ofMillis(2_500)))
                .quick()
                .http()
                .orElseThrow();
        assertEquals(Duration.ofSeconds(1), cut.warmup());
        assertTrue(cut.warmup().compareTo(cut.duration()) < 0);
    }

    @Test
    void withRepetitionsZeroFailsAsTheFileDoes() throws Exception {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> staticWeb().withRepetitions(0));
        assertEquals("repetitions", e.field());
        ExperimentException fromFile = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(
                        ExperimentFileErrorsTest.VALID + "repetitions: 0\n", Path.of("x.yaml"), TARGETS));
        assertTrue(fromFile.getMessage().endsWith(e.getMessage()), fromFile.getMessage() + " vs " + e.getMessage());
    }

    @Test
    void withRepetitionsChangesOnlyTheRepetitions() throws Exception {
        Experiment e = staticWeb();
        Experiment seven = e.withRepetitions(7);
        assertEquals(Repetitions.fixed(7), seven.repetitions());
        assertEquals(e.load(), seven.load());
        assertEquals(e.criteria(), seven.criteria());
        assertEquals(7, seven.rounds().size());
    }

    @Test
    void interleavedRoundsRunTheEnvironmentsInFileOrder() throws Exception {
        Experiment e = staticWeb();
        List<List<String>> rounds = e.rounds();
        assertEquals(e.repetitions().planned(), rounds.size());
        rounds.forEach(round -> assertEquals(e.environmentNames(), round));
        assertEquals(List.of("bare", "docker-bridge", "docker-host", "docker-host-volume"), e.environmentNames());
    }

    @Test
    void randomizedRoundsAreShuffledBlocksFixedByTheSeed() {
        List<String> envs = List.of("a", "b", "c", "d");
        List<List<String>> rounds = RunOrder.RANDOMIZED.rounds(envs, 20, 1);
        assertEquals(20, rounds.size());
        Set<List<String>> distinct = new HashSet<>();
        for (List<String> round : rounds) {
            assertEquals(Set.copyOf(envs), Set.copyOf(round), "every round runs each environment once");
            assertEquals(envs.size(), round.size());
            distinct.add(round);
        }
        assertTrue(distinct.size() > 1, "the order changes between rounds");
        assertEquals(rounds, RunOrder.RANDOMIZED.rounds(envs, 20, 1), "the same seed gives the same order");
        assertNotEquals(rounds, RunOrder.RANDOMIZED.rounds(envs, 20, 2));
    }

    @Test
    void anUnknownEnvironmentListsTheKnownOnes() throws Exception {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> staticWeb().environment("docker"));
        assertTrue(e.getMessage().contains("bare, docker-bridge, docker-host"), e.getMessage());
    }

    @Test
    void theLoadIsEitherAPlanOrHttp() {
        HttpLoad http = new HttpLoad("/", 1, 0, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(5));
        InvalidSettingException both = assertThrows(
                InvalidSettingException.class,
                () -> new LoadPlan(
                        Optional.of(Path.of("/p.jmx")),
                        Map.of(),
                        Optional.of(http),
                        Duration.ZERO,
                        Duration.ofSeconds(5)));
        assertEquals("load", both.field());
        InvalidSettingException mismatch = assertThrows(
                InvalidSettingException.class,
                () -> new LoadPlan(
                        Optional.empty(), Map.of(), Optional.of(http), Duration.ZERO, Duration.ofSeconds(9)));
        assertEquals("http", mismatch.field());
    }
}
