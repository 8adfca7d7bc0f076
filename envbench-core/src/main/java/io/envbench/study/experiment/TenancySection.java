package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.units.CpuSet;
import io.envbench.base.units.MemorySize;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.FloatingCpus;
import io.envbench.study.experiment.YamlTree.Mapping;
import io.envbench.study.experiment.YamlTree.Node;
import io.envbench.study.experiment.YamlTree.Scalar;
import io.envbench.study.experiment.YamlTree.Sequence;

/**
 * An experiment file's {@code tenants:} and {@code configurations:}: a multi-tenant experiment (study 004
 * (docs/studies.md#study-004)).
 */
final class TenancySection {
    private final YamlReading y;

    TenancySection(YamlReading y) {
        this.y = y;
    }

    /** A tenant as read, before its container is defined. */
    private record TenantRead(
            Node at,
            int threads,
            Scalar threadsNode,
            double requestsPerSecond,
            OptionalLong goalMs,
            Optional<Scalar> cpuset,
            Optional<Scalar> network,
            Optional<Scalar> memory,
            boolean high) {}

    Tenancy tenancy(Mapping top, Optional<Scalar> target, int port, Duration readyTimeout) throws ExperimentException {
        String help =
                "the tenants: count: with low:, high: and highTenants: (the paper's scenarios), or each: (a list of tenants)";
        Mapping m = y.mapping(y.required(top, TENANTS, help), help);
        y.checkFields(m, TENANTS_FIELDS);
        Scalar targetNode = target.orElseThrow(() -> y.fail(
                YamlTree.child("", TARGET),
                "is missing; a multi-tenant experiment names the "
                        + "target every tenant runs at the top, e.g. target: daytrader"));
        checkTenantTarget(targetNode);
        int hostCpus = CpuSet.online().size();
        String cpusHelp = "how many CPUs the tenants share (CPUs 0 to cpus-1), e.g. " + hostCpus;
        Optional<Scalar> cpusNode = y.scalar(m, TENANT_CPUS, cpusHelp);
        int cpus = cpusNode.isEmpty() ? hostCpus : y.wholeInt(cpusNode.get(), cpusHelp);
        if (cpusNode.isPresent() && (cpus < 1 || cpus > CpuSet.MAX_CPU + 1)) {
            throw y.fail(cpusNode.get(), cpus + " is not a number of CPUs; give " + cpusHelp);
        }
        int users = boundedInt(
                m,
                USERS,
                Tenancy.DEFAULT_USERS,
                1,
                Tenancy.MAX_USERS,
                "users in each tenant's database (every thread is one), e.g. 200");
        int quotes = boundedInt(
                m, QUOTES, Tenancy.DEFAULT_QUOTES, 1, Tenancy.MAX_QUOTES, "quotes in each tenant's database, e.g. 400");
        Optional<Scalar> network = y.scalar(m, NETWORK, "bridge or host");
        Optional<Scalar> memory = y.scalar(m, MEMORY, "a size such as 512m");
        boolean preset = m.fields().containsKey(COUNT);
        boolean written = m.fields().containsKey(EACH);
        if (preset && written) {
            throw y.fail(
                    m.fields().get(EACH), "goes instead of count:; keep one (count: with low:/high:, or each: a list)");
        }
        if (!preset && !written) {
            throw y.fail(YamlTree.child(m.path(), COUNT), "is missing; give " + help);
        }
        List<TenantConfiguration> configurations = configurations(top);
        boolean scenarioPerConfiguration =
                configurations.stream().anyMatch(c -> c.highTenants().isPresent());
        Optional<TenantLoad> lowLoad = Optional.empty();
        Optional<TenantLoad> highLoad = Optional.empty();
        List<TenantRead> read = new ArrayList<>();
        if (written) {
            for (String presetOnly : List.of(LOW, HIGH, HIGH_TENANTS)) {
                if (m.fields().containsKey(presetOnly)) {
                    throw y.fail(
                            m.fields().get(presetOnly),
                            "only goes with count:; write the tenant's load in its each: entry instead");
                }
            }
            Node each = y.required(m, EACH, "a list of tenants, e.g. - { threads: 4, requestsPerSecond: 50 }");
            if (!(each instanceof Sequence list) || list.items().isEmpty()) {
                throw y.fail(
                        each,
                        "is " + YamlTree.kind(each)
                                + "; give a list of tenants, one '- { threads: 4, requestsPerSecond: 50 }' each");
            }
            for (Node item : list.items()) {
                Mapping t = y.mapping(
                        item,
                        "a tenant: threads:, requestsPerSecond: and optionally name:, responseTimeGoalMs:, cpuset:");
                y.checkFields(t, TENANT_FIELDS);
                Optional<Scalar> nameNode = y.scalar(t, NAME, "tenant-N");
                String expected = Tenancy.name(read.size() + 1);
                if (nameNode.isPresent() && !nameNode.get().text().equals(expected)) {
                    throw y.fail(
                            nameNode.get(),
                            "'" + nameNode.get().text() + "' must be " + expected + ": tenants are named tenant-1 .. "
                                    + "tenant-N in order (or leave name: out)");
                }
                Optional<Scalar> highNode = y.scalar(t, HIGH, "true or false");
                boolean high = highNode.isPresent()
                        && y.at(
                                highNode.get(),
                                () -> TenantConfiguration.parseOnOff(
                                        HIGH, highNode.get().text()));
                read.add(tenantLoad(
                        t,
                        y.scalar(t, CPUSET, "CPU numbers, e.g. \"0\""),
                        y.scalar(t, NETWORK, "bridge or host").or(() -> network),
                        y.scalar(t, MEMORY, "a size such as 512m").or(() -> memory),
                        high));
            }
        } else {
            Scalar countNode = y.scalar(m, COUNT, "the number of tenants, e.g. 4")
                    .orElseThrow(() -> y.fail(m.fields().get(COUNT), "is empty; give the number of tenants, e.g. 4"));
            int count = y.wholeInt(countNode, "the number of tenants, e.g. 4");
            if (count < 1 || count > Tenancy.MAX_TENANTS) {
                throw y.fail(
                        countNode,
                        count + " is outside 1 to " + Tenancy.MAX_TENANTS + "; give the number of tenants, e.g. 4");
            }
            Optional<Scalar> highNode = y.scalar(m, HIGH_TENANTS, "how many of the tenants run the high load, e.g. 1");
            int high = highNode.isEmpty()
                    ? 0
                    : y.wholeInt(highNode.get(), "how many of the tenants run the high load, e.g. 1");
            if (highNode.isPresent() && (high < 0 || high > count)) {
                throw y.fail(
                        highNode.get(),
                        high + " is outside 0 to count (" + count + "); give how many tenants (the last ones) run the "
                                + "high load: 0 (scenario 1), 1 (scenario 2), 2 (scenario 3)");
            }
            if (high > 0 && YamlReading.field(m, HIGH).isEmpty()) {
                throw y.fail(
                        YamlTree.child(m.path(), HIGH),
                        "is missing; highTenants: " + high + " needs the high load, e.g. "
                                + "high: { threads: 8, requestsPerSecond: 0 }");
            }
            boolean highUsed = high > 0
                    || configurations.stream().anyMatch(c -> c.highTenants().orElse(0) > 0);
            if (!highUsed && YamlReading.field(m, HIGH).isPresent()) {
                throw y.fail(
                        m.fields().get(HIGH),
                        "is not used: highTenants is 0; give highTenants: (1 for scenario 2, 2 for scenario 3), "
                                + "here or in a configuration, or remove high:");
            }
            if (high < count && YamlReading.field(m, LOW).isEmpty()) {
                throw y.fail(
                        YamlTree.child(m.path(), LOW),
                        "is missing; give the low load of tenant-1 .. tenant-" + (count - high)
                                + ", e.g. low: { threads: 2, requestsPerSecond: 40 }");
            }
            for (String group : List.of(LOW, HIGH)) {
                Optional<Node> groupNode = YamlReading.field(m, group);
                if (groupNode.isEmpty() || !scenarioPerConfiguration) {
                    continue;
                }
                Mapping g = y.mapping(
                        groupNode.get(),
                        "a tenant load: threads:, requestsPerSecond: and optionally responseTimeGoalMs:");
                y.checkFields(g, TENANT_GROUP_FIELDS);
                TenantRead r = tenantLoad(g, Optional.empty(), network, memory, group.equals(HIGH));
                checkUsers(r, users);
                TenantLoad load = new TenantLoad(r.threads(), r.requestsPerSecond(), r.goalMs());
                if (group.equals(LOW)) {
                    lowLoad = Optional.of(load);
                } else {
                    highLoad = Optional.of(load);
                }
            }
            for (int i = 0; i < count; i++) {
                boolean isHigh = i >= count - high;
                Node groupNode = YamlReading.field(m, isHigh ? HIGH : LOW).orElseThrow();
                Mapping g = y.mapping(
                        groupNode, "a tenant load: threads:, requestsPerSecond: and optionally responseTimeGoalMs:");
                y.checkFields(g, TENANT_GROUP_FIELDS);
                read.add(tenantLoad(g, Optional.empty(), network, memory, isHigh));
            }
        }
        List<TenantPlan> tenants = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            TenantRead r = read.get(i);
            String name = Tenancy.name(i + 1);
            int tenantPort = port + i;
            if (tenantPort > 65535) {
                throw y.fail(
                        YamlTree.child("", PORT),
                        port + " leaves no port for " + name + " (" + tenantPort + " is above 65535): tenant-N "
                                + "listens on port + N - 1; give a lower port, e.g. 18081");
            }
            checkUsers(r, users);
            ContainerOptions.Builder options = ContainerOptions.builder();
            if (r.network().isPresent()) {
                Scalar n = r.network().get();
                options.networkMode(y.at(n, () -> NetworkMode.parse(NETWORK, n.text())));
            }
            if (r.memory().isPresent()) {
                Scalar mem = r.memory().get();
                long bytes = y.at(mem, () -> MemorySize.parseContainerLimit(MEMORY, mem.text()));
                y.at(mem, () -> options.memoryBytes(bytes));
            }
            if (r.cpuset().isPresent()) {
                Scalar c = r.cpuset().get();
                CpuSet set = y.at(c, () -> CpuSet.parseForHost(CPUSET, c.text()));
                int highest = set.cpus().get(set.cpus().size() - 1);
                if (highest >= cpus) {
                    throw y.fail(
                            c,
                            "'" + c.text() + "' names CPU " + highest + ", outside the tenants' CPUs 0-" + (cpus - 1)
                                    + " (tenants.cpus: " + cpus + "); give CPUs below " + cpus);
                }
                options.cpuset(set);
            }
            String database = "daytrader_" + name.replace('-', '_');
            options.env("DB_NAME", database).env("DB_USER", database);
            EnvironmentDefinition definition = y.located(
                    f -> f.equals(PORT) ? PORT : r.at().path(),
                    () -> new EnvironmentDefinition(
                            name,
                            targetNode.text(),
                            EnvironmentDefinition.Placement.DOCKER,
                            options.build(),
                            tenantPort,
                            readyTimeout));
            tenants.add(y.located(
                    f -> YamlTree.child(r.at().path(), f),
                    () -> new TenantPlan(name, definition, r.threads(), r.requestsPerSecond(), r.goalMs(), r.high())));
        }
        Optional<TenantLoad> low = lowLoad;
        Optional<TenantLoad> highGroup = highLoad;
        return y.located(
                f -> f.startsWith(TENANTS) || f.startsWith(CONFIGURATIONS) ? f : YamlTree.child(TENANTS, f),
                () -> new Tenancy(cpus, users, quotes, tenants, configurations, low, highGroup));
    }

    private void checkUsers(TenantRead r, int users) throws ExperimentException {
        if (r.threads() > users) {
            throw y.fail(
                    r.threadsNode(),
                    r.threads() + " threads are above tenants.users (" + users + "): each thread logs in as its "
                            + "own user; raise users: or lower threads");
        }
    }

    private TenantRead tenantLoad(
            Mapping t, Optional<Scalar> cpuset, Optional<Scalar> network, Optional<Scalar> memory, boolean high)
            throws ExperimentException {
        String threadsHelp = "the tenant's concurrent users, e.g. 4";
        Scalar threadsNode = y.requiredScalar(t, THREADS, threadsHelp);
        int threads = y.wholeInt(threadsNode, threadsHelp);
        String rateHelp = "the tenant's requests per second (all its threads), or 0 for a closed loop";
        Optional<Scalar> rateNode = y.scalar(t, REQUESTS_PER_SECOND, rateHelp);
        double rate = rateNode.isEmpty() ? 0 : y.decimal(rateNode.get(), rateHelp);
        String goalHelp = "the tenant's response-time goal in whole milliseconds, e.g. 50";
        Optional<Scalar> goalNode = y.scalar(t, RESPONSE_TIME_GOAL_MS, goalHelp);
        OptionalLong goal =
                goalNode.isEmpty() ? OptionalLong.empty() : OptionalLong.of(y.wholeNumber(goalNode.get(), goalHelp));
        // the record's own checks (threads, rate, goal) are reported at this mapping's fields
        y.located(
                f -> YamlTree.child(t.path(), f),
                () -> new TenantPlan(
                        "tenant-1",
                        new EnvironmentDefinition(
                                "tenant-1",
                                "check",
                                EnvironmentDefinition.Placement.DOCKER,
                                null,
                                0,
                                Duration.ofSeconds(1)),
                        threads,
                        rate,
                        goal,
                        high));
        return new TenantRead(t, threads, threadsNode, rate, goal, cpuset, network, memory, high);
    }

    private List<TenantConfiguration> configurations(Mapping top) throws ExperimentException {
        String example = "one '- { name: none, cpuControl: none }' entry per configuration";
        Node node = y.required(top, CONFIGURATIONS, "the configurations to compare, " + example);
        if (!(node instanceof Sequence list) || list.items().isEmpty()) {
            throw y.fail(node, "is " + YamlTree.kind(node) + "; give a list, " + example);
        }
        List<TenantConfiguration> configurations = new ArrayList<>();
        for (Node item : list.items()) {
            Mapping m = y.mapping(
                    item, "a configuration: name:, cpuControl: (none, static, dynamic), interruptSteering: (off, on)");
            y.checkFields(m, CONFIGURATION_FIELDS);
            String name = y.requiredText(m, NAME, "the configuration's name, e.g. static");
            Optional<Scalar> control = y.scalar(m, CPU_CONTROL, "none, static or dynamic");
            CpuControlMode cpuControl = control.isEmpty()
                    ? CpuControlMode.NONE
                    : y.at(
                            control.get(),
                            () -> CpuControlMode.parse(
                                    CPU_CONTROL, control.get().text()));
            Optional<Scalar> steering = y.scalar(m, INTERRUPT_STEERING, "off or on");
            boolean steer = steering.isPresent()
                    && y.at(
                            steering.get(),
                            () -> TenantConfiguration.parseOnOff(
                                    INTERRUPT_STEERING, steering.get().text()));
            Optional<Scalar> intervalNode =
                    y.scalar(m, CONTROL_INTERVAL_SECONDS, "seconds between the dynamic controller's looks, 1 to 10");
            if (intervalNode.isPresent() && cpuControl != CpuControlMode.DYNAMIC) {
                throw y.fail(
                        intervalNode.get(),
                        "only applies to cpuControl: dynamic; remove it, or set cpuControl: dynamic");
            }
            Duration interval = intervalNode.isEmpty()
                    ? TenantConfiguration.DEFAULT_CONTROL_INTERVAL
                    : y.seconds(intervalNode.get(), "seconds between the dynamic controller's looks, 1 to 10, e.g. 5");
            String highHelp = "how many tenants (the last ones) run high under this configuration: 0 (scenario 1), 1 "
                    + "(scenario 2), 2 (scenario 3); leave it out for tenants.highTenants";
            Optional<Scalar> highNode = y.scalar(m, HIGH_TENANTS, highHelp);
            OptionalInt highTenants =
                    highNode.isEmpty() ? OptionalInt.empty() : OptionalInt.of(y.wholeInt(highNode.get(), highHelp));
            Optional<Scalar> floatingNode = y.scalar(m, FLOATING, "unpinned, all or spare");
            FloatingCpus floating = floatingNode.isEmpty()
                    ? FloatingCpus.UNPINNED
                    : y.at(
                            floatingNode.get(),
                            () -> FloatingCpus.parse(
                                    FLOATING, floatingNode.get().text()));
            configurations.add(y.located(
                    f -> YamlTree.child(m.path(), f),
                    () -> new TenantConfiguration(name, cpuControl, steer, interval, highTenants, floating)));
        }
        return configurations;
    }

    /** A tenant target must come with a database script (db.sh, as targets/daytrader's): every run rebuilds each tenant's database. */
    private void checkTenantTarget(Scalar target) throws ExperimentException {
        y.checkTarget(target);
        if (!Files.isRegularFile(y.targetsDir.resolve(target.text()).resolve("db.sh"))) {
            throw y.fail(
                    target,
                    "'" + target.text()
                            + "' has no db.sh: tenants need a target whose database is rebuilt before every run, "
                            + "as targets/daytrader's; use target: daytrader");
        }
    }

    private int boundedInt(Mapping m, String key, int dflt, int min, int max, String help) throws ExperimentException {
        Optional<Scalar> node = y.scalar(m, key, help);
        if (node.isEmpty()) {
            return dflt;
        }
        int v = y.wholeInt(node.get(), help);
        if (v < min || v > max) {
            throw y.fail(node.get(), v + " is outside " + min + " to " + max + "; give " + help);
        }
        return v;
    }

    void checkOneThreadGroup(Scalar node, Path plan) throws ExperimentException {
        int groups;
        try {
            groups = LoadPlan.threadGroups(plan);
        } catch (IOException e) {
            throw y.fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        if (groups != 1) {
            throw y.fail(
                    node,
                    "'" + node.text() + "' has " + groups
                            + " thread groups; a multi-tenant plan has exactly one, which every "
                            + "tenant runs as its own copy (reading envbench.host, envbench.port, envbench.threads and envbench.rate.per.minute), "
                            + "e.g. ../daytrader.jmx");
        }
    }
}
