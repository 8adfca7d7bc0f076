package io.envbench.study.experiment;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.study.experiment.ExperimentFields.Section;
import net.jcip.annotations.NotThreadSafe;

/**
 * An experiment file as text fields: every field as the text typed, so a half-typed value can be held, shown and
 * checked. {@link #toYaml()} writes the experiment file ({@code envbench run} takes it as is); {@link #check} reads
 * that file back with {@link ExperimentFile}'s reader, whose message names the field and the fix. Fields are keyed by
 * their path in the file ({@code load.http.threads}), the keys of {@link ExperimentFields#formKeys}; an empty text
 * leaves a field out, so the file's default applies.
 *
 * <p>This is the one writer of experiment files. The controller's form edits an experiment as this model, and
 * {@link ExperimentWriter} fills one from a typed {@link Experiment} to record what ran; so a form's file and a run's
 * {@code experiment.yaml} have one layout: fields in {@link ExperimentFields}' order, lists indented under their key,
 * a value on one line. Fields the form has no text for ({@code capacity:}, remote engines) are kept as the file wrote
 * them.
 *
 * <p>It is named for what it holds, the file's text, rather than for the form's "draft": it models a file opened, one
 * being typed, and an experiment written back alike.
 *
 * <p>Not thread-safe: one thread owns it (the controller's event thread).
 */
@NotThreadSafe
public final class ExperimentText {
    /** Top-level and load fields, by path in the file, in the order the file lists them (core's catalogue). */
    public static final List<String> FIELDS = ExperimentFields.formKeys(Section.TOP);
    /** The fields of one environment, by path under {@code environments[i]}. */
    public static final List<String> ENVIRONMENT_FIELDS = ExperimentFields.formKeys(Section.ENVIRONMENT);
    /**
     * Environment fields the form disables for a bare-metal environment: those only a container has, and where a
     * command load's client runs (on bare metal it can only be the host).
     */
    public static final List<String> CONTAINER_FIELDS = ExperimentFields.formFields(Section.ENVIRONMENT).stream()
            .filter(f -> f.field().containerOnly() || f.field().name().equals("client"))
            .map(ExperimentFields.FormField::key)
            .toList();

    /**
     * A multi-tenant experiment's shared tenant fields and its scenario form ({@code count:} with {@code low:}/{@code high:}), by
     * path in the file.
     */
    public static final List<String> TENANTS_FIELDS = ExperimentFields.formKeys(Section.TENANTS).stream()
            .map(k -> "tenants." + k)
            .toList();
    /** The scenario form's fields: left out of the file when every tenant is written out ({@code each:}). */
    public static final List<String> SCENARIO_FIELDS = TENANTS_FIELDS.stream()
            .filter(f -> f.matches("tenants\\.(count|highTenants|low\\..*|high\\..*)"))
            .toList();
    /** The fields of one tenant written out, by path under {@code tenants.each[i]}. */
    public static final List<String> TENANT_FIELDS = ExperimentFields.formKeys(Section.TENANT);
    /** The fields of one compared configuration, by path under {@code configurations[i]}. */
    public static final List<String> CONFIGURATION_FIELDS = ExperimentFields.formKeys(Section.CONFIGURATION);

    /** The built-in HTTP load, a JMeter plan, or a program run in each environment (bonnie++). */
    public enum LoadKind {
        HTTP,
        PLAN,
        COMMAND
    }

    /** Environments run one after the other and compared, or tenants run all at once under compared configurations
     * (study 004 (docs/studies.md#study-004)).
     */
    public enum Kind {
        ENVIRONMENTS,
        TENANTS
    }

    /** A multi-tenant experiment's tenants: the paper's scenario ({@code count:}, {@code low:}, {@code high:}) or each written out. */
    public enum TenantsForm {
        SCENARIO,
        EACH
    }

    private static final YAMLMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .disable(YAMLGenerator.Feature.SPLIT_LINES)
                    .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                    .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                    .build())
            .build();

    /**
     * The fields the form has no text for, by path: {@code capacity:} (a search's settings), and a load's remote engines
     * ({@code load.engines}, {@code load.rmiKeystore}); kept as the file wrote them, so a file opened and saved keeps
     * them.
     */
    private static final List<String> KEPT = List.of("capacity", "load.engines", "load.rmiKeystore");

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<Map<String, String>> environments = new ArrayList<>();
    private LoadKind loadKind = LoadKind.HTTP;
    private final Map<String, JsonNode> kept = new LinkedHashMap<>();

    private Kind kind = Kind.ENVIRONMENTS;
    private TenantsForm tenantsForm = TenantsForm.SCENARIO;
    private final List<Map<String, String>> tenants = new ArrayList<>();
    private final List<Map<String, String>> configurations = new ArrayList<>();

    /**
     * A new experiment: nginx bare metal against Docker with host networking, a short closed-loop HTTP load. The
     * environments are the form's bare-metal and container-on-the-host presets, in a fixed order.
     */
    public static ExperimentText newExperiment(String target) {
        ExperimentText d = new ExperimentText();
        d.set("name", "my-experiment");
        d.set("target", target);
        d.set("repetitions", "4");
        d.set("order", "interleaved");
        d.set("load.http.path", "/");
        d.set("load.http.threads", "8");
        d.set("load.http.requestsPerSecond", "0");
        d.set("load.warmupSeconds", "4");
        d.set("load.durationSeconds", "14");
        d.addEnvironment(EnvironmentPreset.BARE_METAL.fields(EnvironmentPreset.BARE_METAL.defaultName()));
        d.addEnvironment(EnvironmentPreset.DOCKER_HOST.fields(EnvironmentPreset.DOCKER_HOST.defaultName()));
        d.set("baseline", EnvironmentPreset.BARE_METAL.defaultName());
        return d;
    }

    /**
     * A new multi-tenant experiment (study 004, scaled to a small machine): four DayTrader tenants sharing the host's
     * CPUs, the last one high, compared with no CPU control, static pinning and the dynamic loop (interrupt steering off:
     * it needs root).
     */
    public static ExperimentText newMultiTenantExperiment() {
        ExperimentText d = new ExperimentText();
        d.kind = Kind.TENANTS;
        d.loadKind = LoadKind.PLAN;
        d.set("name", "my-tenants");
        d.set("target", "daytrader");
        d.set("port", "18081");
        d.set("readyTimeoutSeconds", "180");
        d.set("tenants.count", "4");
        d.set("tenants.highTenants", "1");
        // the calibrated scenario files' loads (testplans/experiments/daytrader-scenario-*.yaml)
        d.set("tenants.low.threads", "16");
        d.set("tenants.low.requestsPerSecond", "190");
        d.set("tenants.high.threads", "24");
        d.set("tenants.high.requestsPerSecond", "1200");
        d.addConfiguration(Map.of("name", "none", "cpuControl", "none", "interruptSteering", "off"));
        d.addConfiguration(Map.of("name", "static", "cpuControl", "static", "interruptSteering", "off"));
        d.addConfiguration(Map.of(
                "name", "dynamic", "cpuControl", "dynamic", "interruptSteering", "off", "controlIntervalSeconds", "5"));
        d.set("repetitions", "3");
        d.set("order", "interleaved");
        d.set("baseline", "none");
        d.set("load.plan", "../daytrader.jmx");
        d.set("load.warmupSeconds", "120");
        d.set("load.durationSeconds", "300");
        return d;
    }

    public String get(String field) {
        return values.getOrDefault(field, "");
    }

    public void set(String field, String text) {
        if (!TENANTS_FIELDS.contains(field)) {
            requireKnown(FIELDS, field);
        }
        values.put(field, text == null ? "" : text);
    }

    /** Environments compared one after the other, or tenants at once under compared configurations. */
    public Kind kind() {
        return kind;
    }

    /** Makes this an experiment of environments, or of tenants (the other's fields are kept but not written). */
    public void kind(Kind k) {
        kind = k;
    }

    /** Whether this is a multi-tenant experiment ({@code tenants:} and {@code configurations:}). */
    public boolean multiTenant() {
        return kind == Kind.TENANTS;
    }

    public TenantsForm tenantsForm() {
        return tenantsForm;
    }

    /** The scenario's fields and the tenants written out are both kept; the file has the chosen one. */
    public void tenantsForm(TenantsForm form) {
        tenantsForm = form;
    }

    public int tenantCount() {
        return tenants.size();
    }

    public String tenant(int i, String field) {
        return tenants.get(i).getOrDefault(field, "");
    }

    public void tenant(int i, String field, String text) {
        requireKnown(TENANT_FIELDS, field);
        tenants.get(i).put(field, text == null ? "" : text);
    }

    /** Appends a tenant written out (its name is its place: tenant-N); returns its index. */
    public int addTenant(Map<String, String> fields) {
        tenants.add(known(TENANT_FIELDS, fields));
        return tenants.size() - 1;
    }

    public void removeTenant(int i) {
        tenants.remove(i);
    }

    public int configurationCount() {
        return configurations.size();
    }

    public String configuration(int i, String field) {
        return configurations.get(i).getOrDefault(field, "");
    }

    public void configuration(int i, String field, String text) {
        requireKnown(CONFIGURATION_FIELDS, field);
        configurations.get(i).put(field, text == null ? "" : text);
    }

    /** Appends a configuration; returns its index. */
    public int addConfiguration(Map<String, String> fields) {
        configurations.add(known(CONFIGURATION_FIELDS, fields));
        return configurations.size() - 1;
    }

    public void removeConfiguration(int i) {
        configurations.remove(i);
    }

    /** Whether configuration {@code i}'s loop period applies (only the dynamic control has one; otherwise it is not written). */
    public boolean hasControlInterval(int i) {
        return "dynamic".equals(configuration(i, "cpuControl").strip());
    }

    /** What the runs compare, as typed: the environments' names, or a multi-tenant experiment's configurations'. */
    public List<String> comparedNames() {
        return multiTenant()
                ? configurations.stream().map(c -> c.getOrDefault("name", "")).toList()
                : environmentNames();
    }

    private static Map<String, String> known(List<String> allowed, Map<String, String> fields) {
        Map<String, String> m = new LinkedHashMap<>();
        fields.forEach((k, v) -> {
            requireKnown(allowed, k);
            m.put(k, v);
        });
        return m;
    }

    /** Sets a field the form has no text for ({@code capacity}, {@code load.engines}, {@code load.rmiKeystore}). */
    void keep(String path, JsonNode node) {
        if (!KEPT.contains(path)) {
            throw new IllegalArgumentException("'" + path + "' is not a field kept as written; use one of " + KEPT);
        }
        kept.put(path, node.deepCopy());
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
        return inContainer(environment(i, "placement"));
    }

    /** Whether a placement's text is a container's (docker, podman): its container fields apply. */
    private static boolean inContainer(String placement) {
        try {
            return EnvironmentDefinition.Placement.parse(PLACEMENT_FIELD, placement)
                    .inContainer();
        } catch (InvalidSettingException e) {
            return false; // a placement being typed: no container field yet
        }
    }

    private static final String PLACEMENT_FIELD = "placement";

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
        UnaryOperator<String> move = text -> {
            String t = text.strip();
            if (t.isEmpty() || Path.of(t).isAbsolute()) {
                return text;
            }
            Path target = fromFolder.resolve(t).normalize();
            try {
                return toFolder.toAbsolutePath()
                        .normalize()
                        .relativize(target.toAbsolutePath())
                        .toString();
            } catch (IllegalArgumentException e) {
                return target.toAbsolutePath().toString();
            }
        };
        set("load.plan", move.apply(get("load.plan")));
        JsonNode keystore = kept.get("load.rmiKeystore");
        if (keystore != null && keystore.isTextual()) {
            kept.put("load.rmiKeystore", JsonNodeFactory.instance.textNode(move.apply(keystore.asText())));
        }
        for (Map<String, String> env : environments) {
            if ("bind".equals(env.getOrDefault("volume.type", "").strip())) {
                env.put("volume.source", move.apply(env.getOrDefault("volume.source", "")));
            }
        }
    }

    /** A draft of an experiment file as written (relative paths kept relative), a multi-tenant one's tenants and configurations too. */
    public static ExperimentText fromYaml(String yaml) throws IOException {
        JsonNode root = YAML.readTree(yaml);
        if (root == null || !root.isObject()) {
            throw new IOException(
                    "not an experiment file: its top level is not a mapping (name:, environments:, load:, ...)");
        }
        ExperimentText d = new ExperimentText();
        for (String f : FIELDS) {
            if (f.equals("criteria") || f.equals("load.properties")) {
                continue;
            }
            JsonNode n = at(root, f);
            if (n != null && n.isValueNode()) {
                d.set(f, n.asText());
            }
        }
        for (String path : KEPT) {
            JsonNode n = at(root, path);
            if (n != null) {
                d.kept.put(path, n.deepCopy());
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
            props.fields()
                    .forEachRemaining(e -> s.append(e.getKey())
                            .append('=')
                            .append(e.getValue().asText())
                            .append('\n'));
            d.set("load.properties", s.toString().strip());
        }
        JsonNode criteria = root.path("criteria");
        if (criteria.isArray()) {
            List<String> lines = new ArrayList<>();
            criteria.forEach(c -> lines.add(c.asText()));
            d.set("criteria", String.join("\n", lines));
        }
        if (root.has("tenants")) {
            d.kind = Kind.TENANTS;
            JsonNode tenancy = root.path("tenants");
            for (String f : TENANTS_FIELDS) {
                JsonNode n = at(root, f);
                if (n != null && n.isValueNode()) {
                    d.set(f, n.asText());
                }
            }
            d.tenantsForm = tenancy.has("each") ? TenantsForm.EACH : TenantsForm.SCENARIO;
            for (JsonNode t : tenancy.path("each")) {
                Map<String, String> tenant = new LinkedHashMap<>();
                for (String f : TENANT_FIELDS) {
                    JsonNode n = t.get(f);
                    if (n != null && n.isValueNode()) {
                        tenant.put(f, n.asText());
                    }
                }
                d.addTenant(tenant);
            }
            for (JsonNode c : root.path("configurations")) {
                Map<String, String> configuration = new LinkedHashMap<>();
                for (String f : CONFIGURATION_FIELDS) {
                    JsonNode n = c.get(f);
                    if (n != null && n.isValueNode()) {
                        // YAML 1.1 reads a bare on/off as a boolean: the form says on or off, as the file's README does
                        configuration.put(
                                f,
                                f.equals("interruptSteering") && n.isBoolean()
                                        ? (n.asBoolean() ? "on" : "off")
                                        : n.asText());
                    }
                }
                d.addConfiguration(configuration);
            }
        }
        for (JsonNode e : root.path("environments")) {
            Map<String, String> env = new LinkedHashMap<>();
            for (String f : ENVIRONMENT_FIELDS) {
                JsonNode n = at(e, f);
                if (n != null && n.isValueNode()) {
                    env.put(f, n.asText());
                } else if (n != null && f.equals("services")) {
                    env.put(f, flowYaml(n)); // a mapping per service, edited as one line of YAML
                }
            }
            d.addEnvironment(env);
        }
        return d;
    }

    private ObjectNode tree() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        for (String field : topScalars().subList(0, topScalars().indexOf("repetitions"))) {
            scalar(root, field, get(field));
        }
        if (multiTenant()) {
            tenancy(root);
        }
        ArrayNode envs = multiTenant() ? f.arrayNode() : root.putArray("environments");
        for (Map<String, String> e : environments) {
            environment(envs.addObject(), e);
        }
        for (String field : topScalars()
                .subList(topScalars().indexOf("repetitions"), topScalars().size())) {
            scalar(root, field, get(field));
        }
        writeKept(root, "capacity");
        ObjectNode load = root.putObject("load");
        if (loadKind == LoadKind.COMMAND) {
            ObjectNode command = load.putObject("command");
            for (String field : formNames(Section.COMMAND)) {
                scalar(command, field, get("load.command." + field));
            }
            scalar(command, "durationSeconds", get("load.durationSeconds"));
        } else if (loadKind == LoadKind.HTTP && !multiTenant()) {
            ObjectNode http = load.putObject("http");
            for (String field : formNames(Section.HTTP)) {
                scalar(http, field, get("load.http." + field));
            }
            scalar(http, "warmupSeconds", get("load.warmupSeconds"));
            scalar(http, "durationSeconds", get("load.durationSeconds"));
        } else {
            load.put("plan", get("load.plan").strip()); // also when empty: the reader then names the field
            Map<String, String> props = properties();
            if (!props.isEmpty()) {
                ObjectNode p = load.putObject("properties");
                // an empty value is one too: the plan gets -Jname= (the reader reads name: "" as that)
                props.forEach((k, v) -> {
                    if (v.isEmpty()) {
                        p.put(k, "");
                    } else {
                        scalar(p, k, v);
                    }
                });
            }
            scalar(load, "warmupSeconds", get("load.warmupSeconds"));
            scalar(load, "durationSeconds", get("load.durationSeconds"));
        }
        writeKept(load, "load.engines");
        writeKept(load, "load.rmiKeystore");
        List<String> criteria = get("criteria")
                .lines()
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
        if (!criteria
                .isEmpty()) { // a multi-tenant experiment's name a tenant under a configuration: p90(dynamic/tenant-1)
            ArrayNode c = root.putArray("criteria");
            criteria.forEach(c::add);
        }
        return root;
    }

    /**
     * One environment, its fields in the catalogue's order (as {@link ExperimentWriter} writes them); a bare-metal one
     * carries no container field, and {@code volume:} only with a type ({@code none}: the type alone).
     */
    private static void environment(ObjectNode env, Map<String, String> e) {
        boolean container = inContainer(e.getOrDefault("placement", ""));
        for (String name : ExperimentFields.names(Section.ENVIRONMENT)) {
            switch (name) {
                case "volume" -> {
                    String type = e.getOrDefault("volume.type", "").strip();
                    if (container && !type.isEmpty()) {
                        ObjectNode v = env.putObject("volume");
                        for (String field : ExperimentFields.names(Section.VOLUME)) {
                            if (field.equals("type") || !type.equals("none")) {
                                scalar(v, field, e.getOrDefault("volume." + field, ""));
                            }
                        }
                    }
                }
                case "services" -> {
                    String services = e.getOrDefault("services", "").strip();
                    if (!services.isEmpty()) {
                        env.set("services", yamlOrText(services));
                    }
                }
                case "dockerDaemon" -> {
                    String userlandProxy =
                            e.getOrDefault("dockerDaemon.userlandProxy", "").strip();
                    String storageDriver =
                            e.getOrDefault("dockerDaemon.storageDriver", "").strip();
                    if (!userlandProxy.isEmpty() || !storageDriver.isEmpty()) {
                        ObjectNode daemon = env.putObject("dockerDaemon");
                        if (!userlandProxy.isEmpty()) {
                            scalar(daemon, "userlandProxy", userlandProxy);
                        }
                        if (!storageDriver.isEmpty()) {
                            scalar(daemon, "storageDriver", storageDriver);
                        }
                    }
                }
                default -> {
                    if (container || !CONTAINER_FIELDS.contains(name)) {
                        scalar(env, name, e.getOrDefault(name, ""));
                    }
                }
            }
        }
    }

    /** A field the form has no text for, where the file had it. */
    private void writeKept(ObjectNode node, String path) {
        JsonNode n = kept.get(path);
        if (n != null) {
            node.set(path.substring(path.lastIndexOf('.') + 1), n.deepCopy());
        }
    }

    /**
     * {@code tenants:} (the shared fields, then the scenario's or each tenant's) and {@code configurations:}; a configuration's
     * {@code controlIntervalSeconds} only with {@code cpuControl: dynamic}, {@code high:} only with high tenants, as the form
     * shows them.
     */
    private void tenancy(ObjectNode root) {
        ObjectNode t = root.putObject("tenants");
        List<String> shared = formNames(Section.TENANTS).stream()
                .filter(f -> !f.contains("."))
                .toList();
        // the shared fields before the scenario's (count:, highTenants:), and after them those every tenant may
        // override
        for (String field : shared.subList(0, shared.indexOf("count"))) {
            scalar(t, field, get("tenants." + field));
        }
        if (tenantsForm == TenantsForm.SCENARIO) {
            scalar(t, "count", get("tenants.count"));
            scalar(t, "highTenants", get("tenants.highTenants"));
            boolean highUsed = Stream.concat(
                            Stream.of(get("tenants.highTenants")),
                            configurations.stream().map(c -> c.getOrDefault("highTenants", "")))
                    .map(String::strip)
                    .anyMatch(h -> !h.isEmpty() && !h.equals("0"));
            for (String group : List.of("low", "high")) {
                if (group.equals("high") && !highUsed) {
                    continue;
                }
                ObjectNode g = JsonNodeFactory.instance.objectNode();
                for (String field : ExperimentFields.names(Section.TENANT_GROUP)) {
                    scalar(g, field, get("tenants." + group + "." + field));
                }
                if (!g.isEmpty()) {
                    t.set(group, g);
                }
            }
        } else {
            ArrayNode each = t.putArray("each");
            for (Map<String, String> tenant : tenants) {
                ObjectNode out = each.addObject();
                TENANT_FIELDS.forEach(field -> scalar(out, field, tenant.getOrDefault(field, "")));
            }
        }
        for (String field : shared.subList(shared.indexOf("highTenants") + 1, shared.size())) {
            scalar(t, field, get("tenants." + field));
        }
        ArrayNode list = root.putArray("configurations");
        for (int i = 0; i < configurations.size(); i++) {
            ObjectNode out = list.addObject();
            for (String field : CONFIGURATION_FIELDS) {
                if (!field.equals("controlIntervalSeconds") || hasControlInterval(i)) {
                    scalar(out, field, configurations.get(i).getOrDefault(field, ""));
                }
            }
        }
    }

    /** The top level's fields the form edits as one text, in the file's order (criteria: last, after load:). */
    private static List<String> topScalars() {
        return ExperimentFields.formKeys(Section.TOP).stream()
                .filter(k -> !k.contains(".") && !k.equals("criteria"))
                .toList();
    }

    /** The names of a section's fields the form edits one by one: {@code threads} of {@code load.http.threads}. */
    private static List<String> formNames(Section s) {
        return ExperimentFields.formFields(s).stream().map(f -> f.key()).toList();
    }

    /** {@code load.properties} as typed, one {@code name=value} per line; a line without '=' is kept with an empty value. */
    private Map<String, String> properties() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : get("load.properties")
                .lines()
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList()) {
            int eq = line.indexOf('=');
            m.put(
                    eq < 0 ? line : line.substring(0, eq).strip(),
                    eq < 0 ? "" : line.substring(eq + 1).strip());
        }
        return m;
    }

    /**
     * One line of YAML: {@code { web: { placement: docker, network: bridge } }}. A text YAML would read otherwise in a
     * flow (a comma, a colon, a space, a bracket) is quoted, so the line reads back as the same mapping.
     */
    static String flowYaml(JsonNode n) {
        if (n.isObject()) {
            List<String> parts = new ArrayList<>();
            n.fields().forEachRemaining(f -> parts.add(flowText(f.getKey()) + ": " + flowYaml(f.getValue())));
            return "{ " + String.join(", ", parts) + " }";
        }
        if (n.isArray()) {
            List<String> parts = new ArrayList<>();
            n.forEach(x -> parts.add(flowYaml(x)));
            return "[" + String.join(", ", parts) + "]";
        }
        return n.isTextual() ? flowText(n.asText()) : n.asText();
    }

    private static String flowText(String t) {
        if (t.matches("[A-Za-z0-9_./~+@%][A-Za-z0-9_./~+@%-]*")
                && !t.matches("(?i)true|false|yes|no|on|off|y|n|null")) {
            return t;
        }
        return '"' + t.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** The text as YAML when it reads as a mapping; else as typed, so the reader names the field and says what is wrong. */
    private static JsonNode yamlOrText(String text) {
        try {
            JsonNode n = YAML.readTree(text);
            if (n != null && n.isObject()) {
                return n;
            }
        } catch (IOException e) {
            // as typed: the experiment reader says what a services: entry must be
        }
        return JsonNodeFactory.instance.textNode(text);
    }

    /**
     * A field's text, left out when empty. A number typed as a number stays one in the file ({@code threads: 8}), and
     * so do {@code true} and {@code false}; only when the number writes back as the same text ({@code 08} would come
     * back as 8): the reader reads every field's text as written, so the text is what must survive. Anything else is
     * text, quoted where YAML would read it as a number, and the reader judges it.
     */
    private static void scalar(ObjectNode node, String field, String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return;
        }
        if (t.equals("true") || t.equals("false")) {
            node.put(field, Boolean.parseBoolean(t));
        } else if (t.matches("-?\\d{1,18}") && Long.toString(Long.parseLong(t)).equals(t)) {
            node.put(field, Long.parseLong(t));
        } else if (t.matches("-?\\d+\\.\\d+") && new BigDecimal(t).toString().equals(t)) {
            node.put(field, new BigDecimal(t));
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
