package io.envbench.study.experiment;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.stats.Figure;
import net.jcip.annotations.Immutable;

/**
 * One pass/fail check of an experiment, written {@code FIGURE(ENV[, LABEL]) OP RHS}, e.g.
 * {@code p90(docker-bridge) <= 1.2 * p90(bare)} or {@code errorPct(*) < 1}. Immutable.
 * <ul>
 *   <li>FIGURE: one of {@link Figure}: throughput (/s), mean, median, p90, p95, p99 (ms), errorPct (percent);</li>
 *   <li>ENV: an environment, or {@code *} for every environment (the criterion passes only when it holds for each);</li>
 *   <li>LABEL: a sample label, default {@link #TOTAL} (all labels together); quote it ('...' or "...") when it
 *       holds a comma or a parenthesis;</li>
 *   <li>OP: {@code <}, {@code <=}, {@code >}, {@code >=};</li>
 *   <li>RHS: a number, {@code FACTOR * FIGURE(ENV[, LABEL])} or {@code FIGURE(ENV[, LABEL])} (one environment).</li>
 * </ul>
 *
 * @param text      as written
 * @param figure    the left-hand side
 * @param operator  the comparison
 * @param threshold the right-hand side
 */
@Immutable
public record Criterion(String text, FigureRef figure, Operator operator, Threshold threshold) {
    /** The label of the row over all labels. */
    public static final String TOTAL = "TOTAL";
    /** In place of an environment: each environment that has figures. */
    public static final String EVERY_ENVIRONMENT = "*";

    public Criterion {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(figure, "figure");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(threshold, "threshold");
        text = text.strip();
    }

    /** A figure of one environment (or {@code *}) and label, written {@code p90(bare)} or {@code p90(bare, GET page)}. */
    public record FigureRef(Figure figure, String environment, String label) {
        public FigureRef {
            Objects.requireNonNull(figure, "figure");
            Objects.requireNonNull(environment, "environment");
            label = label == null || label.isBlank() ? TOTAL : label.strip();
        }

        public boolean everyEnvironment() {
            return EVERY_ENVIRONMENT.equals(environment);
        }

        FigureRef on(String env) {
            return new FigureRef(figure, env, label);
        }

        @Override
        public String toString() {
            String shownLabel =
                    label.matches("[^,()'\"]*") ? label : label.contains("'") ? "\"" + label + "\"" : "'" + label + "'";
            return figure.criterionName() + "(" + environment + (TOTAL.equals(label) ? "" : ", " + shownLabel) + ")";
        }
    }

    public enum Operator {
        LESS("<"),
        LESS_OR_EQUAL("<="),
        GREATER(">"),
        GREATER_OR_EQUAL(">=");

        private final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        public boolean holds(double left, double right) {
            return switch (this) {
                case LESS -> left < right;
                case LESS_OR_EQUAL -> left <= right;
                case GREATER -> left > right;
                case GREATER_OR_EQUAL -> left >= right;
            };
        }
    }

    /** What the figure is compared with. */
    public sealed interface Threshold permits Fixed, Relative {}

    /** A number in the figure's unit: {@code errorPct(*) < 1}. */
    public record Fixed(double value) implements Threshold {}

    /** A multiple of another environment's figure: {@code 1.2 * p90(bare)}. */
    public record Relative(double factor, FigureRef figure) implements Threshold {
        public Relative {
            Objects.requireNonNull(figure, "figure");
        }
    }

    /**
     * @param explanation one line with the figures, e.g.
     *                    {@code p90(docker-bridge) = 1.3 ms <= 1.2 x p90(bare) = 1.2 x 1.0 ms = 1.2 ms: FAILED}
     */
    public record Result(Criterion criterion, boolean passed, String explanation) {}

    /**
     * @param environments the experiment's environment names; every name in the criterion must be one
     * @throws InvalidSettingException (field {@code criterion}) saying what is wrong and what to write
     */
    public static Criterion parse(String text, Set<String> environments) {
        return new Parser(text == null ? "" : text, environments).criterion();
    }

    /** The environments named in the criterion ({@code *} left out). */
    public Set<String> environments() {
        Set<String> named = new LinkedHashSet<>();
        if (!figure.everyEnvironment()) {
            named.add(figure.environment());
        }
        if (threshold instanceof Relative r) {
            named.add(r.figure().environment());
        }
        return named;
    }

    /** Never throws for missing figures: the criterion fails and the explanation says which figure is missing. */
    public Result evaluate(FigureSource figures) {
        if (!figure.everyEnvironment()) {
            Check c = check(figure, figures);
            return new Result(this, c.passed, c.explanation);
        }
        List<String> envs = List.copyOf(figures.environments());
        if (envs.isEmpty()) {
            return new Result(this, false, text + ": FAILED: no environment has figures (did any run finish?)");
        }
        List<String> failed = new ArrayList<>();
        List<String> each = new ArrayList<>();
        for (String env : envs) {
            Check c = check(figure.on(env), figures);
            if (!c.passed) {
                failed.add(env);
            }
            each.add(c.explanation);
        }
        String verdict = failed.isEmpty()
                ? "PASSED for all " + envs.size() + " environments"
                : "FAILED for " + String.join(", ", failed);
        return new Result(
                this,
                failed.isEmpty(),
                figure + " " + operator.symbol + " " + thresholdText() + ": " + verdict + "; "
                        + String.join("; ", each));
    }

    private record Check(boolean passed, String explanation) {}

    private Check check(FigureRef left, FigureSource figures) {
        OptionalDouble leftValue = valueOf(left, figures);
        if (leftValue.isEmpty()) {
            return missing(left);
        }
        double bound;
        String boundText;
        if (threshold instanceof Relative r) {
            OptionalDouble base = valueOf(r.figure(), figures);
            if (base.isEmpty()) {
                return missing(r.figure());
            }
            bound = r.factor() * base.getAsDouble();
            String unit = r.figure().figure().suffix();
            boundText = r.factor() == 1
                    ? r.figure() + " = " + measured(bound) + unit
                    : typed(r.factor()) + " x " + r.figure() + " = " + typed(r.factor()) + " x "
                            + measured(base.getAsDouble()) + unit + " = " + measured(bound) + unit;
        } else {
            bound = ((Fixed) threshold).value();
            boundText = typed(bound) + left.figure().suffix();
        }
        boolean passed = operator.holds(leftValue.getAsDouble(), bound);
        return new Check(
                passed,
                left + " = " + measured(leftValue.getAsDouble()) + left.figure().suffix() + " " + operator.symbol + " "
                        + boundText + ": " + (passed ? "PASSED" : "FAILED"));
    }

    private static OptionalDouble valueOf(FigureRef ref, FigureSource figures) {
        OptionalDouble v =
                figures.value(ref.environment(), ref.label(), ref.figure().criterionName());
        return v.isPresent() && Double.isNaN(v.getAsDouble()) ? OptionalDouble.empty() : v;
    }

    private static Check missing(FigureRef ref) {
        return new Check(
                false,
                ref + " has no figure (no sample labelled '" + ref.label() + "' in " + ref.environment()
                        + ", or it did not run): FAILED");
    }

    private String thresholdText() {
        if (threshold instanceof Relative r) {
            return (r.factor() == 1 ? "" : typed(r.factor()) + " * ") + r.figure();
        }
        return typed(((Fixed) threshold).value());
    }

    /** A measured value: three decimals at most (1 ms resolution needs no more), one at least, so it reads as a number. */
    static String measured(double v) {
        String s = String.format(Locale.ROOT, Math.abs(v) >= 1000 ? "%.1f" : "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s + "0" : s;
    }

    /** A number the user typed, as typed: {@code 1.2}, {@code 0.85}, {@code 1}. */
    static String typed(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    @Override
    public String toString() {
        return text;
    }

    /** Recursive descent over {@code FIGURE(ENV[, LABEL]) OP RHS}; every failure says what to write instead. */
    private static final class Parser {
        private static final Pattern NUMBER = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");
        private static final Pattern WORD = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
        private static final String EXAMPLE = "e.g. p90(docker) <= 1.2 * p90(bare)";

        private final String text;
        private final Set<String> environments;
        private int pos;

        Parser(String text, Set<String> environments) {
            this.text = text.strip();
            this.environments = Objects.requireNonNull(environments, "environments");
        }

        Criterion criterion() {
            if (text.isEmpty()) {
                throw fail("is empty; write FIGURE(ENVIRONMENT) OP VALUE, " + EXAMPLE);
            }
            FigureRef left = figureRef(true);
            Operator op = operator(left);
            Threshold threshold = threshold(op, left);
            skipSpaces();
            if (pos < text.length()) {
                throw fail("unexpected '" + text.substring(pos) + "' at the end; write FIGURE(ENVIRONMENT) OP VALUE, "
                        + EXAMPLE);
            }
            if (threshold instanceof Relative r
                    && !r.figure().figure().unit().equals(left.figure().unit())) {
                throw fail("compares " + left.figure().criterionName() + " ("
                        + left.figure().unit().strip() + ") with "
                        + r.figure().figure().criterionName()
                        + " (" + r.figure().figure().unit().strip() + "); compare figures of the same unit, e.g. "
                        + left.figure().criterionName() + "(docker) <= 1.2 * "
                        + left.figure().criterionName() + "(bare)");
            }
            return new Criterion(text, left, op, threshold);
        }

        private FigureRef figureRef(boolean left) {
            skipSpaces();
            Matcher word = WORD.matcher(text).region(pos, text.length());
            if (!word.lookingAt()) {
                throw fail(
                        left
                                ? "should start with a figure such as p90(bare); write FIGURE(ENVIRONMENT) OP VALUE, "
                                        + EXAMPLE
                                : "'" + text.substring(pos)
                                        + "' is neither a number nor a figure; give a number (e.g. 5) or "
                                        + "FACTOR * FIGURE(ENVIRONMENT) (e.g. 1.2 * p90(bare))");
            }
            String key = word.group();
            Figure figure = Figure.forCriterionName(key)
                    .orElseThrow(() -> fail("'" + key + "' is not a figure; "
                            + Arrays.stream(Figure.values())
                                    .filter(f -> f.criterionName().equalsIgnoreCase(key))
                                    .map(f -> "did you mean " + f.criterionName() + "? ")
                                    .findFirst()
                                    .orElse("")
                            + "use " + Figure.choices()));
            pos = word.end();
            skipSpaces();
            if (!consume("(")) {
                throw fail("expected ( after " + key + "; write " + key + "(ENVIRONMENT), e.g. " + key + "(bare)");
            }
            int envStart = pos;
            while (pos < text.length() && text.charAt(pos) != ',' && text.charAt(pos) != ')') {
                pos++;
            }
            String env = text.substring(envStart, pos).strip();
            if (pos == text.length()) {
                throw fail("missing ) after " + key + "(" + env + "; close it, e.g. " + key + "(bare)");
            }
            missingCloseAfterEnvironment(key, env).ifPresent(m -> {
                throw fail(m);
            });
            checkEnvironment(env, left);
            String label = TOTAL;
            if (consume(",")) {
                label = label(key, env);
            }
            skipSpaces();
            if (!consume(")")) {
                throw fail("missing ) after " + key + "(" + env + ", " + label
                        + "; close it, and quote a label that holds a " + "comma or a parenthesis");
            }
            return new FigureRef(figure, env, label);
        }

        /**
         * What went wrong when the text in () is no environment but starts with one and goes on (p90(bare <= 3):
         * the ) was forgotten, and the rest is no part of a name.
         */
        private Optional<String> missingCloseAfterEnvironment(String key, String env) {
            if (environments.contains(env) || EVERY_ENVIRONMENT.equals(env)) {
                return Optional.empty();
            }
            return environments.stream()
                    .filter(e -> env.startsWith(e)
                            && env.length() > e.length()
                            && (Character.isWhitespace(env.charAt(e.length()))
                                    || "<>=!".indexOf(env.charAt(e.length())) >= 0))
                    .max(Comparator.comparingInt(String::length))
                    .map(e -> "missing ) after " + key + "(" + e + ": found '"
                            + env.substring(e.length()).strip() + "' where ) should be; close it, e.g. " + key + "(" + e
                            + ") <= 5");
        }

        private void checkEnvironment(String env, boolean left) {
            if (env.isEmpty()) {
                throw fail("an environment is missing in (); name one of " + choices() + ", or * for each");
            }
            if (EVERY_ENVIRONMENT.equals(env)) {
                if (!left) {
                    throw fail("* can only stand on the left; name one environment on the right, e.g. 1.2 * p90("
                            + environments.stream().findFirst().orElse("bare") + ")");
                }
                return;
            }
            if (!environments.contains(env)) {
                throw fail("'" + env + "' is not an environment of this experiment; use " + choices()
                        + (left ? ", or * for each" : ""));
            }
        }

        private String label(String key, String env) {
            skipSpaces();
            if (pos < text.length() && (text.charAt(pos) == '\'' || text.charAt(pos) == '"')) {
                char quote = text.charAt(pos);
                int close = text.indexOf(quote, pos + 1);
                if (close < 0) {
                    throw fail("the label's quote " + quote + " is never closed; close it before )");
                }
                String label = text.substring(pos + 1, close);
                pos = close + 1;
                if (label.isBlank()) {
                    throw fail("the label is empty; give a sample label, or leave out ', LABEL' for " + TOTAL);
                }
                return label;
            }
            int start = pos;
            while (pos < text.length() && text.charAt(pos) != ')') {
                pos++;
            }
            String label = text.substring(start, pos).strip();
            if (label.isEmpty()) {
                throw fail("the label after " + key + "(" + env
                        + ", is empty; give a sample label, or leave out ', LABEL' for " + TOTAL);
            }
            return label;
        }

        private Operator operator(FigureRef left) {
            skipSpaces();
            for (String symbol : new String[] {"<=", ">=", "<", ">"}) {
                if (consume(symbol)) {
                    for (Operator op : Operator.values()) {
                        if (op.symbol.equals(symbol)) {
                            return op;
                        }
                    }
                }
            }
            String rest = text.substring(pos);
            throw fail((rest.startsWith("=") || rest.startsWith("!")
                            ? "'" + rest.split("\\s")[0] + "' is not a comparison"
                            : "expected a comparison after " + left)
                    + "; use <, <=, > or >=");
        }

        private Threshold threshold(Operator op, FigureRef left) {
            skipSpaces();
            if (pos == text.length()) {
                throw fail("nothing after " + op.symbol
                        + "; give a number (e.g. 5) or FACTOR * FIGURE(ENVIRONMENT) (e.g. 1.2 * "
                        + left.figure().criterionName() + "(bare))");
            }
            Matcher number = NUMBER.matcher(text).region(pos, text.length());
            if (!number.lookingAt()) {
                return new Relative(1, figureRef(false));
            }
            double value = Double.parseDouble(number.group());
            pos = number.end();
            skipSpaces();
            if (pos == text.length()) {
                return new Fixed(value);
            }
            if (!consume("*")) {
                throw fail("unexpected '" + text.substring(pos) + "' after " + number.group()
                        + "; write FACTOR * FIGURE(ENVIRONMENT), " + "e.g. " + number.group() + " * "
                        + left.figure().criterionName() + "(bare)");
            }
            if (!(value > 0)) {
                throw fail("the factor " + number.group() + " must be above 0, e.g. 1.2");
            }
            return new Relative(value, figureRef(false));
        }

        private String choices() {
            return environments.isEmpty() ? "(no environments)" : String.join(", ", environments);
        }

        private boolean consume(String s) {
            if (text.startsWith(s, pos)) {
                pos += s.length();
                return true;
            }
            return false;
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private InvalidSettingException fail(String problemAndFix) {
            return new InvalidSettingException("criterion", "'" + text + "': " + problemAndFix);
        }
    }
}
