package io.envbench.tenants;

/**
 * Where every control action of a run goes: one line per action, {@code time,tenant,action,why}, in the run directory's
 * {@code timeline/RUN.csv}, to be drawn over the metrics. Thread-safe: a controller's threads may write at once.
 */
public interface Timeline {
    /** Tenant for an action on no single tenant (the host, an IRQ, the controller itself). */
    String ALL = "*";

    /**
     * @param tenant {@code tenant-N}, or {@link #ALL}
     * @param action what was done, e.g. {@code cpuset 0-1 -> 1} or {@code irq 42 smp_affinity_list -> 1}
     * @param why    the reading that decided it, e.g. {@code cpu 198% of cpuset 0-1 (99%) for 3 s}
     */
    void record(String tenant, String action, String why);
}
