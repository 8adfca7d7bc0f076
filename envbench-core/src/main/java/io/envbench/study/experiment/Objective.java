package io.envbench.study.experiment;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.stats.Figure;
import net.jcip.annotations.Immutable;

/**
 * One service-level objective of a capacity search, over one step's figures: {@code p90 <= 200} (ms),
 * {@code errorPct < 1} (%). Immutable.
 *
 * @param figure  a latency or error figure (not throughput: the search sets the rate)
 * @param op      {@code <}, {@code <=}, {@code >} or {@code >=}
 * @param bound   in the figure's unit
 */
@Immutable
public record Objective(Figure figure, String op, double bound) {
    private static final Pattern FORM = Pattern.compile("\\s*(\\w+)\\s*(<=|>=|<|>)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*");

    public Objective {
        if (figure == Figure.THROUGHPUT) {
            throw new InvalidSettingException(
                    "slo",
                    "throughput is what the search raises; the achieved rate is checked by itself (within 2% of the rate"
                            + " asked); write a latency or error objective, e.g. p90 <= 200");
        }
    }

    /**
     * Reads {@code FIGURE OP NUMBER}.
     *
     * @throws InvalidSettingException naming {@code field}, the text and what is allowed
     */
    public static Objective parse(String field, String text) {
        Matcher m = FORM.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new InvalidSettingException(
                    field,
                    "'" + text + "' is not an objective; write FIGURE OP NUMBER, e.g. p90 <= 200 or errorPct < 1");
        }
        Figure f = Figure.forCriterionName(m.group(1))
                .orElseThrow(() -> new InvalidSettingException(
                        field,
                        "'" + m.group(1) + "' in '" + text + "' is not a figure; use one of " + Figure.choices()));
        return new Objective(f, m.group(2), Double.parseDouble(m.group(3)));
    }

    /** Whether a step's value keeps the objective (a NaN never does). */
    public boolean holds(double value) {
        return switch (op) {
            case "<" -> value < bound;
            case "<=" -> value <= bound;
            case ">" -> value > bound;
            case ">=" -> value >= bound;
            default -> throw new IllegalStateException(op);
        };
    }

    /** As written: {@code p90 <= 200}. */
    public String text() {
        String b = bound == Math.rint(bound) ? Long.toString((long) bound) : String.format(Locale.ROOT, "%s", bound);
        return figure.criterionName() + " " + op + " " + b;
    }
}
