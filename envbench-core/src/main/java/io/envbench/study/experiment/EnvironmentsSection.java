package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.Seccomp;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.recipe.ServicePlacement;
import io.envbench.base.recipe.ServiceRecipe;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.units.CpuSet;
import io.envbench.base.units.MemorySize;
import io.envbench.launch.dockerdaemon.DaemonRequest;
import io.envbench.study.experiment.YamlTree.Mapping;
import io.envbench.study.experiment.YamlTree.Node;
import io.envbench.study.experiment.YamlTree.Scalar;
import io.envbench.study.experiment.YamlTree.Sequence;

/**
 * An experiment file's {@code environments:}: each environment's placement, target, container options, services,
 * volume and Docker daemon settings.
 */
final class EnvironmentsSection {
    private final YamlReading y;

    EnvironmentsSection(YamlReading y) {
        this.y = y;
    }

    List<EnvironmentPlan> environments(Mapping top, Optional<Scalar> defaultTarget, int port, Duration readyTimeout)
            throws ExperimentException {
        String example = "one '- name: ...' entry per environment, e.g. - { name: bare, placement: bare }";
        Node node = y.required(top, ENVIRONMENTS, "a list of environments, " + example);
        if (!(node instanceof Sequence list)) {
            throw y.fail(node, "is " + YamlTree.kind(node) + "; give a list of environments, " + example);
        }
        if (list.items().isEmpty()) {
            throw y.fail(node, "is empty; add at least one environment, " + example);
        }
        List<EnvironmentPlan> plans = new ArrayList<>();
        for (Node item : list.items()) {
            plans.add(environment(item, defaultTarget, port, readyTimeout));
        }
        return plans;
    }

    private EnvironmentPlan environment(Node item, Optional<Scalar> defaultTarget, int port, Duration readyTimeout)
            throws ExperimentException {
        Mapping m = y.mapping(item, "an environment: name:, placement: and, for Docker, its options");
        y.checkFields(m, ENVIRONMENT);
        String name = y.requiredText(m, NAME, "the environment's name, e.g. docker-bridge");
        EnvironmentDefinition.Placement runtime = placement(m);
        Optional<Scalar> ownTarget = y.scalar(m, TARGET, "a target recipe under targets/, e.g. nginx-static");
        Scalar target = ownTarget
                .or(() -> defaultTarget)
                .orElseThrow(() -> y.fail(
                        YamlTree.child(m.path(), TARGET),
                        "is missing; name a recipe under targets/ ("
                                + String.join(", ", TargetRecipe.available(y.targetsDir))
                                + ") here, or once for all environments as target: at the top"));
        y.checkTarget(target);

        ContainerOptions.Builder options = containerOptions(m);
        Map<String, ServicePlacement> services = services(m, target);
        Optional<Scalar> clientNode = y.scalar(m, CLIENT, "inside, host or container");
        ClientPlace client = clientNode.isEmpty()
                ? ClientPlace.INSIDE
                : y.at(
                        clientNode.get(),
                        () -> ClientPlace.parse(CLIENT, clientNode.get().text()));
        if (client != ClientPlace.INSIDE
                && runtime.inContainer()
                && !TargetRecipe.load(y.targetsDir, target.text()).hasPort()) {
            throw y.fail(
                    clientNode.get(),
                    client.yamlName() + " reaches the target on its port, and target " + target.text()
                            + " serves on none; use client: inside, or a target with a port (container.port in its target.properties)");
        }
        Function<String, String> definitionField = f -> switch (f) {
            case "environment" -> YamlTree.child(m.path(), NAME);
            case PORT, READY_TIMEOUT_SECONDS, TARGET -> f;
            default -> YamlTree.child(m.path(), f);
        };
        EnvironmentDefinition definition = y.located(
                definitionField,
                () -> new EnvironmentDefinition(
                        name, target.text(), runtime, options.build(), port, readyTimeout, services));
        Optional<DaemonRequest> daemon = dockerDaemon(m);
        return y.located(f -> YamlTree.child(m.path(), f), () -> new EnvironmentPlan(name, definition, client, daemon));
    }

    /**
     * {@code dockerDaemon: { userlandProxy: false, storageDriver: vfs }}: the daemon settings the environment's runs
     * need, either or both.
     */
    private Optional<DaemonRequest> dockerDaemon(Mapping environment) throws ExperimentException {
        Optional<Node> node = YamlReading.field(environment, DOCKER_DAEMON);
        if (node.isEmpty()) {
            return Optional.empty();
        }
        Mapping m = y.mapping(
                node.get(),
                "the Docker daemon's settings for this environment's runs, e.g. { userlandProxy: false } or"
                        + " { storageDriver: vfs }");
        y.checkFields(m, ExperimentFields.names(ExperimentFields.Section.DOCKER_DAEMON));
        Optional<Boolean> proxy = Optional.empty();
        Optional<Scalar> proxyNode = y.scalar(
                m,
                USERLAND_PROXY,
                "true (docker-proxy carries published ports, Docker's default) or false (iptables NAT)");
        if (proxyNode.isPresent()) {
            Scalar s = proxyNode.get();
            String t = s.text().trim();
            if (!t.equals("true") && !t.equals("false")) {
                throw y.fail(
                        s,
                        "'" + s.text()
                                + "' is neither true nor false; use false (published ports through iptables NAT, no "
                                + "docker-proxy) or true (Docker's default)");
            }
            proxy = Optional.of(Boolean.parseBoolean(t));
        }
        Optional<String> driver = Optional.empty();
        Optional<Scalar> driverNode = y.scalar(m, STORAGE_DRIVER, "a storage driver of dockerd, e.g. vfs");
        if (driverNode.isPresent()) {
            Scalar s = driverNode.get();
            String t = s.text().trim();
            if (!DaemonRequest.STORAGE_DRIVERS.contains(t)) {
                throw y.fail(
                        s,
                        "'" + s.text() + "' is no storage driver of dockerd; use one of "
                                + String.join(", ", DaemonRequest.STORAGE_DRIVERS)
                                + " (vfs runs on every host; overlay2 is what most run)");
            }
            driver = Optional.of(t);
        }
        if (proxy.isEmpty() && driver.isEmpty()) {
            throw y.fail(m, "names no setting; give userlandProxy: false, storageDriver: vfs, or both");
        }
        return Optional.of(new DaemonRequest(proxy, driver));
    }

    /** {@code placement:} of an environment or a service; a bare one with a container's field is refused, naming the field. */
    private EnvironmentDefinition.Placement placement(Mapping m) throws ExperimentException {
        Scalar placement = y.requiredScalar(m, PLACEMENT, "bare, docker or podman");
        EnvironmentDefinition.Placement where =
                y.at(placement, () -> EnvironmentDefinition.Placement.parse(PLACEMENT, placement.text()));
        if (where == EnvironmentDefinition.Placement.BARE) {
            for (String field : CONTAINER) {
                if (m.fields().containsKey(field)) {
                    throw y.fail(
                            m.fields().get(field),
                            "only applies to placement: docker or podman; remove it, or set placement: docker");
                }
            }
        }
        return where;
    }

    /**
     * A container's fields (network:, volume:, cpuset:, cpus:, cpuShares:, memory:, seccomp:) of an environment or a
     * service.
     */
    private ContainerOptions.Builder containerOptions(Mapping m) throws ExperimentException {
        ContainerOptions.Builder options = ContainerOptions.builder();
        Optional<Scalar> network = y.scalar(m, NETWORK, "bridge or host");
        if (network.isPresent()) {
            options.networkMode(y.at(
                    network.get(),
                    () -> NetworkMode.parse(NETWORK, network.get().text())));
        }
        Optional<Node> volume = YamlReading.field(m, VOLUME);
        if (volume.isPresent()) {
            options.volume(volume(volume.get()));
        }
        Optional<Scalar> cpuset = y.scalar(m, CPUSET, "CPU numbers, e.g. \"0-1\"");
        if (cpuset.isPresent()) {
            options.cpuset(y.at(
                    cpuset.get(), () -> CpuSet.parseForHost(CPUSET, cpuset.get().text())));
        }
        Optional<Scalar> cpus = y.scalar(m, CPUS, "a number of cores, e.g. 1.5");
        if (cpus.isPresent()) {
            double cores = y.decimal(cpus.get(), "a number of cores, e.g. 1.5");
            y.at(cpus.get(), () -> options.cpus(cores));
        }
        Optional<Scalar> shares = y.scalar(m, CPU_SHARES, "a relative weight, e.g. 512");
        if (shares.isPresent()) {
            int weight = y.wholeInt(shares.get(), "a relative weight, e.g. 512");
            y.at(shares.get(), () -> options.cpuShares(weight));
        }
        Optional<Scalar> memory = y.scalar(m, MEMORY, "a size such as 512m or 1g");
        if (memory.isPresent()) {
            long bytes = y.at(
                    memory.get(),
                    () -> MemorySize.parseContainerLimit(MEMORY, memory.get().text()));
            y.at(memory.get(), () -> options.memoryBytes(bytes));
        }
        Optional<Scalar> seccomp = y.scalar(m, SECCOMP, "default or unconfined");
        if (seccomp.isPresent()) {
            options.seccomp(y.at(
                    seccomp.get(), () -> Seccomp.parse(SECCOMP, seccomp.get().text())));
        }
        return options;
    }

    /**
     * An environment's {@code services:}: a multi-service target's services placed otherwise than the environment,
     * each {@code NAME: { placement: bare|docker, and for docker its container's fields }}.
     */
    private Map<String, ServicePlacement> services(Mapping environment, Scalar target) throws ExperimentException {
        Optional<Node> node = YamlReading.field(environment, SERVICES);
        if (node.isEmpty()) {
            return Map.of();
        }
        String example = "e.g. services: { web: { placement: docker, network: bridge } }";
        Mapping m = y.mapping(node.get(), "each service placed otherwise than the environment, " + example);
        TargetRecipe recipe = TargetRecipe.load(y.targetsDir, target.text());
        if (!recipe.hasServices()) {
            throw y.fail(
                    node.get(),
                    "target " + target.text() + " is a single server, not several services; remove services:");
        }
        List<String> names = recipe.services().stream().map(ServiceRecipe::name).toList();
        Map<String, ServicePlacement> out = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : m.fields().entrySet()) {
            if (!names.contains(e.getKey())) {
                throw y.fail(
                        e.getValue(),
                        "'" + e.getKey() + "' is not a service of target " + target.text() + "; its services are "
                                + String.join(", ", names));
            }
            Mapping sm = y.mapping(
                    e.getValue(),
                    "the service's placement: bare or docker, and for docker its container's fields, " + example);
            y.checkFields(sm, SERVICE);
            EnvironmentDefinition.Placement servicePlacement = placement(sm);
            if (servicePlacement == EnvironmentDefinition.Placement.PODMAN) {
                throw y.fail(
                        sm.fields().get(PLACEMENT),
                        "a service runs on bare or docker; podman runs single-server targets. Use placement: docker");
            }
            if (servicePlacement == EnvironmentDefinition.Placement.BARE) {
                out.put(e.getKey(), ServicePlacement.bare());
            } else {
                ContainerOptions.Builder options = containerOptions(sm);
                out.put(
                        e.getKey(),
                        y.at(sm.fields().get(PLACEMENT), () -> ServicePlacement.container(options.build())));
            }
        }
        return out;
    }

    private VolumeMount volume(Node node) throws ExperimentException {
        Mapping m = y.mapping(
                node, "a mapping such as { type: tmpfs, path: /var/cache/nginx } (type none, bind, named or tmpfs)");
        y.checkFields(m, VOLUME_FIELDS);
        Optional<Scalar> type = y.scalar(m, VOLUME_TYPE, "none, bind, named or tmpfs");
        VolumeMount.Kind kind = type.isEmpty()
                ? VolumeMount.Kind.NONE
                : y.at(
                        type.get(),
                        () -> VolumeMount.parseKind(VOLUME_TYPE, type.get().text()));
        Optional<Scalar> source = y.scalar(m, VOLUME_SOURCE, "a host folder (bind) or a volume name (named)");
        Optional<Scalar> path =
                y.scalar(m, VOLUME_PATH, "an absolute path inside the container, e.g. /var/cache/nginx");
        boolean takesSource = kind == VolumeMount.Kind.BIND || kind == VolumeMount.Kind.NAMED;
        if (source.isPresent() && !takesSource) {
            throw y.fail(source.get(), "only applies to type: bind or named; remove it, or change the type");
        }
        if (path.isPresent() && kind == VolumeMount.Kind.NONE) {
            throw y.fail(path.get(), "only applies to type: bind, named or tmpfs; remove it, or set a type");
        }
        if (kind == VolumeMount.Kind.NONE) {
            return VolumeMount.NONE;
        }
        if (path.isEmpty()) {
            throw y.fail(
                    YamlTree.child(m.path(), VOLUME_PATH),
                    "is missing; give the absolute path inside the container, e.g. /var/cache/nginx");
        }
        if (takesSource && source.isEmpty()) {
            throw y.fail(
                    YamlTree.child(m.path(), VOLUME_SOURCE),
                    kind == VolumeMount.Kind.BIND
                            ? "is missing; give the host folder to mount, relative to this file or absolute"
                            : "is missing; give a volume name, e.g. envbench-data");
        }
        String sourceText = source.map(Scalar::text).orElse("");
        if (kind == VolumeMount.Kind.BIND) {
            // like plan:, a host folder is relative to the experiment file, so the file works from any directory
            Path folder = y.resolve(source.get());
            // Docker would make a missing folder, owned by root, and mount it empty: never behind the user's back
            if (!Files.exists(folder)) {
                throw y.fail(
                        source.get(),
                        "'" + source.get().text() + "' does not exist (looked for " + folder + "); create the folder "
                                + "first, or give an existing one, relative to this file or absolute");
            }
            sourceText = folder.toString();
        }
        String finalSource = sourceText;
        return y.located(
                f -> switch (f) {
                    case "volumePath" -> YamlTree.child(m.path(), VOLUME_PATH);
                    case "volumeSource" -> YamlTree.child(m.path(), VOLUME_SOURCE);
                    default -> m.path();
                },
                () -> new VolumeMount(kind, finalSource, path.get().text()));
    }
}
