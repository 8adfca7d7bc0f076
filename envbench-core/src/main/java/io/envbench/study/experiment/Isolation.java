package io.envbench.study.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;

/**
 * Whether the load generator and the target get CPUs of their own, so that what is measured is the target and not
 * the machine they share: with a split, JMeter runs on the lowest CPUs, and the target (every process it is made of,
 * in a container too) and the docker-proxy of its port on the others, so what an environment adds counts against it.
 */
public enum Isolation {
    /** Isolate when this experiment and machine allow it, else run shared and say why. */
    AUTO,
    /** Isolate, or refuse the experiment before anything starts. */
    CPUS,
    /** Share every CPU, as before. */
    OFF;

    public static Isolation parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "auto" -> AUTO;
            case "cpus" -> CPUS;
            case "off" -> OFF;
            default ->
                throw new InvalidSettingException(
                        field,
                        "'" + text + "' is not an isolation; use auto (isolate where possible), cpus (always) or off");
        };
    }

    /** As written in an experiment file. */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The load generator's and the target's CPUs.
     *
     * @param generator the lowest quarter of the CPUs online, at least one
     * @param target    the rest
     */
    public record Split(CpuSet generator, CpuSet target) {}

    /** The split an experiment gets on a host, or why it gets none. */
    public record Decision(Optional<Split> split, String reason) {
        /** For logs and reports: "JMeter on CPU 0, the target on 1" or "not isolated: ...". */
        public String describe() {
            return split.map(s -> "isolated: JMeter on CPUs " + s.generator() + ", the target and docker-proxy on "
                            + s.target())
                    .orElse("not isolated: " + reason);
        }
    }

    /**
     * Decides the split for an experiment on a host with these CPUs online.
     *
     * @throws InvalidSettingException naming {@code isolation} when it is {@link #CPUS} and cannot be had, with why and
     *     the fix
     */
    public Decision decide(Experiment e, CpuSet online) {
        Optional<String> why = this == OFF ? Optional.of("isolation: off") : obstacle(e, online);
        if (why.isPresent()) {
            if (this == CPUS) {
                throw new InvalidSettingException(
                        YamlFields.ISOLATION, "cpus cannot be had: " + why.get() + "; or write isolation: auto");
            }
            return new Decision(Optional.empty(), why.get());
        }
        return new Decision(Optional.of(split(online)), "");
    }

    /** The lowest quarter of the CPUs (at least one) for the generator, the rest for the target. */
    static Split split(CpuSet online) {
        List<Integer> cpus = online.cpus();
        int generator = Math.max(1, cpus.size() / 4);
        return new Split(list(cpus.subList(0, generator)), list(cpus.subList(generator, cpus.size())));
    }

    /** As Linux writes a list: runs of CPUs as ranges ({@code 2-7}, {@code 0,2-3}). */
    private static CpuSet list(List<Integer> cpus) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < cpus.size(); ) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            parts.add(i == j ? Integer.toString(cpus.get(i)) : cpus.get(i) + "-" + cpus.get(j));
            i = j + 1;
        }
        return CpuSet.parseList("cpus", String.join(",", parts));
    }

    private static Optional<String> obstacle(Experiment e, CpuSet online) {
        if (online.size() < 2) {
            return Optional.of("this host has one CPU online (" + online + "); run the load from another machine");
        }
        if (e.tenancy().isPresent()) {
            return Optional.of("a multi-tenant experiment places its tenants on CPUs of its own (tenants: cpus:)");
        }
        if (e.load().command().isPresent()) {
            return Optional.of("a command load has no JMeter to isolate (its client's place is client:)");
        }
        Split s = split(online);
        for (int i = 0; i < e.environments().size(); i++) {
            EnvironmentPlan env = e.environments().get(i);
            Optional<CpuSet> own = env.definition().options().cpuset();
            if (own.isPresent()
                    && own.get().cpus().stream().anyMatch(c -> !s.target().contains(c))) {
                return Optional.of("environments[" + i + "] (" + env.name() + ") has cpuset " + own.get()
                        + ", which reaches the load generator's CPUs " + s.generator() + "; give it a cpuset within "
                        + s.target());
            }
        }
        return Optional.empty();
    }
}
