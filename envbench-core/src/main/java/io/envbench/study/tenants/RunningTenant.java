package io.envbench.study.tenants;

import java.util.Objects;

import io.envbench.base.environment.RunningTarget;
import io.envbench.study.experiment.TenantPlan;

/**
 * A tenant whose container runs and is ready: what it was planned as (threads, rate, cpuset, response-time goal) and
 * where it runs (container id, host PID of its main process). Immutable; the container is the runner's to stop.
 *
 * @param plan   the tenant as the experiment file says
 * @param target its running container
 */
public record RunningTenant(TenantPlan plan, RunningTarget target) {
    public RunningTenant {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(target, "target");
    }

    /** {@code tenant-1} .. {@code tenant-N}. */
    public String name() {
        return plan.name();
    }

    /** The container's id (a tenant always runs in a container). */
    public String containerId() {
        return target.containerId().orElseThrow();
    }

    /** Host PID of the container's main process (its {@code /proc/PID/status} says {@code Cpus_allowed_list}). */
    public long pid() {
        return target.pid();
    }
}
