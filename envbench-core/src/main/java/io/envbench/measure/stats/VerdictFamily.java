package io.envbench.measure.stats;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import net.jcip.annotations.Immutable;

/**
 * All verdicts of one report, judged together: their p-values are adjusted by one {@link Correction}, each verdict
 * follows its adjusted p, and each "~" carries the smallest change that would have been significant in this family
 * ({@link DetectableChange}, with the others' p-values as they are). A report of many comparisons otherwise calls some
 * significant by chance alone (32 tests at p &lt; 0.05 expect 1.6 such). Immutable.
 */
@Immutable
public final class VerdictFamily {
    private record Key(String environment, String label, Figure figure) {}

    private final Correction correction;
    private final Map<Key, Verdict> verdicts;
    private final int size;

    private VerdictFamily(Correction correction, Map<Key, Verdict> verdicts, int size) {
        this.correction = correction;
        this.verdicts = verdicts;
        this.size = size;
    }

    /**
     * Judges the verdicts together; those without a test (baseline, too few runs, no runs) pass unchanged and do not
     * count in the family.
     *
     * @param raw each comparison alone ({@link Verdict#of}); one per environment, label and figure
     * @throws IllegalArgumentException when two verdicts are of one environment, label and figure, or differ in alpha
     */
    public static VerdictFamily of(Collection<Verdict> raw, Correction correction) {
        return of(raw, correction, Set.of());
    }

    /**
     * As {@link #of(Collection, Correction)}, where the comparisons of JMeter's figures of these environments (or
     * of any, when the baseline is one of them) get no verdict ({@link Verdict.Kind#GENERATOR_BOUND}) and stay out of the family.
     */
    public static VerdictFamily of(Collection<Verdict> raw, Correction correction, Set<String> generatorBound) {
        List<Verdict> judged = judge(
                raw.stream()
                        .map(v -> (v.tested() || v.kind() == Verdict.Kind.TOO_FEW_RUNS)
                                        && v.figure() != null // a figure of JMeter's samples, which JMeter paced
                                        && (generatorBound.contains(v.environment())
                                                || generatorBound.contains(v.baseline()))
                                ? v.generatorBound()
                                : v)
                        .toList(),
                correction);
        Map<Key, Verdict> byKey = new LinkedHashMap<>();
        for (Verdict v : judged) {
            Key key = new Key(v.environment(), v.label(), v.figure());
            if (byKey.put(key, v) != null) {
                throw new IllegalArgumentException("verdicts: two of " + key + "; give each comparison once");
            }
        }
        return new VerdictFamily(
                correction, byKey, (int) judged.stream().filter(Verdict::tested).count());
    }

    /**
     * The verdicts judged together, in the order given, where several may share an environment, label and figure (e.g.
     * one per tenant); {@link #of} for a family looked up by them.
     *
     * @throws IllegalArgumentException when the verdicts differ in alpha
     */
    public static List<Verdict> judge(Collection<Verdict> raw, Correction correction) {
        List<Verdict> list = List.copyOf(raw);
        if (list.stream().map(Verdict::alpha).distinct().count() > 1) {
            throw new IllegalArgumentException("verdicts: one family needs one alpha, these have "
                    + list.stream().map(Verdict::alpha).distinct().toList());
        }
        double[] p =
                list.stream().mapToDouble(v -> v.tested() ? v.p() : Double.NaN).toArray();
        double[] adjusted = correction.adjust(p);
        int size = (int) list.stream().filter(Verdict::tested).count();
        List<Verdict> judged = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Verdict v = list.get(i);
            double detectable = Double.NaN;
            if (v.tested()) {
                int at = i;
                double[] others = p.clone();
                detectable = Verdict.atResolution(
                        v.figure(),
                        v.baselineRuns(),
                        DetectableChange.pct(v.runs().values(), v.baselineRuns().values(), candidate -> {
                            others[at] = candidate;
                            return correction.adjust(others)[at] < v.alpha();
                        }));
            }
            judged.add(v.inFamily(adjusted[i], size, correction, detectable));
        }
        return judged;
    }

    public Correction correction() {
        return correction;
    }

    /** How many tests were adjusted together. */
    public int size() {
        return size;
    }

    /** Every verdict, in the order given. */
    public List<Verdict> verdicts() {
        return new ArrayList<>(verdicts.values());
    }

    /** The verdict of one environment, label and figure (figure null for a figure outside JMeter's, named by the label). */
    public Optional<Verdict> get(String environment, String label, Figure figure) {
        return Optional.ofNullable(verdicts.get(new Key(environment, label, figure)));
    }

    /** How many verdicts are significant after the adjustment. */
    public long significant() {
        return verdicts.values().stream().filter(Verdict::significant).count();
    }

    /**
     * What the family was and what it found, for the top of a report: e.g. "Verdicts: 12 tests of throughput and 90%
     * adjusted together (Benjamini-Hochberg (false discovery rate), alpha 0.05): 3 significant, 5 before adjustment.
     * ..." and how to read the detectable change beside a "~".
     *
     * @param of what was tested, e.g. "throughput and 90%"
     */
    public String note(String of) {
        double alpha = verdicts.values().stream()
                .mapToDouble(Verdict::alpha)
                .findFirst()
                .orElse(AcrossRuns.ALPHA);
        return "Verdicts: " + size + " test" + (size == 1 ? "" : "s") + " of " + of + " adjusted together ("
                + correction.description() + ", alpha " + alpha + "): " + significant() + " significant, "
                + significantUnadjusted() + " before adjustment. \"~\" gives the smallest change these runs could have"
                + " shown (MDE, the noise floor of that comparison: each side's runs centred on their median, this"
                + " side's scaled until the adjusted test would call it); a change below it may be there unseen.";
    }

    /** How many would have been significant on their raw p, alone. */
    public long significantUnadjusted() {
        return verdicts.values().stream()
                .filter(v -> v.tested() && v.p() < v.alpha())
                .count();
    }
}
