package io.envbench.study.experiment;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML document as a tree whose every node knows its field path and line. Jackson's {@code JsonNode} forgets
 * lines, and an error without a line costs the user a search; so this walks Jackson's streaming parser instead.
 * Scalars keep their text as written: the reader decides what a field's type is, not YAML's guesses.
 */
final class YamlTree {
    private YamlTree() {}

    sealed interface Node permits Mapping, Sequence, Scalar {
        /** e.g. {@code environments[1].network}; empty for the document. */
        String path();

        /** 1-based: the key's line for a field, the item's first line for a list item. */
        int line();
    }

    record Mapping(String path, int line, Map<String, Node> fields) implements Node {
        Mapping {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }
    }

    record Sequence(String path, int line, List<Node> items) implements Node {
        Sequence {
            items = List.copyOf(items);
        }
    }

    /** {@code empty} for a field written without a value ({@code key:}, {@code ~} or {@code null}). */
    record Scalar(String path, int line, String text, boolean empty) implements Node {}

    static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    static String item(String path, int index) {
        return path + "[" + index + "]";
    }

    /** What a node is, for "is a list; give a number" messages. */
    static String kind(Node n) {
        if (n instanceof Mapping) {
            return "a mapping (key: value lines)";
        }
        if (n instanceof Sequence) {
            return "a list";
        }
        Scalar s = (Scalar) n;
        return s.empty() ? "empty" : "'" + s.text() + "'";
    }

    static Node parse(String yaml, Path file) throws ExperimentException {
        try (YAMLParser p = new YAMLFactory().createParser(yaml)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new ExperimentException(
                        file,
                        "",
                        1,
                        "the file is empty; start with name:, environments: and load: "
                                + "(see testplans/experiments/README.md)");
            }
            return read(p, first, "", p.getTokenLocation().getLineNr(), file);
        } catch (JsonProcessingException e) {
            throw syntaxError(e, file);
        } catch (IOException e) {
            throw new ExperimentException(file, "", 0, "cannot be read: " + e.getMessage());
        }
    }

    private static Node read(YAMLParser p, JsonToken token, String path, int line, Path file)
            throws IOException, ExperimentException {
        if (p.isCurrentAlias()) {
            // Jackson hands back the alias's name as if it were the value: refuse rather than misread
            throw new ExperimentException(
                    file, path, line, "YAML aliases (*" + p.getText() + ") are not supported; write the value out");
        }
        switch (token) {
            case START_OBJECT -> {
                Map<String, Node> fields = new LinkedHashMap<>();
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int keyLine = p.getTokenLocation().getLineNr();
                    Node earlier = fields.get(key);
                    if (earlier != null) {
                        throw new ExperimentException(
                                file,
                                child(path, key),
                                keyLine,
                                "is given twice (first on line " + earlier.line() + "); keep one");
                    }
                    fields.put(key, read(p, p.nextToken(), child(path, key), keyLine, file));
                }
                return new Mapping(path, line, fields);
            }
            case START_ARRAY -> {
                List<Node> items = new ArrayList<>();
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    items.add(read(
                            p, t, item(path, items.size()), p.getTokenLocation().getLineNr(), file));
                }
                return new Sequence(path, line, items);
            }
            case VALUE_NULL -> {
                return new Scalar(path, line, "", true);
            }
            default -> {
                return new Scalar(path, line, p.getText(), false);
            }
        }
    }

    private static ExperimentException syntaxError(JsonProcessingException e, Path file) {
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        String problem = e.getOriginalMessage();
        // snakeyaml's own mark points at the offending character; Jackson's location can trail it
        if (e.getCause() instanceof MarkedYAMLException m && m.getProblemMark() != null) {
            line = m.getProblemMark().getLine() + 1;
            problem = m.getProblem();
        }
        return new ExperimentException(
                file,
                "",
                line,
                "not valid YAML: " + problem.strip()
                        + "; check the indentation (spaces, no tabs) and put quotes around a value that holds ': ' or starts with * or &");
    }
}
