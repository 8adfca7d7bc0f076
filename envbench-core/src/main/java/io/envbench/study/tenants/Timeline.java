package io.envbench.study.tenants;

import io.envbench.study.cpucontrol.ControlTimeline;
import io.envbench.study.cpucontrol.CpuAction;

/**
 * Where every control action of a run goes: one line per action in the run directory's {@code timeline/RUN.csv}
 * ({@link TimelineFile}, in the format of {@link io.envbench.study.cpucontrol.TimelineCsv}), to be drawn over the metrics: the
 * run's own events ({@link #record}) and the CPU controller's actions ({@link #acted}). Thread-safe: a controller's
 * threads may write at once.
 */
public interface Timeline extends ControlTimeline {
    /** Tenant for an action on no single tenant (the host, an IRQ, the controller itself). */
    String ALL = "*";

    /**
     * @param tenant {@code tenant-N}, or {@link #ALL}
     * @param action what was done, e.g. {@code cpuset 0-1 -> 1} or {@code irq 42 smp_affinity_list -> 1}
     * @param why    the reading that decided it, e.g. {@code cpu 198% of cpuset 0-1 (99%) for 3 s}
     */
    void record(String tenant, String action, String why);

    /** A CPU controller's action: by default a {@link #record} of its tenant, action and reason. */
    @Override
    default void acted(CpuAction a) {
        record(a.tenant().isEmpty() ? ALL : a.tenant(), a.action(), a.reason());
    }
}
