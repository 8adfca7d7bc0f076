package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.study.cpucontrol.CpuControlMode;

/** Writes an experiment back as a file, every default filled in, so a results folder says exactly what ran. */
final class ExperimentWriter {
    private ExperimentWriter() {}

    static String toYaml(Experiment e) {
        YAMLMapper yaml = YAMLMapper.builder()
                .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                .build();
        ObjectNode root = yaml.createObjectNode();
        root.put(NAME, e.name());
        root.put(DESCRIPTION, e.description());
        root.put(PORT, e.port());
        root.put(READY_TIMEOUT_SECONDS, seconds(e.readyTimeout()));
        if (e.tenancy().isPresent()) {
            root.put(TARGET, e.tenancy().get().tenants().get(0).definition().target());
            tenancy(root, e.tenancy().get());
        } else {
            ArrayNode environments = root.putArray(ENVIRONMENTS);
            Optional<String> copy = e.calibration().copyOf(e.baseline()); // the reader makes it again
            e.environments().stream()
                    .filter(env -> !copy.equals(Optional.of(env.name())))
                    .forEach(env -> {
                        ObjectNode out = environments.addObject();
                        environment(out, env.definition(), env.client());
                        env.dockerDaemon()
                                .ifPresent(d -> out.putObject(DOCKER_DAEMON).put(USERLAND_PROXY, d.userlandProxy()));
                    });
        }
        Repetitions reps = e.repetitions();
        if (reps.isAuto()) {
            root.put(REPETITIONS, "auto");
            root.put(MIN_REPETITIONS, reps.min());
            root.put(MAX_REPETITIONS, reps.max());
            root.put(INTERVAL_WIDTH, Repetitions.widthText(reps.intervalWidthPct()));
        } else {
            root.put(REPETITIONS, reps.max());
        }
        root.put(ORDER, e.order().yamlName());
        root.put(SEED, e.seed());
        root.put(BASELINE, e.baseline());
        root.put(ISOLATION, e.isolation().yamlName());
        root.put(ALLOW_GENERATOR_BOUND, e.allowGeneratorBound());
        root.put(CALIBRATION, e.calibration().yamlName());
        root.put(CORRECTION, e.correction().word());
        ObjectNode capacity = root.putObject(CAPACITY);
        ArrayNode slo = capacity.putArray(SLO);
        e.capacity().slo().forEach(o -> slo.add(o.text()));
        capacity.put(START_RATE, number(e.capacity().startRate()));
        capacity.put(MAX_RATE, number(e.capacity().maxRate()));
        capacity.put(STEP_SECONDS, seconds(e.capacity().step()));
        capacity.put(WARMUP_SECONDS, seconds(e.capacity().warmup()));
        capacity.put(TRIES, e.capacity().tries());
        load(root.putObject(LOAD), e.load());
        if (e.tenancy().isEmpty() || !e.criteria().isEmpty()) { // a multi-tenant experiment's only when it has some
            ArrayNode criteria = root.putArray(CRITERIA);
            e.criteria().forEach(c -> criteria.add(c.text()));
        }
        try {
            String share = e.load()
                    .http()
                    .filter(h -> !h.awaitsCapacity())
                    .flatMap(h -> h.share()
                            .map(x -> "# load.http.requestsPerSecond "
                                    + number(h.requestsPerSecond()).toPlainString()
                                    + " is " + x.text() + ", searched before the runs: capacity/" + x.environment()
                                    + ".csv\n"))
                    .orElse("");
            return "# experiment " + e.name()
                    + " as run: every default filled in (fields: testplans/experiments/README.md)\n" + share
                    + yaml.writeValueAsString(root);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("cannot write experiment " + e.name() + " as YAML", ex);
        }
    }

    /** Every tenant written out ({@code each:}), whichever form the file used; its container options as given. */
    private static void tenancy(ObjectNode root, Tenancy t) {
        ObjectNode tenants = root.putObject(TENANTS);
        tenants.put(TENANT_CPUS, t.cpus());
        tenants.put(USERS, t.users());
        tenants.put(QUOTES, t.quotes());
        ArrayNode each = tenants.putArray(EACH);
        for (TenantPlan p : t.tenants()) {
            ObjectNode out = each.addObject();
            out.put(NAME, p.name());
            out.put(THREADS, p.threads());
            out.put(REQUESTS_PER_SECOND, number(p.requestsPerSecond()));
            p.responseTimeGoalMs().ifPresent(g -> out.put(RESPONSE_TIME_GOAL_MS, g));
            out.put(HIGH, p.high());
            ContainerOptions o = p.definition().options();
            o.cpuset().ifPresent(c -> out.put(CPUSET, c.toString()));
            out.put(NETWORK, o.networkMode().dockerName());
            o.memoryBytes().ifPresent(m -> out.put(MEMORY, memory(m)));
        }
        ArrayNode configurations = root.putArray(CONFIGURATIONS);
        for (TenantConfiguration c : t.configurations()) {
            ObjectNode out = configurations.addObject();
            out.put(NAME, c.name());
            out.put(CPU_CONTROL, TenantConfiguration.yamlName(c.cpuControl()));
            out.put(INTERRUPT_STEERING, c.interruptSteering() ? "on" : "off");
            if (c.cpuControl() == CpuControlMode.DYNAMIC) {
                out.put(CONTROL_INTERVAL_SECONDS, seconds(c.controlInterval()));
            }
        }
    }

    private static void environment(ObjectNode out, EnvironmentDefinition d, ClientPlace client) {
        out.put(NAME, d.name());
        out.put(PLACEMENT, d.placement().name().toLowerCase(Locale.ROOT));
        out.put(TARGET, d.target());
        if (client != ClientPlace.INSIDE) {
            out.put(CLIENT, client.yamlName());
        }
        if (d.placement() == EnvironmentDefinition.Placement.DOCKER) {
            containerFields(out, d.options());
        }
        if (!d.services().isEmpty()) {
            ObjectNode services = out.putObject(SERVICES);
            d.services().forEach((name, where) -> {
                ObjectNode service = services.putObject(name);
                service.put(PLACEMENT, where.inContainer() ? "docker" : "bare");
                where.container().ifPresent(o -> containerFields(service, o));
            });
        }
    }

    /** A container's fields, as an environment or a service has them. */
    private static void containerFields(ObjectNode out, ContainerOptions o) {
        out.put(NETWORK, o.networkMode().dockerName());
        VolumeMount v = o.volume();
        ObjectNode volume = out.putObject(VOLUME);
        volume.put(VOLUME_TYPE, v.kind().name().toLowerCase(Locale.ROOT));
        if (!v.source().isEmpty()) {
            volume.put(VOLUME_SOURCE, v.source());
        }
        if (!v.containerPath().isEmpty()) {
            volume.put(VOLUME_PATH, v.containerPath());
        }
        o.cpuset().ifPresent(c -> out.put(CPUSET, c.toString()));
        o.cpus().ifPresent(c -> out.put(CPUS, number(c)));
        o.cpuShares().ifPresent(c -> out.put(CPU_SHARES, c));
        o.memoryBytes().ifPresent(m -> out.put(MEMORY, memory(m)));
    }

    private static void load(ObjectNode out, LoadPlan load) {
        loadOn(out, load);
        if (!load.engines().none()) {
            ArrayNode engines = out.putArray(ENGINES);
            load.engines().engines().forEach(en -> engines.add(en.toString()));
            out.put(RMI_KEYSTORE, load.engines().rmiKeystore().orElseThrow().toString());
        }
    }

    private static void loadOn(ObjectNode out, LoadPlan load) {
        if (load.command().isPresent()) {
            CommandLoad c = load.command().get();
            ObjectNode command = out.putObject(COMMAND);
            command.put(RUN, c.commandLine());
            command.put(OUTPUT, c.output().yamlName());
            c.bareMemoryBytes().ifPresent(m -> command.put(BARE_MEMORY, memory(m)));
            command.put(DURATION_SECONDS, seconds(c.duration()));
            return;
        }
        if (load.http().isPresent()) {
            HttpLoad h = load.http().get();
            ObjectNode http = out.putObject(HTTP);
            http.put(PATH, h.path());
            http.put(THREADS, h.threads());
            if (h.awaitsCapacity()) {
                http.put(REQUESTS_PER_SECOND, h.share().orElseThrow().text());
            } else {
                http.put(REQUESTS_PER_SECOND, number(h.requestsPerSecond()));
            }
            http.put(RAMP_UP_SECONDS, seconds(h.rampUp()));
            http.put(WARMUP_SECONDS, seconds(h.warmup()));
            http.put(DURATION_SECONDS, seconds(h.duration()));
            return;
        }
        out.put(PLAN, load.plan().orElseThrow().toString());
        ObjectNode properties = out.putObject(PROPERTIES);
        new TreeMap<>(load.properties()).forEach(properties::put);
        out.put(WARMUP_SECONDS, seconds(load.warmup()));
        out.put(DURATION_SECONDS, seconds(load.duration()));
    }

    /** {@code 5}, {@code 2.5}: as a person would write it. */
    private static BigDecimal seconds(Duration d) {
        return new BigDecimal(LoadPlan.seconds(d));
    }

    private static BigDecimal number(double v) {
        return new BigDecimal(Criterion.typed(v));
    }

    /** In the largest unit that divides it exactly, as docker run --memory writes it. */
    private static String memory(long bytes) {
        String[] units = {"g", "m", "k"};
        long[] sizes = {1L << 30, 1L << 20, 1L << 10};
        for (int i = 0; i < units.length; i++) {
            if (bytes % sizes[i] == 0) {
                return bytes / sizes[i] + units[i];
            }
        }
        return Long.toString(bytes);
    }
}
