package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.envbench.measure.stats.Figure;
import org.junit.jupiter.api.Test;

/** {@code capacity:} as files write it, its defaults, and its mistakes named with their line. */
class CapacityFileTest {
    private static final String FILE = """
            name: cap
            target: nginx-static
            environments:
              - { name: bare, placement: bare }
            capacity:
              slo: ["p90 <= 200", "errorPct < 1"]
              startRate: 50
              stepSeconds: 8
            load: { http: { path: /, durationSeconds: 5 } }
            """;

    private static Experiment read(String yaml) throws Exception {
        return ExperimentFile.parse(yaml, Path.of("cap.yaml"), ExperimentFileTest.TARGETS);
    }

    @Test
    void readsWritesBackAndFillsDefaults() throws Exception {
        Experiment e = read(FILE);
        CapacitySpec c = e.capacity();
        assertEquals(List.of(new Objective(Figure.P90, "<=", 200), new Objective(Figure.ERROR_PCT, "<", 1)), c.slo());
        assertEquals(50, c.startRate());
        assertEquals(CapacitySpec.DEFAULT.maxRate(), c.maxRate());
        assertEquals(Duration.ofSeconds(8), c.step());
        assertEquals(CapacitySpec.DEFAULT.warmup(), c.warmup());
        assertEquals(3, c.tries(), "each end of the interval tried three times unless the file says otherwise");
        assertEquals(
                1,
                read(FILE.replace("stepSeconds: 8", "stepSeconds: 8\n  tries: 1"))
                        .capacity()
                        .tries());
        Experiment again = read(e.toYaml());
        assertEquals(c, again.capacity());
        assertEquals(
                CapacitySpec.DEFAULT,
                read(FILE.replaceAll("(?s)capacity:.*stepSeconds: 8\n", "")).capacity());
    }

    @Test
    void aRateCanBeAShareOfACapacityAndIsWrittenBackResolved() throws Exception {
        Experiment e = read(
                FILE.replace("durationSeconds: 5", "durationSeconds: 5, requestsPerSecond: 80% of capacity(bare)"));
        HttpLoad h = e.load().http().orElseThrow();
        assertTrue(h.awaitsCapacity());
        assertEquals(new HttpLoad.RateShare(80, "bare"), h.share().orElseThrow());
        assertTrue(e.toYaml().contains("requestsPerSecond: 80% of capacity(bare)"), e.toYaml());
        Experiment resolved = e.withRate(2400);
        String written = resolved.toYaml();
        assertTrue(written.contains("requestsPerSecond: 2400"), written);
        assertTrue(
                written.contains(
                        "# load.http.requestsPerSecond 2400 is 80% of capacity(bare), searched before the runs"),
                written);
        Experiment again = read(written);
        assertEquals(2400, again.load().http().orElseThrow().requestsPerSecond());
        assertTrue(again.load().http().orElseThrow().share().isEmpty(), "a resumed run keeps the rate it ran at");
    }

    @Test
    void aShareOfAnUnknownCapacityOrAWrongShareIsNamedAtItsLine() {
        ExperimentException nosuch = assertThrows(
                ExperimentException.class,
                () -> read(FILE.replace(
                        "durationSeconds: 5", "durationSeconds: 5, requestsPerSecond: 80% of capacity(nosuch)")));
        assertEquals(9, nosuch.line(), nosuch.getMessage());
        assertTrue(
                nosuch.getMessage().contains("names no environment")
                        && nosuch.getMessage().contains("bare"),
                nosuch.getMessage());
        ExperimentException form = assertThrows(
                ExperimentException.class,
                () -> read(
                        FILE.replace("durationSeconds: 5", "durationSeconds: 5, requestsPerSecond: most of capacity")));
        assertTrue(form.getMessage().contains("80% of capacity(bare)"), form.getMessage());
        ExperimentException over = assertThrows(
                ExperimentException.class,
                () -> read(FILE.replace(
                        "durationSeconds: 5", "durationSeconds: 5, requestsPerSecond: 150% of capacity(bare)")));
        assertTrue(over.getMessage().contains("from 1 to 100"), over.getMessage());
    }

    @Test
    void mistakesAreNamedAtTheirLine() {
        ExperimentException op =
                assertThrows(ExperimentException.class, () -> read(FILE.replace("p90 <= 200", "p90 =< 200")));
        assertEquals(6, op.line(), op.getMessage());
        assertTrue(op.getMessage().contains("FIGURE OP NUMBER"), op.getMessage());
        ExperimentException figure =
                assertThrows(ExperimentException.class, () -> read(FILE.replace("p90 <= 200", "p42 <= 200")));
        assertTrue(figure.getMessage().contains("'p42'") && figure.getMessage().contains("p90"), figure.getMessage());
        ExperimentException throughput =
                assertThrows(ExperimentException.class, () -> read(FILE.replace("p90 <= 200", "throughput >= 100")));
        assertTrue(throughput.getMessage().contains("throughput is what the search raises"), throughput.getMessage());
        ExperimentException rate =
                assertThrows(ExperimentException.class, () -> read(FILE.replace("startRate: 50", "startRate: 0")));
        assertTrue(rate.getMessage().contains("startRate"), rate.getMessage());
        ExperimentException step =
                assertThrows(ExperimentException.class, () -> read(FILE.replace("stepSeconds: 8", "stepSeconds: 1")));
        assertTrue(step.getMessage().contains("stepSeconds"), step.getMessage());
        ExperimentException unknown =
                assertThrows(ExperimentException.class, () -> read(FILE.replace("startRate: 50", "startrate: 50")));
        assertEquals(7, unknown.line(), unknown.getMessage());
        for (String tries : List.of("0", "11", "two")) {
            ExperimentException t = assertThrows(
                    ExperimentException.class,
                    () -> read(FILE.replace("stepSeconds: 8", "stepSeconds: 8\n  tries: " + tries)));
            assertTrue(t.getMessage().contains("tries"), t.getMessage());
            assertTrue(t.getMessage().contains("e.g. 3"), "names the fix: " + t.getMessage());
        }
        for (String searches : List.of("0", "6", "many")) {
            ExperimentException t = assertThrows(
                    ExperimentException.class,
                    () -> read(FILE.replace("stepSeconds: 8", "stepSeconds: 8\n  searches: " + searches)));
            assertTrue(t.getMessage().contains("searches"), t.getMessage());
            assertEquals(9, t.line(), t.getMessage());
            assertTrue(t.getMessage().contains("e.g. 3"), "names the fix: " + t.getMessage());
        }
    }

    @Test
    void repeatedSearchesAreReadAndWrittenBack() throws Exception {
        assertEquals(1, read(FILE).capacity().searches(), "one search unless the file says otherwise");
        Experiment e = read(FILE.replace("stepSeconds: 8", "stepSeconds: 8\n  searches: 3"));
        assertEquals(3, e.capacity().searches());
        assertTrue(e.toYaml().contains("searches: 3"), e.toYaml());
        assertEquals(e.capacity(), read(e.toYaml()).capacity());
        assertTrue(!read(FILE).toYaml().contains("searches"), "the default is not written");
    }

    @Test
    void aRateLabelIsReadAndWrittenBack() throws Exception {
        assertTrue(!read(FILE).capacity().ratedByLabel(), "every sample counts unless the file says otherwise");
        Experiment e = read(FILE.replace("stepSeconds: 8", "stepSeconds: 8\n  rateLabel: 1 GET /login"));
        assertEquals("1 GET /login", e.capacity().rateLabel());
        assertTrue(e.toYaml().contains("rateLabel: 1 GET /login"), e.toYaml());
        assertEquals(e.capacity(), read(e.toYaml()).capacity());
    }
    /**
     * The fixed rate a load asks, per second: the built-in load's requests, a plan's {@code envbench.rate.per.minute}
     * (iterations a minute); none for a closed loop, a rate of 0, or a JMeter expression only the plan evaluates.
     */
    @Test
    void theFixedRateOfTheBuiltInLoadAndOfAPlan() throws Exception {
        assertTrue(read(FILE).load().fixedRatePerSecond().isEmpty(), "a closed loop");
        assertEquals(
                250.0,
                read(FILE.replace("path: /,", "path: /, requestsPerSecond: 250,"))
                        .load()
                        .fixedRatePerSecond()
                        .getAsDouble());
        Path jmx = Path.of("..", "testplans", "seed-001-isucon.jmx")
                .toAbsolutePath()
                .normalize();
        for (var c : List.of(
                List.of("4800", "80.0"), List.of("0", ""), List.of("${__P(rate,60)}", ""), List.of("-60", ""))) {
            LoadPlan plan = read(FILE.replace(
                            "load: { http: { path: /, durationSeconds: 5 } }",
                            "load: { plan: " + jmx + ", properties: { " + LoadPlan.RATE_PROPERTY + ": \"" + c.get(0)
                                    + "\" }, durationSeconds: 5 }"))
                    .load();
            assertEquals(
                    c.get(1),
                    plan.fixedRatePerSecond().isPresent()
                            ? Double.toString(plan.fixedRatePerSecond().getAsDouble())
                            : "",
                    c.get(0));
        }
    }
}
