package io.envbench.controller.editor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.envbench.experiment.Experiment;
import io.envbench.experiment.ExperimentException;
import io.envbench.experiment.ExperimentFile;

/**
 * An experiment file as the editor's form holds it: every field as the text typed, so a half-typed value can
 * be shown and checked. {@link #toYaml()} writes the experiment file ({@code envbench run} takes it as is);
 * {@link #check} reads that file back with the core's reader, whose message names the field and the fix.
 * Fields are keyed by their path in the file ({@code load.http.threads}); an empty text leaves a field out,
 * so the file's default applies. Not thread-safe: the event thread owns it.
 */
public final class ExperimentDraft {
    /** Top-level and load fields, by path in the file, in the order the file lists them. */
    public static final List<String> FIELDS = List.of("name", "description", "target", "port", "readyTimeoutSeconds", "repetitions",
            "order", "seed", "baseline", "load.http.path", "load.http.threads", "load.http.requestsPerSecond", "load.http.rampUpSeconds",
            "load.plan", "load.properties", "load.command.run", "load.command.output", "load.command.bareMemory", "load.warmupSeconds",
            "load.durationSeconds", "criteria");
    /** The fields of one environment, by path under {@code environments[i]}. */
    public static final List<String> ENVIRONMENT_FIELDS = List.of("name", "placement", "target", "client", "network", "volume.type",
            "volume.source", "volume.path", "cpuset", "cpus", "cpuShares", "memory");
    /** Environment fields that only a container has: the form disables them for a bare-metal environment. */
    public static final List<String> CONTAINER_FIELDS = List.of("client", "network", "volume.type", "volume.source", "volume.path", "cpuset", "cpus",
            "cpuShares", "memory");

    /** The built-in HTTP load, a JMeter plan, or a program run in each environment (bonnie++). */
    public enum LoadKind { HTTP, PLAN, COMMAND }

    private static final YAMLMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .disable(YAMLGenerator.Feature.SPLIT_LINES)
                    .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                    .build())
            .build();

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<Map<String, String>> environments = new ArrayList<>();
    private LoadKind loadKind = LoadKind.HTTP;

    /** A new experiment: nginx bare metal against Docker with host networking, a short closed-loop HTTP load. */
    public static ExperimentDraft newExperiment(String target) {
        ExperimentDraft d = new ExperimentDraft();
        d.set("name", "my-experiment");
        d.set("target", target);
        d.set("repetitions", "4");
        d.set("order", "interleaved");
        d.set("load.http.path", "/");
        d.set("load.http.threads", "8");
        d.set("load.http.requestsPerSecond", "0");
        d.set("load.warmupSeconds", "4");
        d.set("load.durationSeconds", "14");
        d.addEnvironment(EnvironmentPreset.BARE_METAL.fields("bare"));
        d.addEnvironment(EnvironmentPreset.DOCKER_HOST.fields("docker-host"));
        d.set("baseline", "bare");
        return d;
    }

    public String get(String field) {
        return values.getOrDefault(field, "");
    }

    public void set(String field, String text) {
        requireKnown(FIELDS, field);
        values.put(field, text == null ? "" : text);
    }

    public LoadKind loadKind() {
        return loadKind;
    }

    public void loadKind(LoadKind kind) {
        loadKind = kind;
    }

    public int environmentCount() {
        return environments.size();
    }

    public String environment(int i, String field) {
        return environments.get(i).getOrDefault(field, "");
    }

    public void environment(int i, String field, String text) {
        requireKnown(ENVIRONMENT_FIELDS, field);
        environments.get(i).put(field, text == null ? "" : text);
    }

    /** Appends an environment; returns its index. */
    public int addEnvironment(Map<String, String> fields) {
        Map<String, String> env = new LinkedHashMap<>();
        fields.forEach((k, v) -> {
            requireKnown(ENVIRONMENT_FIELDS, k);
            env.put(k, v);
        });
        environments.add(env);
        return environments.size() - 1;
    }

    public void removeEnvironment(int i) {
        environments.remove(i);
    }

    /** The environments' names as typed, in order. */
    public List<String> environmentNames() {
        return environments.stream().map(e -> e.getOrDefault("name", "")).toList();
    }

    /** Whether environment {@code i} runs in a container (its container fields apply). */
    public boolean isContainer(int i) {
        return "docker".equals(environment(i, "placement"));
    }

    /** The experiment file. Fields left empty are left out; a bare-metal environment carries no container field. */
    public String toYaml() {
        try {
            return YAML.writeValueAsString(tree());
        } catch (IOException e) {
            throw new IllegalStateException("writing YAML from a tree cannot fail", e);
        }
    }

    /**
     * Reads the draft back with the core's experiment reader, as {@code envbench run} would read the saved file.
     *
     * @param file       where the file is (or will be) saved: relative plans and bind sources resolve from its folder
     * @param targetsDir the recipes
     * @return the problem, naming the field and the fix; empty when the file is good
     */
    public Optional<ExperimentException> check(Path file, Path targetsDir) {
        try {
            parse(file, targetsDir);
            return Optional.empty();
        } catch (ExperimentException e) {
            return Optional.of(e);
        }
    }

    /** The experiment this draft describes. */
    public Experiment parse(Path file, Path targetsDir) throws ExperimentException {
        return ExperimentFile.parse(toYaml(), file, targetsDir);
    }

    /**
     * The same paths after the file moves from one folder to another (Save as): a relative plan and a relative bind
     * source are rewritten so they still name the same files.
     */
    public void relocate(Path fromFolder, Path toFolder) {
        java.util.function.UnaryOperator<String> move = text -> {
            String t = text.strip();
            if (t.isEmpty() || Path.of(t).isAbsolute()) {
                return text;
            }
            Path target = fromFolder.resolve(t).normalize();
            try {
                return toFolder.toAbsolutePath().normalize().relativize(target.toAbsolutePath()).toString();
            } catch (IllegalArgumentException e) {
                return target.toAbsolutePath().toString();
            }
        };
        set("load.plan", move.apply(get("load.plan")));
        for (Map<String, String> env : environments) {
            if ("bind".equals(env.getOrDefault("volume.type", "").strip())) {
                env.put("volume.source", move.apply(env.getOrDefault("volume.source", "")));
            }
        }
    }

    /** A draft of an experiment file as written (relative paths kept relative). */
    public static ExperimentDraft fromYaml(String yaml) throws IOException {
        JsonNode root = YAML.readTree(yaml);
        if (root == null || !root.isObject()) {
            throw new IOException("not an experiment file: its top level is not a mapping (name:, environments:, load:, ...)");
        }
        ExperimentDraft d = new ExperimentDraft();
        for (String f : FIELDS) {
            if (f.equals("criteria") || f.equals("load.properties")) {
                continue;
            }
            JsonNode n = at(root, f);
            if (n != null && n.isValueNode()) {
                d.set(f, n.asText());
            }
        }
        JsonNode load = root.path("load");
        d.loadKind = load.has("command") ? LoadKind.COMMAND : load.has("plan") ? LoadKind.PLAN : LoadKind.HTTP;
        JsonNode http = load.has("command") ? load.path("command") : load.path("http");
        for (String f : List.of("warmupSeconds", "durationSeconds")) {
            JsonNode n = http.isObject() && http.has(f) ? http.get(f) : load.get(f);
            if (n != null && n.isValueNode()) {
                d.set("load." + f, n.asText());
            }
        }
        JsonNode props = load.path("properties");
        if (props.isObject()) {
            StringBuilder s = new StringBuilder();
            props.fields().forEachRemaining(e -> s.append(e.getKey()).append('=').append(e.getValue().asText()).append('\n'));
            d.set("load.properties", s.toString().strip());
        }
        JsonNode criteria = root.path("criteria");
        if (criteria.isArray()) {
            List<String> lines = new ArrayList<>();
            criteria.forEach(c -> lines.add(c.asText()));
            d.set("criteria", String.join("\n", lines));
        }
        for (JsonNode e : root.path("environments")) {
            Map<String, String> env = new LinkedHashMap<>();
            for (String f : ENVIRONMENT_FIELDS) {
                JsonNode n = at(e, f);
                if (n != null && n.isValueNode()) {
                    env.put(f, n.asText());
                }
            }
            d.addEnvironment(env);
        }
        return d;
    }

    private ObjectNode tree() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        for (String field : List.of("name", "description", "target", "port", "readyTimeoutSeconds")) {
            scalar(root, field, get(field));
        }
        ArrayNode envs = root.putArray("environments");
        for (Map<String, String> e : environments) {
            ObjectNode env = envs.addObject();
            boolean container = "docker".equals(e.getOrDefault("placement", ""));
            for (String field : ENVIRONMENT_FIELDS) {
                if (field.startsWith("volume.") || (!container && CONTAINER_FIELDS.contains(field))) {
                    continue;
                }
                scalar(env, field, e.getOrDefault(field, ""));
            }
            String volumeType = e.getOrDefault("volume.type", "").strip();
            if (container && !volumeType.isEmpty() && !volumeType.equals("none")) {
                ObjectNode v = env.putObject("volume");
                for (String field : List.of("type", "source", "path")) {
                    scalar(v, field, e.getOrDefault("volume." + field, ""));
                }
            }
        }
        for (String field : List.of("repetitions", "order", "seed", "baseline")) {
            scalar(root, field, get(field));
        }
        ObjectNode load = root.putObject("load");
        if (loadKind == LoadKind.COMMAND) {
            ObjectNode command = load.putObject("command");
            for (String field : List.of("run", "output", "bareMemory")) {
                scalar(command, field, get("load.command." + field));
            }
            scalar(command, "durationSeconds", get("load.durationSeconds"));
        } else if (loadKind == LoadKind.HTTP) {
            ObjectNode http = load.putObject("http");
            for (String field : List.of("path", "threads", "requestsPerSecond", "rampUpSeconds")) {
                scalar(http, field, get("load.http." + field));
            }
            scalar(http, "warmupSeconds", get("load.warmupSeconds"));
            scalar(http, "durationSeconds", get("load.durationSeconds"));
        } else {
            load.put("plan", get("load.plan").strip()); // also when empty: the reader then names the field
            Map<String, String> props = properties();
            if (!props.isEmpty()) {
                ObjectNode p = load.putObject("properties");
                props.forEach((k, v) -> scalar(p, k, v));
            }
            scalar(load, "warmupSeconds", get("load.warmupSeconds"));
            scalar(load, "durationSeconds", get("load.durationSeconds"));
        }
        List<String> criteria = get("criteria").lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
        if (!criteria.isEmpty()) {
            ArrayNode c = root.putArray("criteria");
            criteria.forEach(c::add);
        }
        return root;
    }

    /** {@code load.properties} as typed, one {@code name=value} per line; a line without '=' is kept with an empty value. */
    private Map<String, String> properties() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : get("load.properties").lines().map(String::strip).filter(s -> !s.isEmpty()).toList()) {
            int eq = line.indexOf('=');
            m.put(eq < 0 ? line : line.substring(0, eq).strip(), eq < 0 ? "" : line.substring(eq + 1).strip());
        }
        return m;
    }

    /** A number typed as a number stays one in the file (threads: 8); anything else is text, and the reader judges it. */
    private static void scalar(ObjectNode node, String field, String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return;
        }
        if (t.matches("-?\\d{1,18}")) {
            node.put(field, Long.parseLong(t));
        } else if (t.matches("-?\\d+\\.\\d+")) {
            node.put(field, new java.math.BigDecimal(t));
        } else {
            node.put(field, t);
        }
    }

    private static JsonNode at(JsonNode root, String path) {
        JsonNode n = root;
        for (Iterator<String> it = List.of(path.split("\\.")).iterator(); it.hasNext() && n != null; ) {
            n = n.get(it.next());
        }
        return n;
    }

    private static void requireKnown(List<String> fields, String field) {
        if (!fields.contains(field)) {
            throw new IllegalArgumentException("'" + field + "' is not a field of the form; use one of " + fields);
        }
    }
}
