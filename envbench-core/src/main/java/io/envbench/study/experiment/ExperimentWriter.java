package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.Seccomp;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.FloatingCpus;

/**
 * Writes an experiment back as a file, every default filled in, so a results folder says exactly what ran. It fills an
 * {@link ExperimentText} with the experiment's values and lets that write the YAML: the form's file and the file of a
 * run are written by one writer, in one layout, and a field is written in one place.
 */
final class ExperimentWriter {
    private ExperimentWriter() {}

    static String toYaml(Experiment e) {
        String share = e.load()
                .http()
                .filter(h -> !h.awaitsCapacity())
                .flatMap(h -> h.share()
                        .map(x -> "# load.http.requestsPerSecond " + Criterion.typed(h.requestsPerSecond()) + " is "
                                + x.text() + ", searched before the runs: capacity/" + x.environment() + ".csv\n"))
                .orElse("");
        return "# experiment " + e.name()
                + " as run: every default filled in (fields: testplans/experiments/README.md)\n" + share
                + text(e).toYaml();
    }

    /** The experiment as the file's text fields: what {@link ExperimentFile#parse} reads back to the same experiment. */
    static ExperimentText text(Experiment e) {
        ExperimentText t = new ExperimentText();
        t.set(NAME, e.name());
        t.set(DESCRIPTION, e.description());
        t.set(PORT, Integer.toString(e.port()));
        t.set(READY_TIMEOUT_SECONDS, LoadPlan.seconds(e.readyTimeout()));
        if (e.tenancy().isPresent()) {
            t.kind(ExperimentText.Kind.TENANTS);
            t.set(TARGET, e.tenancy().get().tenants().get(0).definition().target());
            tenancy(t, e.tenancy().get());
        } else {
            Optional<String> copy = e.calibration().copyOf(e.baseline()); // the reader makes it again
            e.environments().stream()
                    .filter(env -> !copy.equals(Optional.of(env.name())))
                    .forEach(env -> t.addEnvironment(environment(env)));
        }
        Repetitions reps = e.repetitions();
        if (reps.isAuto()) {
            t.set(REPETITIONS, "auto");
            t.set(MIN_REPETITIONS, Integer.toString(reps.min()));
            t.set(MAX_REPETITIONS, Integer.toString(reps.max()));
            t.set(INTERVAL_WIDTH, Repetitions.widthText(reps.intervalWidthPct()));
        } else {
            t.set(REPETITIONS, Integer.toString(reps.max()));
        }
        t.set(ORDER, e.order().yamlName());
        t.set(SEED, Long.toString(e.seed()));
        t.set(BASELINE, e.baseline());
        t.set(ISOLATION, e.isolation().yamlName());
        t.set(ALLOW_GENERATOR_BOUND, Boolean.toString(e.allowGeneratorBound()));
        t.set(CALIBRATION, e.calibration().yamlName());
        t.set(CORRECTION, e.correction().word());
        t.set(RESULTS, e.results().yamlName());
        t.keep(CAPACITY, capacity(e.capacity()));
        load(t, e.load());
        t.set(
                CRITERIA,
                String.join("\n", e.criteria().stream().map(Criterion::text).toList()));
        return t;
    }

    /**
     * Every tenant written out ({@code each:}), whichever form the file used, with its container options as given; a
     * file whose configurations name scenarios of their own keeps the scenario's form ({@code count:}, {@code low:},
     * {@code high:}), the one those scenarios are made from.
     */
    private static void tenancy(ExperimentText text, Tenancy t) {
        text.set("tenants." + TENANT_CPUS, Integer.toString(t.cpus()));
        text.set("tenants." + USERS, Integer.toString(t.users()));
        text.set("tenants." + QUOTES, Integer.toString(t.quotes()));
        if (t.low().isPresent() || t.high().isPresent()) {
            scenario(text, t);
        } else {
            each(text, t);
        }
        for (TenantConfiguration c : t.configurations()) {
            Map<String, String> out = new LinkedHashMap<>();
            out.put(NAME, c.name());
            out.put(CPU_CONTROL, TenantConfiguration.yamlName(c.cpuControl()));
            out.put(INTERRUPT_STEERING, c.interruptSteering() ? "on" : "off");
            if (c.cpuControl() == CpuControlMode.DYNAMIC) {
                out.put(CONTROL_INTERVAL_SECONDS, LoadPlan.seconds(c.controlInterval()));
            }
            c.highTenants().ifPresent(h -> out.put(HIGH_TENANTS, Integer.toString(h)));
            if (c.floating() != FloatingCpus.UNPINNED) {
                out.put(FLOATING, c.floating().yamlName());
            }
            text.addConfiguration(out);
        }
    }

    private static void scenario(ExperimentText text, Tenancy t) {
        text.tenantsForm(ExperimentText.TenantsForm.SCENARIO);
        text.set("tenants." + COUNT, Integer.toString(t.tenants().size()));
        text.set(
                "tenants." + HIGH_TENANTS,
                Long.toString(t.tenants().stream().filter(TenantPlan::high).count()));
        t.low().ifPresent(l -> load(text, LOW, l));
        t.high().ifPresent(h -> load(text, HIGH, h));
        ContainerOptions o = t.tenants().get(0).definition().options();
        text.set("tenants." + NETWORK, o.networkMode().dockerName());
        o.memoryBytes().ifPresent(m -> text.set("tenants." + MEMORY, memory(m)));
    }

    private static void load(ExperimentText text, String group, TenantLoad l) {
        String at = "tenants." + group + ".";
        text.set(at + THREADS, Integer.toString(l.threads()));
        text.set(at + REQUESTS_PER_SECOND, Criterion.typed(l.requestsPerSecond()));
        l.responseTimeGoalMs().ifPresent(g -> text.set(at + RESPONSE_TIME_GOAL_MS, Long.toString(g)));
    }

    private static void each(ExperimentText text, Tenancy t) {
        text.tenantsForm(ExperimentText.TenantsForm.EACH);
        for (TenantPlan p : t.tenants()) {
            Map<String, String> out = new LinkedHashMap<>();
            out.put(NAME, p.name());
            out.put(THREADS, Integer.toString(p.threads()));
            out.put(REQUESTS_PER_SECOND, Criterion.typed(p.requestsPerSecond()));
            p.responseTimeGoalMs().ifPresent(g -> out.put(RESPONSE_TIME_GOAL_MS, Long.toString(g)));
            out.put(HIGH, Boolean.toString(p.high()));
            ContainerOptions o = p.definition().options();
            o.cpuset().ifPresent(c -> out.put(CPUSET, c.toString()));
            out.put(NETWORK, o.networkMode().dockerName());
            o.memoryBytes().ifPresent(m -> out.put(MEMORY, memory(m)));
            text.addTenant(out);
        }
    }

    private static Map<String, String> environment(EnvironmentPlan env) {
        EnvironmentDefinition d = env.definition();
        Map<String, String> out = new LinkedHashMap<>();
        out.put(NAME, d.name());
        out.put(PLACEMENT, d.placement().fieldValue());
        out.put(TARGET, d.target());
        if (env.client() != ClientPlace.INSIDE) {
            out.put(CLIENT, env.client().yamlName());
        }
        if (d.placement().inContainer()) {
            containerFields(d.options()).forEach(out::put);
        }
        if (!d.services().isEmpty()) {
            ObjectNode services = JsonNodeFactory.instance.objectNode();
            d.services().forEach((name, where) -> {
                ObjectNode service = services.putObject(name);
                service.put(PLACEMENT, where.inContainer() ? "docker" : "bare");
                where.container()
                        .ifPresent(o -> containerFields(o).forEach((k, v) -> {
                            if (k.startsWith(VOLUME + ".")) {
                                ObjectNode volume = service.has(VOLUME)
                                        ? (ObjectNode) service.get(VOLUME)
                                        : service.putObject(VOLUME);
                                volume.put(k.substring(VOLUME.length() + 1), v);
                            } else {
                                service.put(k, v);
                            }
                        }));
            });
            out.put(SERVICES, ExperimentText.flowYaml(services));
        }
        env.dockerDaemon().ifPresent(daemon -> {
            daemon.userlandProxy().ifPresent(p -> out.put(DOCKER_DAEMON + "." + USERLAND_PROXY, Boolean.toString(p)));
            daemon.storageDriver().ifPresent(driver -> out.put(DOCKER_DAEMON + "." + STORAGE_DRIVER, driver));
        });
        return out;
    }

    /** A container's fields, as an environment or a service has them, keyed as the form keys them ({@code volume.type}). */
    private static Map<String, String> containerFields(ContainerOptions o) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(NETWORK, o.networkMode().dockerName());
        VolumeMount v = o.volume();
        out.put(VOLUME + "." + VOLUME_TYPE, v.kind().name().toLowerCase(Locale.ROOT));
        if (!v.source().isEmpty()) {
            out.put(VOLUME + "." + VOLUME_SOURCE, v.source());
        }
        if (!v.containerPath().isEmpty()) {
            out.put(VOLUME + "." + VOLUME_PATH, v.containerPath());
        }
        o.cpuset().ifPresent(c -> out.put(CPUSET, c.toString()));
        o.cpus().ifPresent(c -> out.put(CPUS, Criterion.typed(c)));
        o.cpuShares().ifPresent(c -> out.put(CPU_SHARES, Integer.toString(c)));
        o.memoryBytes().ifPresent(m -> out.put(MEMORY, memory(m)));
        if (o.seccomp() != Seccomp.DEFAULT) {
            out.put(SECCOMP, o.seccomp().fieldValue());
        }
        return out;
    }

    private static ObjectNode capacity(CapacitySpec c) {
        ObjectNode capacity = JsonNodeFactory.instance.objectNode();
        ArrayNode slo = capacity.putArray(SLO);
        c.slo().forEach(o -> slo.add(o.text()));
        capacity.put(START_RATE, new BigDecimal(Criterion.typed(c.startRate())));
        capacity.put(MAX_RATE, new BigDecimal(Criterion.typed(c.maxRate())));
        capacity.put(STEP_SECONDS, new BigDecimal(LoadPlan.seconds(c.step())));
        capacity.put(WARMUP_SECONDS, new BigDecimal(LoadPlan.seconds(c.warmup())));
        capacity.put(TRIES, c.tries());
        if (c.searches() != 1) {
            capacity.put(SEARCHES, c.searches());
        }
        if (c.ratedByLabel()) {
            capacity.put(RATE_LABEL, c.rateLabel());
        }
        return capacity;
    }

    private static void load(ExperimentText t, LoadPlan load) {
        if (load.command().isPresent()) {
            CommandLoad c = load.command().get();
            t.loadKind(ExperimentText.LoadKind.COMMAND);
            t.set("load.command." + RUN, c.commandLine());
            t.set("load.command." + OUTPUT, c.output().yamlName());
            c.bareMemoryBytes().ifPresent(m -> t.set("load.command." + BARE_MEMORY, memory(m)));
            t.set("load." + DURATION_SECONDS, LoadPlan.seconds(c.duration()));
        } else if (load.http().isPresent()) {
            HttpLoad h = load.http().get();
            t.loadKind(ExperimentText.LoadKind.HTTP);
            t.set("load.http." + PATH, h.path());
            t.set("load.http." + THREADS, Integer.toString(h.threads()));
            t.set(
                    "load.http." + REQUESTS_PER_SECOND,
                    h.awaitsCapacity() ? h.share().orElseThrow().text() : Criterion.typed(h.requestsPerSecond()));
            t.set("load.http." + RAMP_UP_SECONDS, LoadPlan.seconds(h.rampUp()));
            t.set("load." + WARMUP_SECONDS, LoadPlan.seconds(h.warmup()));
            t.set("load." + DURATION_SECONDS, LoadPlan.seconds(h.duration()));
        } else {
            t.loadKind(ExperimentText.LoadKind.PLAN);
            t.set("load." + PLAN, load.plan().orElseThrow().toString());
            List<String> lines = new TreeMap<>(load.properties())
                    .entrySet().stream()
                            .map(p -> p.getKey() + "=" + p.getValue())
                            .toList();
            t.set("load." + PROPERTIES, String.join("\n", lines));
            t.set("load." + WARMUP_SECONDS, LoadPlan.seconds(load.warmup()));
            t.set("load." + DURATION_SECONDS, LoadPlan.seconds(load.duration()));
        }
        if (!load.engines().none()) {
            ArrayNode engines = JsonNodeFactory.instance.arrayNode();
            load.engines().engines().forEach(en -> engines.add(en.toString()));
            t.keep("load." + ENGINES, engines);
            t.keep(
                    "load." + RMI_KEYSTORE,
                    JsonNodeFactory.instance.textNode(
                            load.engines().rmiKeystore().orElseThrow().toString()));
        }
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
