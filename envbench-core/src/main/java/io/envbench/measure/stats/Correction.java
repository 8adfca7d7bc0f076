package io.envbench.measure.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

import io.envbench.base.settings.InvalidSettingException;

/**
 * How the p-values of all verdicts of one report are adjusted together, so that among many comparisons the ones
 * called significant are not just the ones chance made small. Each adjusted p is compared with the report's alpha as
 * the raw one was; R's {@code p.adjust} gives the same values.
 */
public enum Correction {
    /**
     * Benjamini-Hochberg: controls the false discovery rate (the expected share of significant verdicts that are
     * wrong) at alpha. The default: it keeps the power of a handful of runs when most compared environments do differ.
     */
    BH("bh", "Benjamini-Hochberg (false discovery rate)"),
    /**
     * Holm's step-down: controls the family-wise error (the chance of any wrong significant verdict) at alpha, under
     * any dependence between the tests; stricter, so it needs more runs.
     */
    HOLM("holm", "Holm step-down (family-wise error)");

    private final String word;
    private final String description;

    Correction(String word, String description) {
        this.word = word;
        this.description = description;
    }

    /** How experiment files and the command line name it: {@code bh} or {@code holm}. */
    public String word() {
        return word;
    }

    /** For reports: the method and what it controls. */
    public String description() {
        return description;
    }

    /** @throws InvalidSettingException naming the field, the word and the ones allowed */
    public static Correction byWord(String word) {
        return Arrays.stream(values())
                .filter(c -> c.word.equals(word))
                .findFirst()
                .orElseThrow(() -> new InvalidSettingException(
                        "correction", "'" + word + "' is not a correction; use bh (Benjamini-Hochberg) or holm"));
    }

    /**
     * The adjusted p-values, index by index; a NaN (no test) stays NaN and does not count in the family.
     *
     * @throws IllegalArgumentException for a p-value outside [0, 1]
     */
    public double[] adjust(double[] p) {
        for (int i = 0; i < p.length; i++) {
            if (!Double.isNaN(p[i]) && (p[i] < 0 || p[i] > 1)) {
                throw new IllegalArgumentException("p[" + i + "]: " + p[i] + " is not a p-value in [0, 1]");
            }
        }
        int[] order = IntStream.range(0, p.length)
                .filter(i -> !Double.isNaN(p[i]))
                .boxed()
                .sorted(Comparator.comparingDouble(i -> p[i]))
                .mapToInt(Integer::intValue)
                .toArray();
        int m = order.length;
        double[] adjusted = new double[p.length];
        Arrays.fill(adjusted, Double.NaN);
        if (this == HOLM) {
            // the k-th smallest times (m - k + 1), never below the one before it
            double running = 0;
            for (int k = 0; k < m; k++) {
                running = Math.max(running, Math.min(1, (m - k) * p[order[k]]));
                adjusted[order[k]] = running;
            }
        } else {
            // the k-th smallest times m / k, never above the one after it
            double running = 1;
            for (int k = m - 1; k >= 0; k--) {
                running = Math.min(running, Math.min(1, p[order[k]] * m / (k + 1)));
                adjusted[order[k]] = running;
            }
        }
        return adjusted;
    }
}
