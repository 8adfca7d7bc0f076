package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.VolumeMount;
import io.envbench.measure.engines.RemoteEngine;
import io.envbench.measure.engines.RemoteEngines;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.study.experiment.YamlTree.Mapping;
import io.envbench.study.experiment.YamlTree.Node;
import io.envbench.study.experiment.YamlTree.Scalar;
import io.envbench.study.experiment.YamlTree.Sequence;
import io.envbench.base.recipe.ServicePlacement;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.base.units.LocalPorts;
import io.envbench.base.units.MemorySize;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Turns the located YAML tree into an {@link Experiment}. Types are checked here; everything else is checked by
 * the records and the core's validators (the same messages as the JMeter GUI), whose field names this maps back
 * to the file's field paths and lines.
 */
final class ExperimentReader {
    private static final Pattern WHOLE = Pattern.compile("[-+]?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");

    private final Path file;
    private final Path targetsDir;
    private final Node root;
    private final Map<String, Integer> lines = new HashMap<>();
    private final Set<String> checkedTargets = new HashSet<>();

    ExperimentReader(Path file, Path targetsDir, Node root) {
        this.file = file;
        this.targetsDir = targetsDir;
        this.root = root;
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

    Experiment experiment() throws ExperimentException {
        Mapping top = mapping(root, "the experiment's fields: name:, environments:, load: and the others in testplans/experiments/README.md");
        checkFields(top, TOP);
        String name = requiredText(top, NAME, "the experiment's name, e.g. static-web");
        String description = scalar(top, DESCRIPTION, "a line of text").map(Scalar::text).orElse("");
        Optional<Scalar> target = scalar(top, TARGET, "a target recipe under targets/, e.g. nginx-static");
        if (target.isPresent()) {
            checkTarget(target.get());
        }
        Optional<Scalar> portNode = scalar(top, PORT, "a TCP port on 127.0.0.1, e.g. 18080");
        int port = portNode.isEmpty() ? Experiment.DEFAULT_PORT : wholeInt(portNode.get(), "a TCP port on 127.0.0.1, e.g. 18080");
        if (portNode.isPresent()) {
            at(portNode.get(), () -> {
                LocalPorts.checkRange(PORT, port);
                return port;
            });
        }
        Duration readyTimeout = optionalSeconds(top, READY_TIMEOUT_SECONDS, "how long a target may take to get ready, in seconds, e.g. 60")
                .orElse(Experiment.DEFAULT_READY_TIMEOUT);
        boolean multiTenant = top.fields().containsKey(TENANTS);
        if (!multiTenant && top.fields().containsKey(CONFIGURATIONS)) {
            throw fail(top.fields().get(CONFIGURATIONS), "only goes with tenants: (a multi-tenant experiment); remove it, or add tenants:");
        }
        if (multiTenant && top.fields().containsKey(ENVIRONMENTS)) {
            throw fail(top.fields().get(ENVIRONMENTS), "a multi-tenant experiment (tenants:) runs its tenants under each of its "
                    + "configurations:, not environments; remove environments:");
        }
        List<EnvironmentPlan> environments = multiTenant ? List.of() : environments(top, target, port, readyTimeout);
        Optional<Tenancy> tenancy = multiTenant ? Optional.of(tenancy(top, target, port, readyTimeout)) : Optional.empty();
        LoadPlan load = load(top);
        if (load.command().isEmpty()) {
            for (Node env : field(top, ENVIRONMENTS).filter(n -> n instanceof Sequence).map(n -> ((Sequence) n).items()).orElse(List.of())) {
                if (env instanceof Mapping m && m.fields().containsKey(CLIENT)) {
                    throw fail(m.fields().get(CLIENT), "only applies to a command load (load: command:), which it places; remove it");
                }
            }
        }
        if (multiTenant && load.plan().isEmpty()) {
            throw fail(top.fields().get(LOAD), "a multi-tenant experiment loads every tenant with its own thread group of a JMeter plan; "
                    + "give plan: ../daytrader.jmx with warmupSeconds: and durationSeconds: (not http: or command:)");
        }
        if (multiTenant) {
            checkOneThreadGroup(scalar(mapping(top.fields().get(LOAD), "the load"), PLAN, "a plan").orElseThrow(), load.plan().get());
        }
        String repetitionsHelp = "how many times to run each environment, e.g. 4";
        int repetitions = scalar(top, REPETITIONS, repetitionsHelp).isEmpty() ? Experiment.DEFAULT_REPETITIONS
                : wholeInt(scalar(top, REPETITIONS, repetitionsHelp).get(), repetitionsHelp);
        Optional<Scalar> orderNode = scalar(top, ORDER, "interleaved or randomized");
        RunOrder order = orderNode.isEmpty() ? Experiment.DEFAULT_ORDER : at(orderNode.get(), () -> RunOrder.parse(ORDER, orderNode.get().text()));
        Optional<Scalar> seedNode = scalar(top, SEED, "a whole number that fixes the randomized order, e.g. 1");
        long seed = seedNode.isEmpty() ? Experiment.DEFAULT_SEED : wholeNumber(seedNode.get(), "a whole number that fixes the randomized order, e.g. 1");
        String baseline = scalar(top, BASELINE, "the environment the others are compared with, e.g. bare").map(Scalar::text)
                .orElse(tenancy.map(t -> t.configurationNames().contains("none") ? "none" : t.configurationNames().get(0))
                        .orElseGet(() -> Experiment.defaultBaseline(environments)));
        // a multi-tenant experiment's criteria name a tenant under a configuration: p90(dynamic/tenant-1)
        List<Criterion> criteria = criteria(top, tenancy.map(Tenancy::criterionNames)
                .orElseGet(() -> environments.stream().map(EnvironmentPlan::name).toList()));
        if (load.command().isPresent() && !criteria.isEmpty()) {
            throw fail(top.fields().get(CRITERIA), "criteria compare JMeter's figures, and a command load has none; remove criteria: "
                    + "(the command's report compares its own figures)");
        }
        return located(f -> f, () -> new Experiment(name, description, environments, load, repetitions, order, seed, baseline, criteria, file,
                tenancy));
    }

    // --- a multi-tenant experiment ---

    /** A tenant as read, before its container is defined. */
    private record TenantRead(Node at, int threads, Scalar threadsNode, double requestsPerSecond, java.util.OptionalLong goalMs,
                              Optional<Scalar> cpuset, Optional<Scalar> network, Optional<Scalar> memory, boolean high) {
    }

    private Tenancy tenancy(Mapping top, Optional<Scalar> target, int port, Duration readyTimeout) throws ExperimentException {
        String help = "the tenants: count: with low:, high: and highTenants: (the paper's scenarios), or each: (a list of tenants)";
        Mapping m = mapping(required(top, TENANTS, help), help);
        checkFields(m, TENANTS_FIELDS);
        Scalar targetNode = target.orElseThrow(() -> fail(YamlTree.child("", TARGET), "is missing; a multi-tenant experiment names the "
                + "target every tenant runs at the top, e.g. target: daytrader"));
        checkTenantTarget(targetNode);
        int hostCpus = CpuSet.online().size();
        String cpusHelp = "how many CPUs the tenants share (CPUs 0 to cpus-1), e.g. " + hostCpus;
        Optional<Scalar> cpusNode = scalar(m, TENANT_CPUS, cpusHelp);
        int cpus = cpusNode.isEmpty() ? hostCpus : wholeInt(cpusNode.get(), cpusHelp);
        if (cpusNode.isPresent() && (cpus < 1 || cpus > CpuSet.MAX_CPU + 1)) {
            throw fail(cpusNode.get(), cpus + " is not a number of CPUs; give " + cpusHelp);
        }
        int users = boundedInt(m, USERS, Tenancy.DEFAULT_USERS, 1, Tenancy.MAX_USERS, "users in each tenant's database (every thread is one), e.g. 200");
        int quotes = boundedInt(m, QUOTES, Tenancy.DEFAULT_QUOTES, 1, Tenancy.MAX_QUOTES, "quotes in each tenant's database, e.g. 400");
        Optional<Scalar> network = scalar(m, NETWORK, "bridge or host");
        Optional<Scalar> memory = scalar(m, MEMORY, "a size such as 512m");
        boolean preset = m.fields().containsKey(COUNT);
        boolean written = m.fields().containsKey(EACH);
        if (preset && written) {
            throw fail(m.fields().get(EACH), "goes instead of count:; keep one (count: with low:/high:, or each: a list)");
        }
        if (!preset && !written) {
            throw fail(YamlTree.child(m.path(), COUNT), "is missing; give " + help);
        }
        List<TenantRead> read = new ArrayList<>();
        if (written) {
            for (String presetOnly : List.of(LOW, HIGH, HIGH_TENANTS)) {
                if (m.fields().containsKey(presetOnly)) {
                    throw fail(m.fields().get(presetOnly), "only goes with count:; write the tenant's load in its each: entry instead");
                }
            }
            Node each = required(m, EACH, "a list of tenants, e.g. - { threads: 4, requestsPerSecond: 50 }");
            if (!(each instanceof Sequence list) || list.items().isEmpty()) {
                throw fail(each, "is " + YamlTree.kind(each) + "; give a list of tenants, one '- { threads: 4, requestsPerSecond: 50 }' each");
            }
            for (Node item : list.items()) {
                Mapping t = mapping(item, "a tenant: threads:, requestsPerSecond: and optionally name:, responseTimeGoalMs:, cpuset:");
                checkFields(t, TENANT_FIELDS);
                Optional<Scalar> nameNode = scalar(t, NAME, "tenant-N");
                String expected = Tenancy.name(read.size() + 1);
                if (nameNode.isPresent() && !nameNode.get().text().equals(expected)) {
                    throw fail(nameNode.get(), "'" + nameNode.get().text() + "' must be " + expected + ": tenants are named tenant-1 .. "
                            + "tenant-N in order (or leave name: out)");
                }
                Optional<Scalar> highNode = scalar(t, HIGH, "true or false");
                boolean high = highNode.isPresent() && at(highNode.get(), () -> TenantConfiguration.parseOnOff(HIGH, highNode.get().text()));
                read.add(tenantLoad(t, scalar(t, CPUSET, "CPU numbers, e.g. \"0\""), scalar(t, NETWORK, "bridge or host").or(() -> network),
                        scalar(t, MEMORY, "a size such as 512m").or(() -> memory), high));
            }
        } else {
            Scalar countNode = scalar(m, COUNT, "the number of tenants, e.g. 4").orElseThrow(() -> fail(m.fields().get(COUNT),
                    "is empty; give the number of tenants, e.g. 4"));
            int count = wholeInt(countNode, "the number of tenants, e.g. 4");
            if (count < 1 || count > Tenancy.MAX_TENANTS) {
                throw fail(countNode, count + " is outside 1 to " + Tenancy.MAX_TENANTS + "; give the number of tenants, e.g. 4");
            }
            Optional<Scalar> highNode = scalar(m, HIGH_TENANTS, "how many of the tenants run the high load, e.g. 1");
            int high = highNode.isEmpty() ? 0 : wholeInt(highNode.get(), "how many of the tenants run the high load, e.g. 1");
            if (highNode.isPresent() && (high < 0 || high > count)) {
                throw fail(highNode.get(), high + " is outside 0 to count (" + count + "); give how many tenants (the last ones) run the "
                        + "high load: 0 (scenario 1), 1 (scenario 2), 2 (scenario 3)");
            }
            if (high > 0 && field(m, HIGH).isEmpty()) {
                throw fail(YamlTree.child(m.path(), HIGH), "is missing; highTenants: " + high + " needs the high load, e.g. "
                        + "high: { threads: 8, requestsPerSecond: 0 }");
            }
            if (high == 0 && field(m, HIGH).isPresent()) {
                throw fail(m.fields().get(HIGH), "is not used: highTenants is 0; give highTenants: (1 for scenario 2, 2 for scenario 3), "
                        + "or remove high:");
            }
            if (high < count && field(m, LOW).isEmpty()) {
                throw fail(YamlTree.child(m.path(), LOW), "is missing; give the low load of tenant-1 .. tenant-" + (count - high)
                        + ", e.g. low: { threads: 2, requestsPerSecond: 40 }");
            }
            for (int i = 0; i < count; i++) {
                boolean isHigh = i >= count - high;
                Node groupNode = field(m, isHigh ? HIGH : LOW).orElseThrow();
                Mapping g = mapping(groupNode, "a tenant load: threads:, requestsPerSecond: and optionally responseTimeGoalMs:");
                checkFields(g, TENANT_GROUP_FIELDS);
                read.add(tenantLoad(g, Optional.empty(), network, memory, isHigh));
            }
        }
        List<TenantPlan> tenants = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            TenantRead r = read.get(i);
            String name = Tenancy.name(i + 1);
            int tenantPort = port + i;
            if (tenantPort > 65535) {
                throw fail(YamlTree.child("", PORT), port + " leaves no port for " + name + " (" + tenantPort + " is above 65535): tenant-N "
                        + "listens on port + N - 1; give a lower port, e.g. 18081");
            }
            if (r.threads() > users) {
                throw fail(r.threadsNode(), r.threads() + " threads are above tenants.users (" + users + "): each thread logs in as its "
                        + "own user; raise users: or lower threads");
            }
            ContainerOptions.Builder options = ContainerOptions.builder();
            if (r.network().isPresent()) {
                Scalar n = r.network().get();
                options.networkMode(at(n, () -> NetworkMode.parse(NETWORK, n.text())));
            }
            if (r.memory().isPresent()) {
                Scalar mem = r.memory().get();
                long bytes = at(mem, () -> MemorySize.parseContainerLimit(MEMORY, mem.text()));
                at(mem, () -> options.memoryBytes(bytes));
            }
            if (r.cpuset().isPresent()) {
                Scalar c = r.cpuset().get();
                CpuSet set = at(c, () -> CpuSet.parseForHost(CPUSET, c.text()));
                int highest = set.cpus().get(set.cpus().size() - 1);
                if (highest >= cpus) {
                    throw fail(c, "'" + c.text() + "' names CPU " + highest + ", outside the tenants' CPUs 0-" + (cpus - 1)
                            + " (tenants.cpus: " + cpus + "); give CPUs below " + cpus);
                }
                options.cpuset(set);
            }
            String database = "daytrader_" + name.replace('-', '_');
            options.env("DB_NAME", database).env("DB_USER", database);
            EnvironmentDefinition definition = located(f -> f.equals(PORT) ? PORT : r.at().path(),
                    () -> new EnvironmentDefinition(name, targetNode.text(), EnvironmentDefinition.Placement.DOCKER, options.build(),
                            tenantPort, readyTimeout));
            tenants.add(located(f -> YamlTree.child(r.at().path(), f),
                    () -> new TenantPlan(name, definition, r.threads(), r.requestsPerSecond(), r.goalMs(), r.high())));
        }
        List<TenantConfiguration> configurations = configurations(top);
        return located(f -> f.startsWith(TENANTS) || f.startsWith(CONFIGURATIONS) ? f : YamlTree.child(TENANTS, f),
                () -> new Tenancy(cpus, users, quotes, tenants, configurations));
    }

    private TenantRead tenantLoad(Mapping t, Optional<Scalar> cpuset, Optional<Scalar> network, Optional<Scalar> memory, boolean high)
            throws ExperimentException {
        String threadsHelp = "the tenant's concurrent users, e.g. 4";
        Scalar threadsNode = requiredScalar(t, THREADS, threadsHelp);
        int threads = wholeInt(threadsNode, threadsHelp);
        String rateHelp = "the tenant's requests per second (all its threads), or 0 for a closed loop";
        Optional<Scalar> rateNode = scalar(t, REQUESTS_PER_SECOND, rateHelp);
        double rate = rateNode.isEmpty() ? 0 : decimal(rateNode.get(), rateHelp);
        String goalHelp = "the tenant's response-time goal in whole milliseconds, e.g. 50";
        Optional<Scalar> goalNode = scalar(t, RESPONSE_TIME_GOAL_MS, goalHelp);
        java.util.OptionalLong goal = goalNode.isEmpty() ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(wholeNumber(goalNode.get(), goalHelp));
        // the record's own checks (threads, rate, goal) are reported at this mapping's fields
        located(f -> YamlTree.child(t.path(), f), () -> new TenantPlan("tenant-1", new EnvironmentDefinition("tenant-1", "check",
                EnvironmentDefinition.Placement.DOCKER, null, 0, Duration.ofSeconds(1)), threads, rate, goal, high));
        return new TenantRead(t, threads, threadsNode, rate, goal, cpuset, network, memory, high);
    }

    private List<TenantConfiguration> configurations(Mapping top) throws ExperimentException {
        String example = "one '- { name: none, cpuControl: none }' entry per configuration";
        Node node = required(top, CONFIGURATIONS, "the configurations to compare, " + example);
        if (!(node instanceof Sequence list) || list.items().isEmpty()) {
            throw fail(node, "is " + YamlTree.kind(node) + "; give a list, " + example);
        }
        List<TenantConfiguration> configurations = new ArrayList<>();
        for (Node item : list.items()) {
            Mapping m = mapping(item, "a configuration: name:, cpuControl: (none, static, dynamic), interruptSteering: (off, on)");
            checkFields(m, CONFIGURATION_FIELDS);
            String name = requiredText(m, NAME, "the configuration's name, e.g. static");
            Optional<Scalar> control = scalar(m, CPU_CONTROL, "none, static or dynamic");
            CpuControlMode cpuControl = control.isEmpty() ? CpuControlMode.NONE
                    : at(control.get(), () -> CpuControlMode.parse(CPU_CONTROL, control.get().text()));
            Optional<Scalar> steering = scalar(m, INTERRUPT_STEERING, "off or on");
            boolean steer = steering.isPresent() && at(steering.get(), () -> TenantConfiguration.parseOnOff(INTERRUPT_STEERING, steering.get().text()));
            Optional<Scalar> intervalNode = scalar(m, CONTROL_INTERVAL_SECONDS, "seconds between the dynamic controller's looks, 1 to 10");
            if (intervalNode.isPresent() && cpuControl != CpuControlMode.DYNAMIC) {
                throw fail(intervalNode.get(), "only applies to cpuControl: dynamic; remove it, or set cpuControl: dynamic");
            }
            Duration interval = intervalNode.isEmpty() ? TenantConfiguration.DEFAULT_CONTROL_INTERVAL
                    : seconds(intervalNode.get(), "seconds between the dynamic controller's looks, 1 to 10, e.g. 5");
            configurations.add(located(f -> YamlTree.child(m.path(), f),
                    () -> new TenantConfiguration(name, cpuControl, steer, interval)));
        }
        return configurations;
    }

    /** A tenant target must come with a database script (db.sh, as targets/daytrader's): every run rebuilds each tenant's database. */
    private void checkTenantTarget(Scalar target) throws ExperimentException {
        checkTarget(target);
        if (!Files.isRegularFile(targetsDir.resolve(target.text()).resolve("db.sh"))) {
            throw fail(target, "'" + target.text() + "' has no db.sh: tenants need a target whose database is rebuilt before every run, "
                    + "as targets/daytrader's; use target: daytrader");
        }
    }

    private int boundedInt(Mapping m, String key, int dflt, int min, int max, String help) throws ExperimentException {
        Optional<Scalar> node = scalar(m, key, help);
        if (node.isEmpty()) {
            return dflt;
        }
        int v = wholeInt(node.get(), help);
        if (v < min || v > max) {
            throw fail(node.get(), v + " is outside " + min + " to " + max + "; give " + help);
        }
        return v;
    }

    private void checkOneThreadGroup(Scalar node, Path plan) throws ExperimentException {
        int groups;
        try {
            groups = LoadPlan.threadGroups(plan);
        } catch (java.io.IOException e) {
            throw fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        if (groups != 1) {
            throw fail(node, "'" + node.text() + "' has " + groups + " thread groups; a multi-tenant plan has exactly one, which every "
                    + "tenant runs as its own copy (reading envbench.host, envbench.port, envbench.threads and envbench.rate.per.minute), "
                    + "e.g. ../daytrader.jmx");
        }
    }

    private List<EnvironmentPlan> environments(Mapping top, Optional<Scalar> defaultTarget, int port, Duration readyTimeout)
            throws ExperimentException {
        String example = "one '- name: ...' entry per environment, e.g. - { name: bare, placement: bare }";
        Node node = required(top, ENVIRONMENTS, "a list of environments, " + example);
        if (!(node instanceof Sequence list)) {
            throw fail(node, "is " + YamlTree.kind(node) + "; give a list of environments, " + example);
        }
        if (list.items().isEmpty()) {
            throw fail(node, "is empty; add at least one environment, " + example);
        }
        List<EnvironmentPlan> plans = new ArrayList<>();
        for (Node item : list.items()) {
            plans.add(environment(item, defaultTarget, port, readyTimeout));
        }
        return plans;
    }

    private EnvironmentPlan environment(Node item, Optional<Scalar> defaultTarget, int port, Duration readyTimeout) throws ExperimentException {
        Mapping m = mapping(item, "an environment: name:, placement: and, for Docker, its options");
        checkFields(m, ENVIRONMENT);
        String name = requiredText(m, NAME, "the environment's name, e.g. docker-bridge");
        EnvironmentDefinition.Placement runtime = placement(m);
        Optional<Scalar> ownTarget = scalar(m, TARGET, "a target recipe under targets/, e.g. nginx-static");
        Scalar target = ownTarget.or(() -> defaultTarget).orElseThrow(() -> fail(YamlTree.child(m.path(), TARGET),
                "is missing; name a recipe under targets/ (" + String.join(", ", TargetRecipe.available(targetsDir))
                        + ") here, or once for all environments as target: at the top"));
        checkTarget(target);

        ContainerOptions.Builder options = containerOptions(m);
        Map<String, ServicePlacement> services = services(m, target);
        Optional<Scalar> clientNode = scalar(m, CLIENT, "inside, host or container");
        io.envbench.study.experiment.ClientPlace client = clientNode.isEmpty() ? io.envbench.study.experiment.ClientPlace.INSIDE
                : at(clientNode.get(), () -> io.envbench.study.experiment.ClientPlace.parse(CLIENT, clientNode.get().text()));
        if (client != io.envbench.study.experiment.ClientPlace.INSIDE && runtime == EnvironmentDefinition.Placement.DOCKER
                && !TargetRecipe.load(targetsDir, target.text()).hasPort()) {
            throw fail(clientNode.get(), client.yamlName() + " reaches the target on its port, and target " + target.text()
                    + " serves on none; use client: inside, or a target with a port (container.port in its target.properties)");
        }
        Function<String, String> definitionField = f -> switch (f) {
            case "environment" -> YamlTree.child(m.path(), NAME);
            case PORT, READY_TIMEOUT_SECONDS, TARGET -> f;
            default -> YamlTree.child(m.path(), f);
        };
        EnvironmentDefinition definition = located(definitionField,
                () -> new EnvironmentDefinition(name, target.text(), runtime, options.build(), port, readyTimeout, services));
        Optional<io.envbench.launch.dockerdaemon.DaemonSettings> daemon = dockerDaemon(m);
        return located(f -> YamlTree.child(m.path(), f), () -> new EnvironmentPlan(name, definition, client, daemon));
    }

    /** {@code dockerDaemon: { userlandProxy: false }}: the daemon settings the environment's runs need. */
    private Optional<io.envbench.launch.dockerdaemon.DaemonSettings> dockerDaemon(Mapping environment) throws ExperimentException {
        Optional<Node> node = field(environment, DOCKER_DAEMON);
        if (node.isEmpty()) {
            return Optional.empty();
        }
        Mapping m = mapping(node.get(), "the Docker daemon's settings for this environment's runs, e.g. { userlandProxy: false }");
        checkFields(m, List.of(USERLAND_PROXY));
        Scalar proxy = requiredScalar(m, USERLAND_PROXY, "true (docker-proxy carries published ports, Docker's default) or false (iptables NAT)");
        String t = proxy.text().trim();
        if (!t.equals("true") && !t.equals("false")) {
            throw fail(proxy, "'" + proxy.text() + "' is neither true nor false; use false (published ports through iptables NAT, no "
                    + "docker-proxy) or true (Docker's default)");
        }
        return Optional.of(new io.envbench.launch.dockerdaemon.DaemonSettings(Boolean.parseBoolean(t)));
    }

    /** {@code placement:} of an environment or a service; a bare one with a container's field is refused, naming the field. */
    private EnvironmentDefinition.Placement placement(Mapping m) throws ExperimentException {
        Scalar placement = requiredScalar(m, PLACEMENT, "bare or docker");
        EnvironmentDefinition.Placement where = at(placement, () -> EnvironmentDefinition.Placement.parse(PLACEMENT, placement.text()));
        if (where == EnvironmentDefinition.Placement.BARE) {
            for (String field : CONTAINER) {
                if (m.fields().containsKey(field)) {
                    throw fail(m.fields().get(field), "only applies to placement: docker; remove it, or set placement: docker");
                }
            }
        }
        return where;
    }

    /** A container's fields (network:, volume:, cpuset:, cpus:, cpuShares:, memory:) of an environment or a service. */
    private ContainerOptions.Builder containerOptions(Mapping m) throws ExperimentException {
        ContainerOptions.Builder options = ContainerOptions.builder();
        Optional<Scalar> network = scalar(m, NETWORK, "bridge or host");
        if (network.isPresent()) {
            options.networkMode(at(network.get(), () -> NetworkMode.parse(NETWORK, network.get().text())));
        }
        Optional<Node> volume = field(m, VOLUME);
        if (volume.isPresent()) {
            options.volume(volume(volume.get()));
        }
        Optional<Scalar> cpuset = scalar(m, CPUSET, "CPU numbers, e.g. \"0-1\"");
        if (cpuset.isPresent()) {
            options.cpuset(at(cpuset.get(), () -> CpuSet.parseForHost(CPUSET, cpuset.get().text())));
        }
        Optional<Scalar> cpus = scalar(m, CPUS, "a number of cores, e.g. 1.5");
        if (cpus.isPresent()) {
            double cores = decimal(cpus.get(), "a number of cores, e.g. 1.5");
            at(cpus.get(), () -> options.cpus(cores));
        }
        Optional<Scalar> shares = scalar(m, CPU_SHARES, "a relative weight, e.g. 512");
        if (shares.isPresent()) {
            int weight = wholeInt(shares.get(), "a relative weight, e.g. 512");
            at(shares.get(), () -> options.cpuShares(weight));
        }
        Optional<Scalar> memory = scalar(m, MEMORY, "a size such as 512m or 1g");
        if (memory.isPresent()) {
            long bytes = at(memory.get(), () -> MemorySize.parseContainerLimit(MEMORY, memory.get().text()));
            at(memory.get(), () -> options.memoryBytes(bytes));
        }
        return options;
    }

    /**
     * An environment's {@code services:}: a multi-service target's services placed otherwise than the environment,
     * each {@code NAME: { placement: bare|docker, and for docker its container's fields }}.
     */
    private Map<String, ServicePlacement> services(Mapping environment, Scalar target) throws ExperimentException {
        Optional<Node> node = field(environment, SERVICES);
        if (node.isEmpty()) {
            return Map.of();
        }
        String example = "e.g. services: { web: { placement: docker, network: bridge } }";
        Mapping m = mapping(node.get(), "each service placed otherwise than the environment, " + example);
        TargetRecipe recipe = TargetRecipe.load(targetsDir, target.text());
        if (!recipe.hasServices()) {
            throw fail(node.get(), "target " + target.text() + " is a single server, not several services; remove services:");
        }
        List<String> names = recipe.services().stream().map(io.envbench.base.recipe.ServiceRecipe::name).toList();
        Map<String, ServicePlacement> out = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : m.fields().entrySet()) {
            if (!names.contains(e.getKey())) {
                throw fail(e.getValue(), "'" + e.getKey() + "' is not a service of target " + target.text() + "; its services are "
                        + String.join(", ", names));
            }
            Mapping sm = mapping(e.getValue(), "the service's placement: bare or docker, and for docker its container's fields, " + example);
            checkFields(sm, SERVICE);
            if (placement(sm) == EnvironmentDefinition.Placement.BARE) {
                out.put(e.getKey(), ServicePlacement.bare());
            } else {
                ContainerOptions.Builder options = containerOptions(sm);
                out.put(e.getKey(), at(sm.fields().get(PLACEMENT), () -> ServicePlacement.container(options.build())));
            }
        }
        return out;
    }

    private VolumeMount volume(Node node) throws ExperimentException {
        Mapping m = mapping(node, "a mapping such as { type: tmpfs, path: /var/cache/nginx } (type none, bind, named or tmpfs)");
        checkFields(m, VOLUME_FIELDS);
        Optional<Scalar> type = scalar(m, VOLUME_TYPE, "none, bind, named or tmpfs");
        VolumeMount.Kind kind = type.isEmpty() ? VolumeMount.Kind.NONE
                : at(type.get(), () -> VolumeMount.parseKind(VOLUME_TYPE, type.get().text()));
        Optional<Scalar> source = scalar(m, VOLUME_SOURCE, "a host folder (bind) or a volume name (named)");
        Optional<Scalar> path = scalar(m, VOLUME_PATH, "an absolute path inside the container, e.g. /var/cache/nginx");
        boolean takesSource = kind == VolumeMount.Kind.BIND || kind == VolumeMount.Kind.NAMED;
        if (source.isPresent() && !takesSource) {
            throw fail(source.get(), "only applies to type: bind or named; remove it, or change the type");
        }
        if (path.isPresent() && kind == VolumeMount.Kind.NONE) {
            throw fail(path.get(), "only applies to type: bind, named or tmpfs; remove it, or set a type");
        }
        if (kind == VolumeMount.Kind.NONE) {
            return VolumeMount.NONE;
        }
        if (path.isEmpty()) {
            throw fail(YamlTree.child(m.path(), VOLUME_PATH), "is missing; give the absolute path inside the container, e.g. /var/cache/nginx");
        }
        if (takesSource && source.isEmpty()) {
            throw fail(YamlTree.child(m.path(), VOLUME_SOURCE), kind == VolumeMount.Kind.BIND
                    ? "is missing; give the host folder to mount, relative to this file or absolute"
                    : "is missing; give a volume name, e.g. envbench-data");
        }
        String sourceText = source.map(Scalar::text).orElse("");
        if (kind == VolumeMount.Kind.BIND) {
            // like plan:, a host folder is relative to the experiment file, so the file works from any directory
            Path folder = resolve(source.get());
            // Docker would make a missing folder, owned by root, and mount it empty: never behind the user's back
            if (!Files.exists(folder)) {
                throw fail(source.get(), "'" + source.get().text() + "' does not exist (looked for " + folder + "); create the folder "
                        + "first, or give an existing one, relative to this file or absolute");
            }
            sourceText = folder.toString();
        }
        String finalSource = sourceText;
        return located(f -> switch (f) {
            case "volumePath" -> YamlTree.child(m.path(), VOLUME_PATH);
            case "volumeSource" -> YamlTree.child(m.path(), VOLUME_SOURCE);
            default -> m.path();
        }, () -> new VolumeMount(kind, finalSource, path.get().text()));
    }

    private LoadPlan load(Mapping top) throws ExperimentException {
        Node node = required(top, LOAD, "the load: http: (the built-in HTTP load) or plan: (a JMeter plan)");
        Mapping m = mapping(node, "the load: http: (the built-in HTTP load) or plan: (a JMeter plan)");
        checkFields(m, LOAD_FIELDS);
        Optional<Node> commandNode = field(m, COMMAND);
        if (commandNode.isPresent()) {
            return commandLoad(m, commandNode.get());
        }
        Optional<Node> httpNode = field(m, HTTP);
        Optional<Scalar> planNode = scalar(m, PLAN, "a JMeter plan (.jmx), relative to this file");
        Optional<HttpLoad> http = Optional.empty();
        Duration warmup = Duration.ZERO;
        Duration duration = Duration.ZERO;
        if (httpNode.isPresent()) {
            for (String planOnly : List.of(WARMUP_SECONDS, DURATION_SECONDS)) {
                if (m.fields().containsKey(planOnly) && planNode.isEmpty()) {
                    throw fail(m.fields().get(planOnly), "belongs inside http: with the built-in load; move it to load.http." + planOnly);
                }
            }
            http = Optional.of(httpLoad(httpNode.get()));
            warmup = http.get().warmup();
            duration = http.get().duration();
        } else if (planNode.isPresent()) {
            warmup = optionalSeconds(m, WARMUP_SECONDS, "seconds at the start of each run left out of the figures, e.g. 5").orElse(Duration.ZERO);
            duration = requiredSeconds(m, DURATION_SECONDS, "how long the plan runs, in seconds, warm-up included, e.g. 60");
        }
        Optional<Path> plan = planNode.isEmpty() ? Optional.empty() : Optional.of(resolve(planNode.get()));
        Map<String, String> properties = properties(m);
        Optional<HttpLoad> finalHttp = http;
        Duration finalWarmup = warmup;
        Duration finalDuration = duration;
        RemoteEngines engines = engines(m);
        LoadPlan load = located(f -> f.equals(LOAD) ? LOAD : YamlTree.child(LOAD, f),
                () -> new LoadPlan(plan, properties, finalHttp, finalWarmup, finalDuration, engines));
        // after the record's checks, so "has both http: and plan:" comes before "the plan does not exist"
        if (planNode.isPresent()) {
            checkPlanFile(planNode.get(), plan.get());
            if (!engines.none()) {
                checkPlanSendsEngineMetrics(planNode.get(), plan.get());
            }
        }
        return load;
    }

    /** {@code load: command:}: a program run in each environment; nothing else may stand beside it under load:. */
    private LoadPlan commandLoad(Mapping load, Node node) throws ExperimentException {
        for (String other : List.of(HTTP, PLAN, PROPERTIES, WARMUP_SECONDS, DURATION_SECONDS, ENGINES, RMI_KEYSTORE)) {
            if (load.fields().containsKey(other)) {
                throw fail(load.fields().get(other), other.equals(DURATION_SECONDS) ? "belongs inside command: with a command load; move "
                        + "it to load.command." + DURATION_SECONDS : "cannot stand beside command:; keep one load (command: a program run "
                        + "in each environment, http: the built-in HTTP load, plan: a JMeter plan)");
            }
        }
        Mapping m = mapping(node, "a command load: run:, output: (bonnie++), durationSeconds: and optionally bareMemory:");
        checkFields(m, COMMAND_FIELDS);
        Scalar run = scalar(m, RUN, "the program and its arguments").orElseThrow(() -> fail(m, "has no run:; give the program and "
                + "its arguments, e.g. run: ./bonnie.sh -s 1024 -r 512"));
        List<String> command = CommandLoad.words(run.text());
        Scalar outputNode = scalar(m, OUTPUT, "how the output is read: bonnie++").orElseThrow(() -> fail(m, "has no output:; say how "
                + "the program's output is read, e.g. output: bonnie++"));
        io.envbench.study.experiment.CommandOutput output = at(outputNode, () -> io.envbench.study.experiment.CommandOutput.parse(OUTPUT, outputNode.text()));
        Optional<Scalar> memoryNode = scalar(m, BARE_MEMORY, "a size such as 512m or 1g");
        java.util.OptionalLong bareMemory = memoryNode.isEmpty() ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(at(memoryNode.get(), () -> MemorySize.parseBytes(BARE_MEMORY, memoryNode.get().text())));
        Duration duration = requiredSeconds(m, DURATION_SECONDS, "how long one run of the program takes, in seconds, e.g. 60");
        CommandLoad c = located(f -> YamlTree.child(m.path(), f), () -> new CommandLoad(command, output, bareMemory, duration));
        return LoadPlan.command(c);
    }

    /** {@code engines: [HOST:PORT, ...]} and {@code rmiKeystore: FILE}; neither: the runner's own JMeter. */
    private RemoteEngines engines(Mapping load) throws ExperimentException {
        String example = "a list of JMeter engines (jmeter-server) as HOST:PORT, e.g. [127.0.0.1:1099, 127.0.0.1:1100]";
        Optional<Node> node = field(load, ENGINES);
        Optional<Scalar> keystoreNode = scalar(load, RMI_KEYSTORE, "the RMI keystore the engines use, relative to this file");
        List<RemoteEngine> engines = new ArrayList<>();
        if (node.isPresent()) {
            if (!(node.get() instanceof Sequence list)) {
                throw fail(node.get(), "is " + YamlTree.kind(node.get()) + "; give " + example);
            }
            if (list.items().isEmpty()) {
                throw fail(node.get(), "is empty; give " + example + ", or remove it to run the load in one local JMeter");
            }
            for (Node item : list.items()) {
                if (!(item instanceof Scalar s) || s.empty()) {
                    throw fail(item, "is " + YamlTree.kind(item) + "; give an engine as HOST:PORT, e.g. 127.0.0.1:1099");
                }
                engines.add(at(item, () -> RemoteEngine.parse(s.text())));
            }
        }
        Optional<Path> keystore = Optional.empty();
        if (keystoreNode.isPresent()) {
            Path file = resolve(keystoreNode.get());
            if (!Files.isRegularFile(file)) {
                throw fail(keystoreNode.get(), "'" + keystoreNode.get().text() + "' does not exist (looked for " + file + "); give the "
                        + "keystore the engines were started with (server.rmi.ssl.keystore.file), relative to this file's folder or absolute");
            }
            keystore = Optional.of(file);
        }
        Optional<Path> finalKeystore = keystore;
        return located(f -> YamlTree.child(LOAD, f),
                () -> new RemoteEngines(engines, finalKeystore));
    }

    private void checkPlanSendsEngineMetrics(Scalar node, Path plan) throws ExperimentException {
        boolean sends;
        try {
            sends = LoadPlan.sendsEngineMetrics(plan);
        } catch (java.io.IOException e) {
            throw fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        if (!sends) {
            throw fail(node, "'" + node.text() + "' has no EnvBench Engine Metrics sampler; on engines each one sends its metrics back "
                    + "through it: add a thread group of ${__P(" + LoadPlan.ENGINE_METRICS_THREADS_PROPERTY + ",0)} threads holding "
                    + "one (copy the one of testplans/http-load.jmx), or use the built-in load (http:)");
        }
    }

    private HttpLoad httpLoad(Node node) throws ExperimentException {
        Mapping m = mapping(node, "the built-in HTTP load: path:, threads:, durationSeconds: and optionally requestsPerSecond:, "
                + "rampUpSeconds:, warmupSeconds:");
        checkFields(m, HTTP_FIELDS);
        String path = requiredText(m, PATH, "the path to GET on the target, e.g. /page-4k.html");
        String threadsHelp = "the number of concurrent users, e.g. 8";
        Optional<Scalar> threadsNode = scalar(m, THREADS, threadsHelp);
        int threads = threadsNode.isEmpty() ? 1 : wholeInt(threadsNode.get(), threadsHelp);
        String rateHelp = "requests per second for all threads together, or 0 for as fast as possible";
        Optional<Scalar> rateNode = scalar(m, REQUESTS_PER_SECOND, rateHelp);
        double rate = rateNode.isEmpty() ? 0 : decimal(rateNode.get(), rateHelp);
        Duration rampUp = optionalSeconds(m, RAMP_UP_SECONDS, "seconds to start all threads, e.g. 0").orElse(Duration.ZERO);
        Duration warmup = optionalSeconds(m, WARMUP_SECONDS, "seconds at the start of each run left out of the figures, e.g. 5")
                .orElse(Duration.ZERO);
        Duration duration = requiredSeconds(m, DURATION_SECONDS, "the run's length in seconds, warm-up included, e.g. 20");
        return located(f -> YamlTree.child(m.path(), f), () -> new HttpLoad(path, threads, rate, rampUp, warmup, duration));
    }

    private void checkPlanFile(Scalar node, Path plan) throws ExperimentException {
        if (node.text().isBlank()) {
            throw fail(node, "is empty; give a JMeter plan (.jmx), relative to this file's folder or absolute, e.g. ../http-load.jmx");
        }
        if (Files.isDirectory(plan)) {
            throw fail(node, "'" + node.text() + "' is a folder (" + plan + "); give a JMeter plan (.jmx) file");
        }
        if (!Files.isRegularFile(plan)) {
            throw fail(node, "'" + node.text() + "' does not exist (looked for " + plan + "); give a JMeter plan (.jmx), relative to "
                    + "this file's folder or absolute");
        }
        // the runner owns the environments: a plan that starts its own would start them twice, on one port
        boolean startsEnvironments;
        try {
            startsEnvironments = LoadPlan.startsEnvironments(plan);
        } catch (java.io.IOException e) {
            throw fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        boolean labelsTotal;
        try {
            labelsTotal = LoadPlan.labelsTotal(plan);
        } catch (java.io.IOException e) {
            throw fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        if (labelsTotal) {
            throw fail(node, "'" + node.text() + "': " + io.envbench.measure.stats.Comparison.labelledTotal().getMessage());
        }
        if (startsEnvironments) {
            throw fail(node, "'" + node.text() + "' starts environments itself (EnvBench Target Environment samplers); the runner "
                    + "starts each environment of the experiment, so give a plan that only sends load to "
                    + "${__P(envbench.host,127.0.0.1)}:${__P(envbench.port,18080)}, e.g. ../http-load.jmx");
        }
    }

    private Map<String, String> properties(Mapping load) throws ExperimentException {
        Optional<Node> node = field(load, PROPERTIES);
        if (node.isEmpty()) {
            return Map.of();
        }
        Mapping m = mapping(node.get(), "-J properties for the plan, e.g. { envbench.threads: 8 }");
        Map<String, String> properties = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : m.fields().entrySet()) {
            if (!(e.getValue() instanceof Scalar s)) {
                throw fail(e.getValue(), "is " + YamlTree.kind(e.getValue()) + "; give a single value, e.g. 8");
            }
            properties.put(e.getKey(), s.text());
        }
        return properties;
    }

    private List<Criterion> criteria(Mapping top, List<String> environments) throws ExperimentException {
        Optional<Node> node = field(top, CRITERIA);
        if (node.isEmpty()) {
            return List.of();
        }
        if (!(node.get() instanceof Sequence list)) {
            throw fail(node.get(), "is " + YamlTree.kind(node.get()) + "; give a list, one '- p90(docker) <= 1.2 * p90(bare)' per line");
        }
        Set<String> names = new LinkedHashSet<>(environments);
        List<Criterion> criteria = new ArrayList<>();
        for (Node item : list.items()) {
            if (!(item instanceof Scalar s) || s.empty()) {
                throw fail(item, "is " + YamlTree.kind(item) + "; write the criterion as text, in quotes when it holds ': ', "
                        + "e.g. - \"p90(bare, 'GET: page') < 5\"");
            }
            criteria.add(at(item, () -> Criterion.parse(s.text(), names)));
        }
        return criteria;
    }

    // --- targets and paths ---

    private void checkTarget(Scalar target) throws ExperimentException {
        if (checkedTargets.add(target.path())) {
            at(target, () -> TargetRecipe.load(targetsDir, target.text()));
        }
    }

    /** A path in the file is relative to the file's folder, so the file works from any working directory. */
    private Path resolve(Scalar node) throws ExperimentException {
        try {
            Path folder = file.getParent() == null ? file.toAbsolutePath().getRoot() : file.getParent();
            return folder.resolve(node.text().strip()).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw fail(node, "'" + node.text() + "' is not a path (" + e.getReason() + "); give a path relative to this file");
        }
    }

    // --- fields and types ---

    private void checkFields(Mapping m, List<String> allowed) throws ExperimentException {
        for (Map.Entry<String, Node> e : m.fields().entrySet()) {
            if (!allowed.contains(e.getKey())) {
                String suggestion = closest(e.getKey(), allowed).map(s -> "did you mean " + s + "? ").orElse("");
                throw fail(e.getValue(), "is not a field here; " + suggestion + "fields here: " + String.join(", ", allowed));
            }
        }
    }

    /** A near miss (edit distance at most 2, ignoring case) for "did you mean". */
    private static Optional<String> closest(String typed, List<String> allowed) {
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
        return allowed.stream().filter(c -> typed.length() >= 3 && c.toLowerCase().startsWith(typed.toLowerCase())).findFirst();
    }

    private static int distance(String a, String b) {
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

    private Mapping mapping(Node n, String expected) throws ExperimentException {
        if (n instanceof Mapping m) {
            return m;
        }
        throw fail(n, "is " + YamlTree.kind(n) + "; give " + expected);
    }

    /** The field's node, empty when absent or written without a value. */
    private static Optional<Node> field(Mapping m, String key) {
        Node n = m.fields().get(key);
        return n == null || n instanceof Scalar s && s.empty() ? Optional.empty() : Optional.of(n);
    }

    private Node required(Mapping m, String key, String expected) throws ExperimentException {
        Node n = m.fields().get(key);
        if (n == null) {
            throw fail(YamlTree.child(m.path(), key), "is missing; give " + expected);
        }
        if (n instanceof Scalar s && s.empty()) {
            throw fail(n, "is empty; give " + expected);
        }
        return n;
    }

    private Optional<Scalar> scalar(Mapping m, String key, String expected) throws ExperimentException {
        Optional<Node> n = field(m, key);
        if (n.isPresent() && !(n.get() instanceof Scalar)) {
            throw fail(n.get(), "is " + YamlTree.kind(n.get()) + "; give " + expected);
        }
        return n.map(Scalar.class::cast);
    }

    private Scalar requiredScalar(Mapping m, String key, String expected) throws ExperimentException {
        Node n = required(m, key, expected);
        if (!(n instanceof Scalar s)) {
            throw fail(n, "is " + YamlTree.kind(n) + "; give " + expected);
        }
        return s;
    }

    private String requiredText(Mapping m, String key, String expected) throws ExperimentException {
        return requiredScalar(m, key, expected).text();
    }

    private long wholeNumber(Scalar s, String expected) throws ExperimentException {
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

    private double decimal(Scalar s, String expected) throws ExperimentException {
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

    private Optional<Duration> optionalSeconds(Mapping m, String key, String expected) throws ExperimentException {
        Optional<Scalar> s = scalar(m, key, expected);
        return s.isEmpty() ? Optional.empty() : Optional.of(seconds(s.get(), expected));
    }

    private Duration requiredSeconds(Mapping m, String key, String expected) throws ExperimentException {
        return seconds(requiredScalar(m, key, expected), expected);
    }

    private Duration seconds(Scalar s, String expected) throws ExperimentException {
        double seconds = decimal(s, expected);
        if (Math.abs(seconds) > 1e9) {
            throw fail(s, "'" + s.text() + "' is too large; give " + expected);
        }
        // the records say what is wrong with a negative or zero length, in one place
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    /** A whole number that must fit an int; beyond it is "too large", never clamped to a number the user did not type. */
    private int wholeInt(Scalar s, String expected) throws ExperimentException {
        long v = wholeNumber(s, expected);
        if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
            throw fail(s, "'" + s.text().strip() + "' is too large; give " + expected);
        }
        return (int) v;
    }

    // --- errors ---

    private ExperimentException fail(Node n, String problemAndFix) {
        return new ExperimentException(file, n.path(), n.line(), problemAndFix);
    }

    /** For a field that is not in the file: the line of the nearest enclosing field. */
    private ExperimentException fail(String path, String problemAndFix) {
        return new ExperimentException(file, path, lineOf(path), problemAndFix);
    }

    private int lineOf(String path) {
        String p = path;
        while (!lines.containsKey(p) && !p.isEmpty()) {
            int cut = p.endsWith("]") ? p.lastIndexOf('[') : p.lastIndexOf('.');
            p = cut < 0 ? "" : p.substring(0, cut);
        }
        return lines.getOrDefault(p, 1);
    }

    /** Runs a core validator; its failure is reported at the given node. */
    private <T> T at(Node n, Supplier<T> validated) throws ExperimentException {
        try {
            return validated.get();
        } catch (InvalidSettingException e) {
            throw fail(n, problem(e));
        }
    }

    /** Builds a record; a failure is reported at the file path its field name maps to. */
    private <T> T located(Function<String, String> fieldToPath, Supplier<T> built) throws ExperimentException {
        try {
            return built.get();
        } catch (InvalidSettingException e) {
            throw fail(fieldToPath.apply(e.field()), problem(e));
        }
    }

    /** The message without its "field: " prefix: the file's field path replaces it. */
    private static String problem(InvalidSettingException e) {
        String prefix = e.field() + ": ";
        return e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
    }
}
