package io.envbench.study.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.Figure;
import io.envbench.measure.stats.SampleStatistics;
import io.envbench.study.experiment.CapacitySpec;
import io.envbench.study.experiment.Objective;
import org.junit.jupiter.api.Test;

/** The search's steps against a made-up target whose knee is known: it keeps any rate up to 3,100/s. */
class CapacitySearchTest {
    private static final CapacitySpec SPEC = new CapacitySpec(
            List.of(new Objective(Figure.P90, "<=", 5)), 1000, 50_000, Duration.ofSeconds(10), Duration.ofSeconds(2));

    /** 10 s of samples at min(rate, knee) per second, 1 ms each (10 ms past the knee). */
    private static CapacitySearch.Step step(CapacitySpec spec, int index, double rate, double knee, double jmeterCpu) {
        SampleStatistics s = new SampleStatistics();
        double achieved = Math.min(rate, knee);
        long n = Math.round(achieved * 10);
        for (long i = 0; i < n; i++) {
            s.add(new Sample(
                    "bare", "GET /", 1_000_000 + Math.round(i * 10_000.0 / n), rate > knee ? 10 : 1, true, 1, 1));
        }
        return CapacitySearch.Step.judge(spec, index, rate, s, jmeterCpu, 1);
    }

    @Test
    void doublesThenBisectsToWithinTenPercent() throws Exception {
        List<Double> asked = new ArrayList<>();
        CapacitySearch.Result r = CapacitySearch.search(
                "bare", SPEC, (i, rate) -> step(SPEC, i, rate, 3100, 50), s -> asked.add(s.askedPerSec()));
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 3000.0, 3500.0, 3250.0), asked);
        assertEquals(3000, r.capacity());
        assertEquals(3250, r.firstFailed());
        assertFalse(r.generatorBound());
        assertTrue(r.summary().startsWith("bare: capacity 3000/s (held; 3250/s did not: rate: "), r.summary());
        assertTrue(r.summary().contains("p90 <= 5: 10.00"), "the objective broken, with its value: " + r.summary());
    }

    @Test
    void aSaturatedGeneratorAtTheKneeIsSaid() throws Exception {
        CapacitySearch.Result r = CapacitySearch.search(
                "bare", SPEC, (i, rate) -> step(SPEC, i, rate, 3100, rate > 3100 ? 99 : 60), s -> {});
        assertTrue(r.generatorBound());
        assertTrue(r.summary().endsWith("this is the load generator's capacity, not the target's"), r.summary());
    }

    @Test
    void aFirstStepThatFailsAndAMaximumThatHoldsAreSaid() throws Exception {
        CapacitySearch.Result low =
                CapacitySearch.search("bare", SPEC, (i, rate) -> step(SPEC, i, rate, 500, 50), s -> {});
        assertTrue(Double.isNaN(low.capacity()));
        assertEquals(1, low.steps().size());
        assertTrue(low.summary().contains("lower capacity.startRate"), low.summary());
        CapacitySpec upTo4k = new CapacitySpec(SPEC.slo(), 1000, 4000, SPEC.step(), SPEC.warmup());
        CapacitySearch.Result high =
                CapacitySearch.search("bare", upTo4k, (i, rate) -> step(upTo4k, i, rate, 1e9, 50), s -> {});
        assertEquals(3, high.steps().size(), "1000, 2000, 4000");
        assertEquals(4000, high.capacity());
        assertTrue(Double.isNaN(high.firstFailed()));
        assertTrue(high.summary().contains("at least 4000/s") && high.summary().contains("raise maxRate"));
    }

    /**
     * A knee that wanders: 2,400 and 2,600/s answer one way, then the other, as on a real machine. With three tries at
     * each end, the interval grows past them; the capacity is a rate that held every time.
     */
    @Test
    void triesEachEndAndWidensTheIntervalPastRatesThatAnsweredBothWays() throws Exception {
        CapacitySpec three = new CapacitySpec(SPEC.slo(), 1200, 50_000, SPEC.step(), SPEC.warmup(), 3);
        Map<Double, Integer> seen = new HashMap<>();
        List<Double> asked = new ArrayList<>();
        CapacitySearch.Result r = CapacitySearch.search(
                "bare",
                three,
                (i, rate) -> {
                    int n = seen.merge(rate, 1, Integer::sum);
                    // 2,400 holds the first time and then not; 2,600 fails the first time and then holds
                    double knee = rate < 2400
                            ? 1e9
                            : rate == 2400 ? (n == 1 ? 1e9 : 0) : rate == 2600 ? (n == 1 ? 0 : 1e9) : 0;
                    return step(three, i, rate, knee, 50);
                },
                s -> asked.add(s.askedPerSec()));
        // 1200, 2400, 4800, then 3600, 3000, 2700, 2550 (fails first: 2600 is not on the way), ...
        assertEquals(1200, asked.get(0));
        assertTrue(r.capacity() < 2400, "2,400 failed once: " + r.summary());
        assertEquals(3, r.tally(r.capacity()).tried(), r.summary());
        assertEquals(3, r.tally(r.capacity()).held(), r.summary());
        assertEquals(3, r.tally(r.firstFailed()).tried(), r.summary());
        assertEquals(0, r.tally(r.firstFailed()).held(), r.summary());
        assertTrue(r.between().stream().anyMatch(t -> t.rate() == 2400 && t.held() == 1), r.summary());
        assertTrue(r.summary().contains("The knee lies in"), r.summary());
        assertTrue(r.steps().size() <= 3 + CapacitySearch.MAX_BISECTIONS + CapacitySearch.MAX_CONFIRMATIONS);
    }

    @Test
    void aStableKneeIsConfirmedWithoutMoving() throws Exception {
        CapacitySpec three = new CapacitySpec(SPEC.slo(), 1000, 50_000, SPEC.step(), SPEC.warmup(), 3);
        CapacitySearch.Result r =
                CapacitySearch.search("bare", three, (i, rate) -> step(three, i, rate, 3100, 50), s -> {});
        assertEquals(3000, r.capacity());
        assertEquals(3250, r.firstFailed());
        assertEquals(6 + 4, r.steps().size(), "the bisection's six, then two more tries at each end");
        assertTrue(r.between().isEmpty());
        assertTrue(
                r.summary().startsWith("bare: capacity 3000/s (held in 3 tries; 3250/s did not in 3 tries: "),
                r.summary());
    }

    /**
     * A first failure that was a fluke: 2,000/s fails once, then holds, and so does every rate above it. The top end
     * climbs until the steps run out; the result names the capacity and says the knee was not sharp, and never claims
     * a rate failed every time that did not.
     */
    @Test
    void aFlukeFailureThatClimbsUntilTheStepsRunOutGivesAnHonestResult() throws Exception {
        CapacitySpec three = new CapacitySpec(SPEC.slo(), 1000, 50_000, SPEC.step(), SPEC.warmup(), 3);
        boolean[] flukeSeen = {false};
        CapacitySearch.Result r = CapacitySearch.search(
                "bare",
                three,
                (i, rate) -> {
                    boolean fluke = rate == 2000 && !flukeSeen[0];
                    flukeSeen[0] |= rate == 2000;
                    return step(three, i, rate, fluke ? 0 : 1e9, 50);
                },
                s -> {});
        assertTrue(Double.isNaN(r.firstFailed()), r.summary());
        assertEquals(3, r.tally(r.capacity()).tried(), r.summary());
        assertEquals(3, r.tally(r.capacity()).held(), r.summary());
        assertTrue(r.summary().contains("the knee is not sharp here"), r.summary());
        assertTrue(r.steps().size() <= 3 + CapacitySearch.MAX_BISECTIONS + CapacitySearch.MAX_CONFIRMATIONS);
    }
}
