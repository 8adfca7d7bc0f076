package io.envbench.study.cpucontrol;

import java.io.IOException;
import java.util.Map;

import io.envbench.base.units.CpuSet;

/**
 * Where a controller's cpusets are applied: {@link DockerCpusets} for containers; tests may record them instead.
 * Implementations remember each tenant's cpuset and CPU weight before its first change and put it back in {@link #restore}.
 */
public interface TenantCpusets {
    /**
     * Sets the tenant's cpuset, and its CPU weight: the lowest there is, or its own (as before the first change).
     *
     * @throws IOException naming the tenant and the cause, when it cannot be set (its container gone, the daemon away)
     */
    void apply(Tenant tenant, CpuSet cpus, boolean lowestWeight) throws IOException;

    /**
     * Puts back every cpuset (and CPU weight) changed, as it was before the first change; a tenant whose container is
     * gone is skipped.
     *
     * @return what was done for each tenant changed, by tenant, e.g. {@code cpuset back to 0-1}
     */
    Map<String, String> restore();
}
