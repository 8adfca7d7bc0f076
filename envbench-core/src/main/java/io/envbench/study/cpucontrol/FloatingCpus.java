package io.envbench.study.cpucontrol;

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
    ALL
}
