package io.envbench.study.cpucontrol;

import java.util.Locale;

import io.envbench.base.settings.InvalidSettingException;

/** Where a tenant that is not pinned (a high tenant, a released one) may run. */
public enum FloatingCpus {
    /**
     * On the CPUs no pinned tenant has: pinned tenants' CPUs are theirs alone. The default: what "dedicated CPUs"
     * means, and the CPUs interrupt steering points at are the floating tenants' too.
     */
    UNPINNED,
    /**
     * On every CPU, pinned tenants' too: what study 004 (docs/studies.md#study-004) did (its high tenants 7 and 8 ran
     * on all 16 CPUs with no taskset), so a pinned tenant's CPUs are preferred, not reserved.
     */
    ALL,
    /**
     * On every CPU, at the lowest CPU weight Docker gives ({@code --cpu-shares 2}; cgroup v2's {@code cpu.weight} 1),
     * while they float: a pinned tenant's CPUs lend them only the time its tenants leave idle, and the CPUs no tenant is
     * pinned to are theirs as under {@link #UNPINNED}. Study 004's high tenants ran on all CPUs too, but at the same
     * weight as the pinned ones ({@link #ALL}); on a machine with few CPUs, where the pinned tenants' home is a large
     * share of it, this is meant to lend its spare time without taking from the tenants pinned there. The weight counts
     * against the container's siblings: on cgroup v1 the other containers (all under {@code /docker}); on cgroup v2 with
     * systemd's driver also the host's services in {@code system.slice}, so there a floating tenant yields to a busy
     * service too.
     */
    SPARE;

    /** As written in an experiment file or the JMeter element: {@code unpinned}, {@code all}, {@code spare}. */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@code unpinned}, {@code all} or {@code spare}, any case.
     *
     * @throws InvalidSettingException naming {@code field} and the choices
     */
    public static FloatingCpus parse(String field, String text) {
        String t = text == null ? "" : text.strip();
        for (FloatingCpus f : values()) {
            if (f.yamlName().equalsIgnoreCase(t)) {
                return f;
            }
        }
        throw new InvalidSettingException(
                field,
                "'" + t + "' is not a place for floating tenants; use unpinned (the CPUs no tenant is pinned to), "
                        + "all (every CPU) or spare (every CPU, at the lowest weight)");
    }
}
