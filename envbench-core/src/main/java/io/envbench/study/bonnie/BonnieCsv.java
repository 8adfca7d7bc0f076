package io.envbench.study.bonnie;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import net.jcip.annotations.Immutable;

/**
 * One bonnie++ result line (CSV, format version 1.98 as bonnie++ 1.98 to 2.x write it with {@code -q}): its figures.
 * A figure bonnie++ did not measure (skipped by {@code -f} or {@code -n 0}) is absent, and so is one it could not
 * time because the test ended too quickly ({@code +++++}, under half a second): bonnie++ gives no number for it, so
 * neither do we. Immutable.
 *
 * @param name     the machine name column ({@code -m})
 * @param fileSize the file size column, e.g. {@code 1G}
 * @param files    the file-test count column ({@code -n}, in 1024s), empty when skipped
 */
@Immutable
public record BonnieCsv(
        String name,
        String fileSize,
        String files,
        Map<BonnieFigure, Double> figures,
        Map<BonnieFigure, String> unmeasured) {
    /** bonnie++'s format version this reads (its first column). */
    public static final String FORMAT = "1.98";
    /** bonnie++'s mark for a test too quick to time. */
    public static final String TOO_QUICK = "+++++";

    public BonnieCsv {
        figures = Collections.unmodifiableMap(
                new EnumMap<>(figures.isEmpty() ? new EnumMap<>(BonnieFigure.class) : figures));
        unmeasured = Collections.unmodifiableMap(
                unmeasured.isEmpty() ? new EnumMap<>(BonnieFigure.class) : new EnumMap<>(unmeasured));
    }

    /** The figure, when bonnie++ measured it. */
    public OptionalDouble figure(BonnieFigure f) {
        Double v = figures.get(f);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /**
     * The result line of a program's output: the last line that starts with bonnie++'s format version. Other lines
     * (a wrapper's messages, the human-readable table when stderr is mixed in) are passed over.
     *
     * @throws IllegalArgumentException when there is no such line, or it is not bonnie++'s CSV
     */
    public static BonnieCsv find(String output) {
        String found = null;
        for (String line : output.split("\n")) {
            if (line.startsWith(FORMAT + ",")) {
                found = line.strip();
            }
        }
        if (found == null) {
            Optional<String> version = output.lines()
                    .filter(l -> l.matches("\\d+\\.\\d+[a-z]?,.*"))
                    .findFirst();
            throw new IllegalArgumentException(
                    version.isPresent()
                            ? "bonnie++ wrote CSV format "
                                    + version.get().substring(0, version.get().indexOf(','))
                                    + "; EnvBench reads format " + FORMAT
                                    + " (bonnie++ 1.98 to 2.x, as Debian bookworm's)"
                            : "no bonnie++ result line (CSV starting with " + FORMAT
                                    + ",) in the output; run bonnie++ with -q, and see its "
                                    + "messages in the output");
        }
        return parse(found);
    }

    /** Reads one CSV line of format 1.98. */
    public static BonnieCsv parse(String line) {
        String[] c = line.strip().split(",", -1);
        if (c.length < 38 || !c[0].equals(FORMAT)) {
            throw new IllegalArgumentException("not a bonnie++ " + FORMAT + " result line (" + c.length
                    + " columns, at least 38 expected): " + line);
        }
        Map<BonnieFigure, Double> figures = new EnumMap<>(BonnieFigure.class);
        Map<BonnieFigure, String> unmeasured = new EnumMap<>(BonnieFigure.class);
        for (BonnieFigure f : BonnieFigure.values()) {
            String v = c[f.column()].trim();
            if (v.isEmpty()) {
                continue; // not run (-f, -n 0)
            }
            if (v.startsWith("+")) {
                unmeasured.put(f, v);
                continue;
            }
            try {
                figures.put(f, Double.parseDouble(v));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "bonnie++ column " + f.column() + " (" + f.title() + ") is '" + v + "', not a number: " + line,
                        e);
            }
        }
        return new BonnieCsv(c[2], c[5], c[21], figures, unmeasured);
    }
}
