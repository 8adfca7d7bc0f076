package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The adjustments against the published worked examples they come with. */
class CorrectionTest {
    /**
     * Benjamini and Hochberg (1995), section 4: the 15 p-values of the myocardial infarction study; at 0.05 their
     * procedure rejects the four smallest, Holm's (as Bonferroni's) the three smallest.
     */
    private static final double[] BH_1995 = {
        0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590,
        1.000
    };

    @Test
    void benjaminiHochbergRejectsTheFourThePaperRejects() {
        double[] adjusted = Correction.BH.adjust(BH_1995);
        assertEquals(4, Arrays.stream(adjusted).filter(p -> p < 0.05).count());
        // R: p.adjust(p, "BH")
        double[] expected = {
            0.0015,
            0.0030,
            0.0095,
            0.035625,
            0.0603,
            0.0638571,
            0.0638571,
            0.0645,
            0.0765,
            0.486,
            0.5811818,
            0.71487500,
            0.7532308,
            0.8132143,
            1.0
        };
        assertArrayEquals(expected, adjusted, 1e-6);
    }

    @Test
    void holmRejectsTheThreeThePaperRejects() {
        assertEquals(
                3,
                Arrays.stream(Correction.HOLM.adjust(BH_1995))
                        .filter(p -> p < 0.05)
                        .count());
    }

    /** Holm (1979)'s procedure as usually worked: four tests, alpha 0.05; the smallest two are rejected. */
    @Test
    void holmStepsDownAndKeepsTheOrder() {
        double[] p = {0.01, 0.04, 0.03, 0.005};
        // sorted 0.005 x 4, 0.01 x 3, 0.03 x 2, 0.04 x 1 -> 0.02, 0.03, 0.06, max(0.06, 0.04)
        assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02}, Correction.HOLM.adjust(p), 1e-12);
    }

    @Test
    void anUntestedComparisonStaysOutOfTheFamily() {
        double[] adjusted = Correction.HOLM.adjust(new double[] {0.01, Double.NaN, 0.04});
        assertTrue(Double.isNaN(adjusted[1]));
        assertArrayEquals(new double[] {0.02, 0.04}, new double[] {adjusted[0], adjusted[2]}, 1e-12);
    }

    @Test
    void aFamilyOfOneIsItsRawP() {
        for (Correction c : Correction.values()) {
            assertArrayEquals(new double[] {0.0286}, c.adjust(new double[] {0.0286}), 1e-12, c.word());
        }
    }

    @Test
    void badWordsAndValuesAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Correction.byWord("bonf"));
        assertTrue(
                e.getMessage().contains("correction")
                        && e.getMessage().contains("'bonf'")
                        && e.getMessage().contains("holm"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Correction.BH.adjust(new double[] {1.5}));
    }
}
