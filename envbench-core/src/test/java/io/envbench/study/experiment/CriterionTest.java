package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.stats.Figure;
import io.envbench.study.experiment.Criterion.FigureRef;
import io.envbench.study.experiment.Criterion.Fixed;
import io.envbench.study.experiment.Criterion.Operator;
import io.envbench.study.experiment.Criterion.Relative;
import org.junit.jupiter.api.Test;

class CriterionTest {
    static final Set<String> ENVS = new LinkedHashSet<>(List.of("bare", "docker-bridge", "docker-host"));

    /** Figures keyed "env|label|figure", environments in insertion order. */
    static final class Figures implements FigureSource {
        private final Map<String, Double> values = new LinkedHashMap<>();
        private final Set<String> environments = new LinkedHashSet<>();

        Figures put(String env, String figure, double value) {
            return put(env, Criterion.TOTAL, figure, value);
        }

        Figures put(String env, String label, String figure, double value) {
            values.put(env + "|" + label + "|" + figure, value);
            environments.add(env);
            return this;
        }

        @Override
        public OptionalDouble value(String environment, String label, String figure) {
            Double v = values.get(environment + "|" + label + "|" + figure);
            return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
        }

        @Override
        public Set<String> environments() {
            return environments;
        }
    }

    private static Criterion parse(String text) {
        return Criterion.parse(text, ENVS);
    }

    private static void refused(String text, String... fragments) {
        InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> parse(text));
        assertEquals("criterion", e.field());
        assertTrue(
                e.getMessage().contains("'" + text.strip() + "'"),
                "the message quotes the criterion: " + e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "expected '" + f + "' in: " + e.getMessage());
        }
    }

    // --- parsing ---

    /** A forgotten ) after an environment is said as one, not as an unknown environment named by the rest. */
    @Test
    void aForgottenCloseAfterTheEnvironmentIsNamedAsSuch() {
        refused(
                "p90(bare <= <= 3 )) ,,",
                "missing ) after p90(bare: found '<= <= 3' where ) should be",
                "p90(bare) <= 5");
        refused("p90(docker-bridge <= 3)", "missing ) after p90(docker-bridge: found '<= 3'");
        refused("p90(nosuch) <= 3", "'nosuch' is not an environment of this experiment");
    }

    @Test
    void parsesARelativeCriterion() {
        Criterion c = parse("p90(docker-bridge) <= 1.2 * p90(bare)");
        assertEquals(new FigureRef(Figure.P90, "docker-bridge", Criterion.TOTAL), c.figure());
        assertEquals(Operator.LESS_OR_EQUAL, c.operator());
        assertEquals(new Relative(1.2, new FigureRef(Figure.P90, "bare", Criterion.TOTAL)), c.threshold());
        assertEquals(Set.of("docker-bridge", "bare"), c.environments());
    }

    @Test
    void parsesAFixedThresholdAndEveryEnvironment() {
        Criterion c = parse("errorPct(*) < 1");
        assertTrue(c.figure().everyEnvironment());
        assertEquals(Operator.LESS, c.operator());
        assertEquals(new Fixed(1), c.threshold());
        assertEquals(Set.of(), c.environments());
    }

    @Test
    void parsesAFigureWithoutFactorAndLabels() {
        Criterion c = parse("  mean( docker-host , GET page )>mean(bare, 'a, (b)')  ");
        assertEquals("mean( docker-host , GET page )>mean(bare, 'a, (b)')", c.text());
        assertEquals(new FigureRef(Figure.MEAN, "docker-host", "GET page"), c.figure());
        assertEquals(Operator.GREATER, c.operator());
        assertEquals(new Relative(1, new FigureRef(Figure.MEAN, "bare", "a, (b)")), c.threshold());
        assertEquals("mean(bare, 'a, (b)')", ((Relative) c.threshold()).figure().toString());
    }

    @Test
    void parsesEveryFigureAndOperator() {
        for (Figure f : Figure.values()) {
            for (Operator op : Operator.values()) {
                Criterion c = parse(f.criterionName() + "(bare) " + op.symbol() + " 2.5e1");
                assertEquals(f, c.figure().figure());
                assertEquals(op, c.operator());
                assertEquals(new Fixed(25), c.threshold());
            }
        }
    }

    @Test
    void refusesWhatItCannotRead() {
        refused("", "is empty");
        refused("p91(bare) < 5", "'p91' is not a figure; use throughput, mean, median, p90, p95, p99 or errorPct");
        refused("P90(bare) < 5", "did you mean p90?");
        refused(
                "p90(dokcer) < 5",
                "'dokcer' is not an environment of this experiment; use bare, docker-bridge, docker-host, or * for each");
        refused("p90() < 5", "an environment is missing");
        refused("p90(bare) <= 1.2 * p90(*)", "* can only stand on the left");
        refused("p90(bare) == 5", "'==' is not a comparison; use <, <=, > or >=");
        refused("p90(bare) 5", "expected a comparison after p90(bare)");
        refused("p90(bare) <", "nothing after <");
        refused("p90(bare) < 5 ms", "unexpected 'ms' after 5");
        refused("p90(bare) < 1.2 x p90(docker-host)", "write FACTOR * FIGURE(ENVIRONMENT)");
        refused("p90(bare) < 0 * p90(docker-host)", "must be above 0");
        refused("p90(bare) < p90(docker-host) + 1", "unexpected '+ 1' at the end");
        refused("p90(bare) < fast", "'fast' is not a figure");
        refused("p90(bare) < 'x'", "is neither a number nor a figure");
        refused("p90(bare, ) < 5", "is empty");
        refused("p90(bare, 'x) < 5", "never closed");
        refused("p90(bare < 5", "missing ) after p90(bare < 5");
        refused("p90(docker-host) <= 1.1 * throughput(bare)", "compares p90 (ms) with throughput (/s)");
    }

    // --- evaluating ---

    @Test
    void theBriefsExampleFailsWithItsFigures() {
        Criterion.Result r = parse("p90(docker-bridge) <= 1.2 * p90(bare)")
                .evaluate(new Figures().put("bare", "p90", 1.0).put("docker-bridge", "p90", 1.3));
        assertFalse(r.passed());
        assertEquals("p90(docker-bridge) = 1.3 ms <= 1.2 x p90(bare) = 1.2 x 1.0 ms = 1.2 ms: FAILED", r.explanation());
    }

    @Test
    void aRelativeCriterionPassesWithinItsFactor() {
        Criterion.Result r = parse("throughput(docker-host) >= 0.9 * throughput(bare)")
                .evaluate(new Figures().put("bare", "throughput", 45253.6).put("docker-host", "throughput", 42448.8));
        assertTrue(r.passed(), r.explanation());
        assertEquals(
                "throughput(docker-host) = 42448.8/s >= 0.9 x throughput(bare) = 0.9 x 45253.6/s = 40728.2/s: PASSED",
                r.explanation());
    }

    @Test
    void theBoundaryBelongsToTheInclusiveOperatorsOnly() {
        Figures f = new Figures().put("bare", "median", 2).put("docker-host", "median", 2);
        assertTrue(parse("median(docker-host) <= median(bare)").evaluate(f).passed());
        assertTrue(parse("median(docker-host) >= median(bare)").evaluate(f).passed());
        assertFalse(parse("median(docker-host) < median(bare)").evaluate(f).passed());
        assertFalse(parse("median(docker-host) > 2").evaluate(f).passed());
        assertEquals(
                "median(docker-host) = 2.0 ms <= median(bare) = 2.0 ms: PASSED",
                parse("median(docker-host) <= median(bare)").evaluate(f).explanation());
    }

    @Test
    void everyEnvironmentPassesOnlyWhenEachDoes() {
        Criterion c = parse("errorPct(*) < 1");
        Criterion.Result pass =
                c.evaluate(new Figures().put("bare", "errorPct", 0).put("docker-bridge", "errorPct", 0.5));
        assertTrue(pass.passed(), pass.explanation());
        assertTrue(
                pass.explanation()
                        .startsWith(
                                "errorPct(*) < 1: PASSED for all 2 environments; errorPct(bare) = 0.0 % < 1 %: PASSED;"),
                pass.explanation());

        Criterion.Result fail = c.evaluate(new Figures()
                .put("bare", "errorPct", 0)
                .put("docker-bridge", "errorPct", 2.5)
                .put("docker-host", "errorPct", 0));
        assertFalse(fail.passed());
        assertTrue(fail.explanation().startsWith("errorPct(*) < 1: FAILED for docker-bridge;"), fail.explanation());
        assertTrue(fail.explanation().contains("errorPct(docker-bridge) = 2.5 % < 1 %: FAILED"), fail.explanation());
    }

    @Test
    void everyEnvironmentAgainstABaselineIncludesTheBaselineItself() {
        Criterion.Result r = parse("throughput(*) >= 0.5 * throughput(bare)")
                .evaluate(new Figures().put("bare", "throughput", 100).put("docker-host", "throughput", 40));
        assertFalse(r.passed());
        assertTrue(
                r.explanation()
                        .contains(
                                "throughput(bare) = 100.0/s >= 0.5 x throughput(bare) = 0.5 x 100.0/s = 50.0/s: PASSED"),
                r.explanation());
        assertTrue(r.explanation().contains("FAILED for docker-host"), r.explanation());
    }

    @Test
    void everyEnvironmentWithNoFiguresAtAllFails() {
        Criterion.Result r = parse("errorPct(*) < 1").evaluate(new Figures());
        assertFalse(r.passed());
        assertTrue(r.explanation().contains("no environment has figures"), r.explanation());
    }

    @Test
    void aMissingFigureFailsAndSaysWhichInsteadOfThrowing() {
        Figures f = new Figures().put("bare", "p90", 1.0);
        Criterion.Result left = parse("p90(docker-bridge) <= 1.2 * p90(bare)").evaluate(f);
        assertFalse(left.passed());
        assertTrue(left.explanation().startsWith("p90(docker-bridge) has no figure"), left.explanation());
        Criterion.Result right = parse("p90(bare) <= 1.2 * p90(docker-host)").evaluate(f);
        assertFalse(right.passed());
        assertTrue(right.explanation().startsWith("p90(docker-host) has no figure"), right.explanation());
        Criterion.Result nan = parse("p90(bare) < 5").evaluate(new Figures().put("bare", "p90", Double.NaN));
        assertFalse(nan.passed(), "NaN is no figure: " + nan.explanation());
    }

    @Test
    void aLabelAsksForThatLabelsFigures() {
        Figures f = new Figures().put("bare", "GET page", "p99", 3).put("bare", "p99", 30);
        assertTrue(parse("p99(bare, GET page) < 5").evaluate(f).passed());
        assertFalse(parse("p99(bare) < 5").evaluate(f).passed());
        assertEquals(
                "p99(bare, GET page) = 3.0 ms < 5 ms: PASSED",
                parse("p99(bare, GET page) < 5").evaluate(f).explanation());
    }

    @Test
    void theResultKeepsItsCriterion() {
        Criterion c = parse("p95(bare) < 5");
        assertEquals(c, c.evaluate(new Figures().put("bare", "p95", 1)).criterion());
        assertEquals("p95(bare) < 5", c.toString());
    }
}
