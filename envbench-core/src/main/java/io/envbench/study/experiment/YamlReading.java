package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.study.experiment.YamlTree.Mapping;
import io.envbench.study.experiment.YamlTree.Node;
import io.envbench.study.experiment.YamlTree.Scalar;
import io.envbench.study.experiment.YamlTree.Sequence;

/**
 * The reading of an experiment file's YAML shared by its sections: the fields a mapping allows (with the nearest
 * for a typo), typed values, and errors located at the field's path and line.
 */
final class YamlReading {
    private static final Pattern WHOLE = Pattern.compile("[-+]?\\d+");

    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");

    final Path file;

    final Path targetsDir;

    private final Map<String, Integer> lines = new HashMap<>();

    private final Set<String> checkedTargets = new HashSet<>();

    YamlReading(Path file, Path targetsDir, Node root) {
        this.file = file;
        this.targetsDir = targetsDir;
        index(root);
    }

    private void index(Node n) {
        lines.put(n.path(), n.line());
        if (n instanceof Mapping m) {
            m.fields().values().forEach(this::index);
        } else if (n instanceof Sequence s) {
            s.items().forEach(this::index);
        }
    }

    void checkTarget(Scalar target) throws ExperimentException {
        if (checkedTargets.add(target.path())) {
            at(target, () -> TargetRecipe.load(targetsDir, target.text()));
        }
    }

    /** A path in the file is relative to the file's folder, so the file works from any working directory. */
    Path resolve(Scalar node) throws ExperimentException {
        try {
            Path folder = file.getParent() == null ? file.toAbsolutePath().getRoot() : file.getParent();
            return folder.resolve(node.text().strip()).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw fail(
                    node,
                    "'" + node.text() + "' is not a path (" + e.getReason() + "); give a path relative to this file");
        }
    }

    void checkFields(Mapping m, List<String> allowed) throws ExperimentException {
        for (Map.Entry<String, Node> e : m.fields().entrySet()) {
            if (!allowed.contains(e.getKey())) {
                String suggestion = closest(e.getKey(), allowed)
                        .map(s -> "did you mean " + s + "? ")
                        .orElse("");
                throw fail(
                        e.getValue(),
                        "is not a field here; " + suggestion + "fields here: " + String.join(", ", allowed));
            }
        }
    }

    /** A near miss (edit distance at most 2, ignoring case) for "did you mean". */
    static Optional<String> closest(String typed, List<String> allowed) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : allowed) {
            int d = distance(typed.toLowerCase(), candidate.toLowerCase());
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        if (bestDistance <= Math.max(2, typed.length() / 4)) {
            return Optional.ofNullable(best);
        }
        // a unit left off (duration for durationSeconds) is a long way in letters but an obvious slip
        return allowed.stream()
                .filter(c -> typed.length() >= 3 && c.toLowerCase().startsWith(typed.toLowerCase()))
                .findFirst();
    }

    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    Mapping mapping(Node n, String expected) throws ExperimentException {
        if (n instanceof Mapping m) {
            return m;
        }
        throw fail(n, "is " + YamlTree.kind(n) + "; give " + expected);
    }

    /** The field's node, empty when absent or written without a value. */
    static Optional<Node> field(Mapping m, String key) {
        Node n = m.fields().get(key);
        return n == null || n instanceof Scalar s && s.empty() ? Optional.empty() : Optional.of(n);
    }

    Node required(Mapping m, String key, String expected) throws ExperimentException {
        Node n = m.fields().get(key);
        if (n == null) {
            throw fail(YamlTree.child(m.path(), key), "is missing; give " + expected);
        }
        if (n instanceof Scalar s && s.empty()) {
            throw fail(n, "is empty; give " + expected);
        }
        return n;
    }

    Optional<Scalar> scalar(Mapping m, String key, String expected) throws ExperimentException {
        Optional<Node> n = field(m, key);
        if (n.isPresent() && !(n.get() instanceof Scalar)) {
            throw fail(n.get(), "is " + YamlTree.kind(n.get()) + "; give " + expected);
        }
        return n.map(Scalar.class::cast);
    }

    Scalar requiredScalar(Mapping m, String key, String expected) throws ExperimentException {
        Node n = required(m, key, expected);
        if (!(n instanceof Scalar s)) {
            throw fail(n, "is " + YamlTree.kind(n) + "; give " + expected);
        }
        return s;
    }

    String requiredText(Mapping m, String key, String expected) throws ExperimentException {
        return requiredScalar(m, key, expected).text();
    }

    long wholeNumber(Scalar s, String expected) throws ExperimentException {
        String t = s.text().strip();
        if (WHOLE.matcher(t).matches()) {
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                throw fail(s, "'" + t + "' is too large; give " + expected);
            }
        }
        throw fail(s, "'" + s.text() + "' is not a whole number; give " + expected);
    }

    double decimal(Scalar s, String expected) throws ExperimentException {
        String t = s.text().strip();
        if (!DECIMAL.matcher(t).matches()) {
            throw fail(s, "'" + s.text() + "' is not a number; give " + expected);
        }
        double v = Double.parseDouble(t);
        if (Double.isInfinite(v)) {
            throw fail(s, "'" + t + "' is too large; give " + expected);
        }
        return v;
    }

    Optional<Duration> optionalSeconds(Mapping m, String key, String expected) throws ExperimentException {
        Optional<Scalar> s = scalar(m, key, expected);
        return s.isEmpty() ? Optional.empty() : Optional.of(seconds(s.get(), expected));
    }

    Duration requiredSeconds(Mapping m, String key, String expected) throws ExperimentException {
        return seconds(requiredScalar(m, key, expected), expected);
    }

    Duration seconds(Scalar s, String expected) throws ExperimentException {
        double seconds = decimal(s, expected);
        if (Math.abs(seconds) > 1e9) {
            throw fail(s, "'" + s.text() + "' is too large; give " + expected);
        }
        // the records say what is wrong with a negative or zero length, in one place
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    /** A whole number that must fit an int; beyond it is "too large", never clamped to a number the user did not type. */
    int wholeInt(Scalar s, String expected) throws ExperimentException {
        long v = wholeNumber(s, expected);
        if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
            throw fail(s, "'" + s.text().strip() + "' is too large; give " + expected);
        }
        return (int) v;
    }

    ExperimentException fail(Node n, String problemAndFix) {
        return new ExperimentException(file, n.path(), n.line(), problemAndFix);
    }

    /** For a field that is not in the file: the line of the nearest enclosing field. */
    ExperimentException fail(String path, String problemAndFix) {
        return new ExperimentException(file, path, lineOf(path), problemAndFix);
    }

    int lineOf(String path) {
        String p = path;
        while (!lines.containsKey(p) && !p.isEmpty()) {
            int cut = p.endsWith("]") ? p.lastIndexOf('[') : p.lastIndexOf('.');
            p = cut < 0 ? "" : p.substring(0, cut);
        }
        return lines.getOrDefault(p, 1);
    }

    /** A field that is true or false, if present; anything else is refused at its line. */
    Optional<Boolean> optionalBoolean(Mapping m, String field) throws ExperimentException {
        Optional<Scalar> node = scalar(m, field, "true or false");
        if (node.isEmpty()) {
            return Optional.empty();
        }
        String t = node.get().text().trim();
        if (!t.equals("true") && !t.equals("false")) {
            throw fail(node.get(), "'" + node.get().text() + "' is neither true nor false; use true or false");
        }
        return Optional.of(Boolean.parseBoolean(t));
    }

    /** Runs a core validator; its failure is reported at the given node. */
    <T> T at(Node n, Supplier<T> validated) throws ExperimentException {
        try {
            return validated.get();
        } catch (InvalidSettingException e) {
            throw fail(n, problem(e));
        }
    }

    /** Builds a record; a failure is reported at the file path its field name maps to. */
    <T> T located(Function<String, String> fieldToPath, Supplier<T> built) throws ExperimentException {
        try {
            return built.get();
        } catch (InvalidSettingException e) {
            throw fail(fieldToPath.apply(e.field()), problem(e));
        }
    }

    /** The message without its "field: " prefix: the file's field path replaces it. */
    static String problem(InvalidSettingException e) {
        String prefix = e.field() + ": ";
        return e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
    }
}
