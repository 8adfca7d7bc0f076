package io.envbench.study.cpucontrol;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.envbench.base.units.CpuSet;

/**
 * What one decision of a {@link CpuController} says. Immutable.
 *
 * @param actions  what it did and why, in order (empty when nothing changed)
 * @param cpusets  the cpuset each tenant should have now, by tenant; empty while the controller places nobody (mode
 *                 none, or static before its first reading): then no cpuset is touched
 * @param lowestWeight the tenants among them that run at the lowest CPU weight now (floating under {@link
 *                     FloatingCpus#SPARE}); the others at their own
 * @param freeCpus the online CPUs no tenant is pinned to (where interrupts may go); never empty
 */
public record ControlStep(
        List<CpuAction> actions, Map<String, CpuSet> cpusets, Set<String> lowestWeight, CpuSet freeCpus) {
    public ControlStep {
        actions = List.copyOf(actions);
        cpusets = Collections.unmodifiableMap(new LinkedHashMap<>(cpusets));
        lowestWeight = Set.copyOf(lowestWeight);
    }
}
