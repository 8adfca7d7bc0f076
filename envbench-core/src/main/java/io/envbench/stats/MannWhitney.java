package io.envbench.stats;


import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Two-sided Mann-Whitney U test computed from two exact distributions (value -> count), so it streams
 * like the rest of the statistics: cost grows with distinct values, not samples. Ties get average
 * ranks and the tie-corrected normal approximation; without ties the result equals commons-math's
 * {@code MannWhitneyUTest}.
 */
public final class MannWhitney {
    /** @param u the U statistic of the first sample; z its standard score; p the two-sided p-value */
    public record Result(double u, double z, double p) {
        public boolean significant(double alpha) {
            return p < alpha;
        }
    }

    private MannWhitney() {
    }

    public static Result test(ElapsedDistribution a, ElapsedDistribution b) {
        long n1 = a.count();
        long n2 = b.count();
        if (n1 == 0 || n2 == 0) {
            return new Result(Double.NaN, Double.NaN, Double.NaN);
        }
        java.util.Map<Long, long[]> merged = new java.util.TreeMap<>();
        a.forEach((v, c) -> merged.computeIfAbsent(v, x -> new long[2])[0] += c);
        b.forEach((v, c) -> merged.computeIfAbsent(v, x -> new long[2])[1] += c);
        double rankSumA = 0;
        double tieTerm = 0;
        long below = 0;
        for (long[] c : merged.values()) {
            long t = c[0] + c[1];
            double avgRank = below + (t + 1) / 2.0;
            rankSumA += c[0] * avgRank;
            tieTerm += (double) t * t * t - t;
            below += t;
        }
        double n = n1 + n2;
        double u1 = rankSumA - n1 * (n1 + 1) / 2.0;
        double u2 = (double) n1 * n2 - u1;
        double variance = n1 * (double) n2 / 12.0 * ((n + 1) - tieTerm / (n * (n - 1)));
        if (variance <= 0) {
            return new Result(u1, 0, 1.0); // all values equal
        }
        // commons-math uses min(U1, U2); the two-sided p-value is the same for either
        double z = (Math.min(u1, u2) - n1 * (double) n2 / 2.0) / Math.sqrt(variance);
        double p = 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(-Math.abs(z));
        return new Result(u1, z, Math.min(1.0, p));
    }

}
