package io.envbench.study.cpucontrol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.envbench.base.units.CpuSet;

/**
 * Where each tenant goes when it is pinned (its <em>home</em>), decided once. Immutable.
 *
 * <p>The rule, for {@code n} online CPUs (lowest first), {@code t} tenants (in the order given: low tenants first) and
 * {@code p} CPUs per tenant:
 * <ul>
 *   <li>The highest CPU is never a home: at least one CPU always stays for floating tenants (and for interrupts).</li>
 *   <li>The other {@code n - 1} CPUs form {@code g = (n - 1) / p'} groups of {@code p' = min(p, n - 1)} CPUs, from
 *       CPU 0 up; the {@code i}-th tenant's home is group {@code i mod g}. With enough CPUs ({@code t <= g}) every
 *       tenant has CPUs of its own; with fewer, tenants share groups (the first tenants' groups get the later ones);
 *       CPUs left over join the floating ones.</li>
 *   <li>With one CPU online there is no home at all: nothing can be pinned, every tenant floats on CPU 0.</li>
 * </ul>
 * So no home and no floating set is ever empty. On this 2-CPU machine: every tenant's home is CPU 0, CPU 1 floats.
 */
public final class CpuLayout {
    private final CpuSet online;
    private final Map<String, CpuSet> homes;

    private CpuLayout(CpuSet online, Map<String, CpuSet> homes) {
        this.online = online;
        this.homes = homes;
    }

    /** The homes of {@code tenants} (low tenants first) on {@code online}, {@code cpusPerTenant} CPUs each where there are enough. */
    public static CpuLayout of(CpuSet online, List<String> tenants, int cpusPerTenant) {
        List<Integer> cpus = online.cpus();
        Map<String, CpuSet> homes = new LinkedHashMap<>();
        int usable = cpus.size() - 1;
        if (usable >= 1 && !tenants.isEmpty()) {
            int per = Math.min(cpusPerTenant, usable);
            int groups = usable / per;
            for (int i = 0; i < tenants.size(); i++) {
                int g = i % groups;
                homes.put(tenants.get(i), setOf(cpus.subList(g * per, g * per + per)));
            }
        }
        return new CpuLayout(online, homes);
    }

    public CpuSet online() {
        return online;
    }

    /** The tenant's home; empty when nothing can be pinned (one CPU online). */
    public Optional<CpuSet> home(String tenant) {
        return Optional.ofNullable(homes.get(tenant));
    }

    /** Every tenant's home, in the layout's order. */
    public Map<String, CpuSet> homes() {
        return Collections.unmodifiableMap(homes);
    }

    /** The other tenants whose home shares a CPU with this one's. */
    public List<String> sharing(String tenant) {
        CpuSet mine = homes.get(tenant);
        List<String> others = new ArrayList<>();
        if (mine != null) {
            homes.forEach((t, h) -> {
                if (!t.equals(tenant) && h.cpus().stream().anyMatch(mine::contains)) {
                    others.add(t);
                }
            });
        }
        return others;
    }

    /** The online CPUs none of the {@code pinned} tenants' homes has: never empty (the highest CPU is no home). */
    public CpuSet unpinned(Collection<String> pinned) {
        List<Integer> free = new ArrayList<>(online.cpus());
        for (String t : pinned) {
            CpuSet h = homes.get(t);
            if (h != null) {
                free.removeIf(h::contains);
            }
        }
        return setOf(free);
    }

    /** The CPUs, written as ranges ({@code 0-3,6}), as the kernel and Docker write them. */
    static CpuSet setOf(List<Integer> cpus) {
        StringBuilder s = new StringBuilder();
        List<Integer> sorted = cpus.stream().sorted().distinct().toList();
        for (int i = 0; i < sorted.size(); ) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            s.append(s.length() == 0 ? "" : ",").append(sorted.get(i)).append(j == i ? "" : "-" + sorted.get(j));
            i = j + 1;
        }
        return CpuSet.parseList("cpuset", s.toString());
    }
}
