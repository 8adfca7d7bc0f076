package io.envbench.study.cpucontrol;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;

/**
 * The decisions of study 004's (docs/studies.md#study-004) CPU control, with no I/O: given readings, which tenant is
 * pinned to its home ({@link CpuLayout}) and which floats, and why. {@link CpuControlLoop} reads, calls it and applies
 * what it says; tests call it with made-up readings.
 *
 * <ul>
 *   <li>{@code none}: decides nothing.</li>
 *   <li>{@code static}: low tenants pinned, high ones float, once: at {@link #begin} when the high tenants are given,
 *       else at the first reading (a tenant using at least {@code releaseAbovePct} of the CPUs it would be pinned to is
 *       high). Nothing changes afterwards.</li>
 *   <li>{@code dynamic}: every tenant pinned at {@link #begin} (but the high ones given); then at each {@link #step}:
 *       a home is judged by what all the tenants pinned to it use together (on a machine with fewer CPUs than tenants,
 *       several share one). A home at or above {@code releaseAbovePct} of its CPUs for {@code releaseAfterSteps} steps
 *       in a row gives up one tenant a step, the one that used it most; a pinned tenant over its response-time goal for
 *       {@code goalMissedSteps} is released for its goal first (and its home then gives up no other tenant that step).
 *       A floating tenant is pinned again when its own use plus what the tenants already on its home use stays below
 *       {@code pinBelowPct} of the home for {@code pinAfterSteps} steps in a row (and, with a goal, its 90% line is at
 *       most {@code goalMetFraction} of it), so it is never pinned onto a home that others fill; when only the others'
 *       use keeps it out, that is noted once per streak. A floating tenant that misses its goal is noted: there is
 *       nothing more to give it. A step without a reading of a tenant leaves its counters as they are, and its latest
 *       reading counts in its home's load.</li>
 * </ul>
 * Every change of a floating tenant's CPUs that follows from another's pin or release is an action too ({@code FLOAT}).
 * Thread-safe: every method holds the instance's monitor.
 */
public final class CpuController {
    private final CpuControlSettings settings;
    private final List<Tenant> tenants;
    private final Map<String, Tenant> byName = new LinkedHashMap<>();
    private final CpuSet online;
    private final Map<String, Counters> counters = new LinkedHashMap<>();
    private CpuLayout layout;
    private Map<String, CpuSet> cpusets = Map.of();
    private Instant startedAt;

    /** A tenant's state: pinned or not, and how many steps in a row each rule has held. */
    private static final class Counters {
        boolean pinned;
        int hot;
        int calm;
        int goalMissed;
        /** Steps in a row calm alone, but not with the tenants already on its home. */
        int homeFull;

        boolean releasedForGoal;
        /** Its latest reading, in CPUs: it counts in its home's load while it has no newer one. */
        double lastCores;

        void reset() {
            hot = 0;
            calm = 0;
            goalMissed = 0;
            homeFull = 0;
        }
    }

    /**
     * @param tenants the tenants, in the order their homes are given (low tenants first is best)
     * @param online  the host's online CPUs ({@link CpuSet#online()})
     * @throws InvalidSettingException {@code tenants}: none, or two with one name; {@code highTenants}: a name that is
     *                                 no tenant
     */
    public CpuController(CpuControlSettings settings, List<Tenant> tenants, CpuSet online) {
        if (tenants.isEmpty()) {
            throw new InvalidSettingException("tenants", "is empty; give at least one tenant to control");
        }
        for (Tenant t : tenants) {
            if (byName.put(t.name(), t) != null) {
                throw new InvalidSettingException(
                        "tenants", "two tenants are named '" + t.name() + "'; give each its own name");
            }
            counters.put(t.name(), new Counters());
        }
        for (String h : settings.highTenants().orElse(Set.of())) {
            if (!byName.containsKey(h)) {
                throw new InvalidSettingException(
                        "highTenants", "'" + h + "' is no tenant; the tenants are " + byName.keySet());
            }
        }
        this.settings = settings;
        this.tenants = List.copyOf(tenants);
        this.online = online;
    }

    /** The tenants, in the order given. */
    public List<Tenant> tenants() {
        return tenants;
    }

    public CpuControlSettings settings() {
        return settings;
    }

    /** The homes, once decided. */
    public synchronized Optional<CpuLayout> layout() {
        return Optional.ofNullable(layout);
    }

    /** Whether the tenant is pinned to its home now. */
    public synchronized boolean pinned(String tenant) {
        Counters c = counters.get(tenant);
        return c != null && c.pinned;
    }

    /** The first placement: see the class. */
    public synchronized ControlStep begin(Instant at) {
        startedAt = at;
        List<CpuAction> actions = new ArrayList<>();
        switch (settings.mode()) {
            case NONE ->
                actions.add(action(
                        at,
                        "",
                        CpuAction.Kind.NOTE,
                        "no cpu control",
                        "cpu control none: every tenant keeps its cpuset"));
            case STATIC -> {
                if (settings.highTenants().isPresent()) {
                    place(at, settings.highTenants().get(), Map.of(), actions);
                } else {
                    actions.add(action(
                            at,
                            "",
                            CpuAction.Kind.NOTE,
                            "wait for a first reading",
                            "static cpu control decides which tenants are high from their first reading"));
                }
            }
            case DYNAMIC -> place(at, settings.highTenants().orElse(Set.of()), Map.of(), actions);
        }
        return result(actions);
    }

    /** One decision on the readings of the last interval: see the class. */
    public synchronized ControlStep step(Instant at, List<TenantReading> readings) {
        if (startedAt == null) {
            throw new IllegalStateException("begin first");
        }
        Map<String, TenantReading> byTenant = new LinkedHashMap<>();
        for (TenantReading r : readings) {
            if (byName.containsKey(r.tenant())) {
                byTenant.put(r.tenant(), r);
            }
        }
        List<CpuAction> actions = new ArrayList<>();
        if (settings.mode() == CpuControlMode.STATIC
                && layout == null
                && byTenant.keySet().equals(byName.keySet())) {
            decideHighAndPlace(at, byTenant, actions);
        } else if (settings.mode() == CpuControlMode.DYNAMIC) {
            dynamicRules(at, byTenant, actions);
        }
        return result(actions);
    }

    /** Static without given high tenants: those using at least releaseAbovePct of what they would be pinned to are high. */
    private void decideHighAndPlace(Instant at, Map<String, TenantReading> readings, List<CpuAction> actions) {
        int wouldGet = Math.max(1, Math.min(settings.cpusPerTenant(), online.size() - 1));
        Set<String> high = new HashSet<>();
        Map<String, String> why = new LinkedHashMap<>();
        for (Tenant t : tenants) {
            double pct = 100 * readings.get(t.name()).cpuCores() / wouldGet;
            boolean isHigh = pct >= settings.releaseAbovePct();
            if (isHigh) {
                high.add(t.name());
            }
            why.put(
                    t.name(),
                    String.format(
                            Locale.ROOT,
                            "first reading: cpu %.0f%% of %s, %s %.0f%%: %s tenant",
                            pct,
                            cpus(wouldGet),
                            isHigh ? "at least" : "below",
                            settings.releaseAbovePct(),
                            isHigh ? "a high" : "a low"));
        }
        place(at, high, why, actions);
    }

    /** Homes for every tenant (low first), the high ones floating. */
    private void place(Instant at, Set<String> high, Map<String, String> why, List<CpuAction> actions) {
        List<String> order = new ArrayList<>();
        tenants.stream().map(Tenant::name).filter(n -> !high.contains(n)).forEach(order::add);
        tenants.stream().map(Tenant::name).filter(high::contains).forEach(order::add);
        layout = CpuLayout.of(online, order, settings.cpusPerTenant());
        if (layout.homes().isEmpty()) {
            actions.add(action(
                    at,
                    "",
                    CpuAction.Kind.NOTE,
                    "pin nothing",
                    "only CPU " + online + " is online: at least one CPU "
                            + "stays for floating tenants, so nothing can be pinned; every tenant floats"));
        }
        for (String t : order) {
            counters.get(t).pinned = !high.contains(t) && layout.home(t).isPresent();
        }
        Map<String, CpuSet> next = cpusetsNow();
        for (String t : order) {
            String reason = why.getOrDefault(
                    t, high.contains(t) ? "a high tenant: it floats" : "a low tenant: pinned to its home");
            if (counters.get(t).pinned) {
                List<String> sharing = layout.sharing(t);
                actions.add(action(
                        at,
                        t,
                        CpuAction.Kind.PIN,
                        "pin " + next.get(t),
                        reason
                                + (sharing.isEmpty()
                                        ? ""
                                        : "; fewer CPUs than tenants, so it shares them with "
                                                + String.join(", ", sharing))));
            } else {
                actions.add(action(
                        at,
                        t,
                        CpuAction.Kind.FLOAT,
                        "float on " + floatingOn(next.get(t)),
                        reason + "; " + floatingWhere()));
            }
        }
        cpusets = next;
    }

    private void dynamicRules(Instant at, Map<String, TenantReading> readings, List<CpuAction> actions) {
        readings.values().forEach(r -> counters.get(r.tenant()).lastCores = r.cpuCores());
        List<Tenant> floatingAtStart =
                tenants.stream().filter(t -> !counters.get(t.name()).pinned).toList();
        Set<String> released = new HashSet<>();
        Map<CpuSet, Double> loadAtStart = pinnedCoresByHome();
        Map<CpuSet, List<Tenant>> hotByHome = new LinkedHashMap<>();
        Set<CpuSet> relieved = new HashSet<>();
        for (Tenant t : tenants) {
            TenantReading r = readings.get(t.name());
            Optional<CpuSet> home = layout.home(t.name());
            Counters c = counters.get(t.name());
            if (r == null || home.isEmpty() || !c.pinned) {
                continue;
            }
            double pct = 100 * r.cpuCores() / home.get().size();
            double homePct =
                    100 * loadAtStart.getOrDefault(home.get(), 0.0) / home.get().size();
            Optional<Duration> goal = t.responseTimeGoal();
            Optional<Duration> rt = r.responseTime90();
            countGoal(c, goal, rt);
            c.hot = homePct >= settings.releaseAbovePct() ? c.hot + 1 : 0;
            if (c.goalMissed
                    >= settings.goalMissedSteps()) { // the user's own goal first: its reason is the one to give
                release(t.name(), c, true);
                released.add(t.name());
                relieved.add(home.get());
                actions.add(action(
                        at,
                        t.name(),
                        CpuAction.Kind.RELEASE,
                        null,
                        String.format(
                                Locale.ROOT,
                                "90%% line %d ms over its goal %d ms for %d steps (cpu %.0f%% of its %s (%s)): released to float",
                                rt.get().toMillis(),
                                goal.get().toMillis(),
                                settings.goalMissedSteps(),
                                pct,
                                cpus(home.get().size()),
                                home.get())));
            } else if (c.hot >= settings.releaseAfterSteps()) {
                hotByHome.computeIfAbsent(home.get(), h -> new ArrayList<>()).add(t);
            }
        }
        // a saturated home gives up one tenant a step, the one that used it most (none more when one left it for its
        // goal)
        relieved.forEach(hotByHome::remove);
        hotByHome.forEach((home, hot) -> {
            Tenant t = hot.stream()
                    .filter(h -> !released.contains(h.name()))
                    .max(Comparator.comparingDouble(h -> counters.get(h.name()).lastCores))
                    .orElse(null);
            if (t == null) {
                return;
            }
            Counters c = counters.get(t.name());
            List<String> others =
                    pinnedOn(home).stream().filter(n -> !n.equals(t.name())).toList();
            double homePct = 100 * loadAtStart.get(home) / home.size();
            String reason = others.isEmpty()
                    ? String.format(
                            Locale.ROOT,
                            "cpu %.0f%% of its %s (%s) for %d steps, at least %.0f%%",
                            homePct,
                            cpus(home.size()),
                            home,
                            settings.releaseAfterSteps(),
                            settings.releaseAbovePct())
                    : String.format(
                            Locale.ROOT,
                            "its home's %s (%s) at %.0f%% for %d steps, at least %.0f%%, shared with %s; "
                                    + "it used the most: %.0f%%",
                            cpus(home.size()),
                            home,
                            homePct,
                            settings.releaseAfterSteps(),
                            settings.releaseAbovePct(),
                            String.join(", ", others),
                            100 * c.lastCores / home.size());
            release(t.name(), c, false);
            released.add(t.name());
            actions.add(action(at, t.name(), CpuAction.Kind.RELEASE, null, reason));
        });
        Map<CpuSet, Double> homeLoad = pinnedCoresByHome();
        for (Tenant t : floatingAtStart) {
            TenantReading r = readings.get(t.name());
            Optional<CpuSet> home = layout.home(t.name());
            if (r == null || home.isEmpty()) {
                continue;
            }
            Counters c = counters.get(t.name());
            double pct = 100 * r.cpuCores() / home.get().size();
            double alreadyPct =
                    100 * homeLoad.getOrDefault(home.get(), 0.0) / home.get().size();
            Optional<Duration> goal = t.responseTimeGoal();
            Optional<Duration> rt = r.responseTime90();
            boolean missed = countGoal(c, goal, rt);
            boolean goalMet = goal.isEmpty()
                    || rt.isEmpty()
                    || rt.get().toNanos()
                            <= goal.get().toNanos() * (c.releasedForGoal ? settings.goalMetFraction() : 1.0);
            boolean fits = pct + alreadyPct < settings.pinBelowPct();
            c.calm = fits && goalMet ? c.calm + 1 : 0;
            c.homeFull = pct < settings.pinBelowPct() && !fits ? c.homeFull + 1 : 0;
            List<String> there = pinnedOn(home.get());
            if (c.calm >= settings.pinAfterSteps()) {
                c.pinned = true;
                c.releasedForGoal = false;
                c.reset();
                homeLoad.merge(home.get(), r.cpuCores(), Double::sum);
                String load = there.isEmpty()
                        ? String.format(
                                Locale.ROOT,
                                "cpu %.0f%% of its home's %s (%s)",
                                pct,
                                cpus(home.get().size()),
                                home.get())
                        : String.format(
                                Locale.ROOT,
                                "cpu %.0f%% plus the %.0f%% that %s %s of its home's %s (%s): %.0f%%",
                                pct,
                                alreadyPct,
                                String.join(", ", there),
                                there.size() == 1 ? "uses" : "use",
                                cpus(home.get().size()),
                                home.get(),
                                pct + alreadyPct);
                actions.add(action(
                        at,
                        t.name(),
                        CpuAction.Kind.PIN,
                        "pin " + home.get(),
                        String.format(
                                Locale.ROOT,
                                "%s for %d steps, below %.0f%%%s",
                                load,
                                settings.pinAfterSteps(),
                                settings.pinBelowPct(),
                                goal.isPresent() && rt.isPresent()
                                        ? String.format(
                                                Locale.ROOT,
                                                "; 90%% line %d ms within its goal %d ms",
                                                rt.get().toMillis(),
                                                goal.get().toMillis())
                                        : "")));
            } else if (c.homeFull == settings.pinAfterSteps()) {
                actions.add(action(
                        at,
                        t.name(),
                        CpuAction.Kind.NOTE,
                        "stays floating",
                        String.format(
                                Locale.ROOT,
                                "cpu %.0f%% for %d steps, but %s already %s %.0f%% of its home's %s (%s): %.0f%% together, not below %.0f%%",
                                pct,
                                c.homeFull,
                                String.join(", ", there),
                                there.size() == 1 ? "uses" : "use",
                                alreadyPct,
                                cpus(home.get().size()),
                                home.get(),
                                pct + alreadyPct,
                                settings.pinBelowPct())));
            } else if (missed && c.goalMissed == settings.goalMissedSteps()) {
                actions.add(action(
                        at,
                        t.name(),
                        CpuAction.Kind.NOTE,
                        "no action",
                        String.format(
                                Locale.ROOT,
                                "90%% line %d ms over its goal %d ms for %d steps while floating on %s: no more CPUs to give it",
                                rt.get().toMillis(),
                                goal.get().toMillis(),
                                c.goalMissed,
                                cpusets.get(t.name()))));
            }
        }
        Map<String, CpuSet> next = cpusetsNow();
        List<CpuAction> withCpusets = new ArrayList<>();
        for (CpuAction a : actions) {
            withCpusets.add(
                    a.kind() == CpuAction.Kind.RELEASE
                            ? new CpuAction(
                                    a.at(),
                                    a.sinceStart(),
                                    a.tenant(),
                                    a.kind(),
                                    "release to " + floatingOn(next.get(a.tenant())),
                                    a.reason())
                            : a);
        }
        for (Tenant t : tenants) {
            String n = t.name();
            if (!counters.get(n).pinned && !released.contains(n) && !next.get(n).equals(cpusets.get(n))) {
                withCpusets.add(action(
                        at,
                        n,
                        CpuAction.Kind.FLOAT,
                        "float on " + floatingOn(next.get(n)),
                        floatingWhere() + ", which changed with " + changedBy(actions)));
            }
        }
        actions.clear();
        actions.addAll(withCpusets);
        cpusets = next;
    }

    /** Counts a step over the goal; whether this one was. */
    private static boolean countGoal(Counters c, Optional<Duration> goal, Optional<Duration> rt) {
        boolean missed = goal.isPresent() && rt.isPresent() && rt.get().compareTo(goal.get()) > 0;
        if (goal.isPresent() && rt.isPresent()) {
            c.goalMissed = missed ? c.goalMissed + 1 : 0;
        }
        return missed;
    }

    /** The CPU the pinned tenants of each home used in their latest readings, in CPUs. */
    private Map<CpuSet, Double> pinnedCoresByHome() {
        Map<CpuSet, Double> load = new LinkedHashMap<>();
        for (Tenant t : tenants) {
            Counters c = counters.get(t.name());
            if (c.pinned) {
                layout.home(t.name()).ifPresent(h -> load.merge(h, c.lastCores, Double::sum));
            }
        }
        return load;
    }

    /** The tenants pinned to {@code home} now. */
    private List<String> pinnedOn(CpuSet home) {
        return tenants.stream()
                .map(Tenant::name)
                .filter(n ->
                        counters.get(n).pinned && layout.home(n).orElseThrow().equals(home))
                .toList();
    }

    private static void release(String tenant, Counters c, boolean forGoal) {
        c.pinned = false;
        c.releasedForGoal = forGoal;
        c.reset();
    }

    private String changedBy(List<CpuAction> actions) {
        List<String> by = actions.stream()
                .filter(a -> a.kind() == CpuAction.Kind.PIN || a.kind() == CpuAction.Kind.RELEASE)
                .map(a -> a.tenant() + (a.kind() == CpuAction.Kind.PIN ? " pinned" : " released"))
                .toList();
        return by.isEmpty() ? "the pins" : String.join(", ", by);
    }

    /** A floating tenant's cpuset as an action says it: {@code 0-1}, and under spare {@code 0-1 at the lowest weight}. */
    private String floatingOn(CpuSet cpus) {
        return cpus + (settings.floating() == FloatingCpus.SPARE ? " at the lowest weight" : "");
    }

    private String floatingWhere() {
        return switch (settings.floating()) {
            case ALL -> "floating tenants run on every CPU";
            case SPARE ->
                "floating tenants run on every CPU at the lowest CPU weight: pinned tenants' CPUs lend them "
                        + "only their spare time";
            case UNPINNED -> "floating tenants run on the CPUs no tenant is pinned to";
        };
    }

    /** Each tenant's cpuset as the pins say now; empty before the first placement. */
    private Map<String, CpuSet> cpusetsNow() {
        if (layout == null) {
            return Map.of();
        }
        CpuSet floatOn = settings.floating() == FloatingCpus.UNPINNED ? layout.unpinned(pinnedNames()) : online;
        Map<String, CpuSet> out = new LinkedHashMap<>();
        for (Tenant t : tenants) {
            out.put(
                    t.name(),
                    counters.get(t.name()).pinned ? layout.home(t.name()).orElseThrow() : floatOn);
        }
        return out;
    }

    private List<String> pinnedNames() {
        return counters.entrySet().stream()
                .filter(e -> e.getValue().pinned)
                .map(Map.Entry::getKey)
                .toList();
    }

    private ControlStep result(List<CpuAction> actions) {
        CpuSet free = layout == null ? online : layout.unpinned(pinnedNames());
        return new ControlStep(actions, cpusets, lowestWeight(), free);
    }

    /** The tenants placed and floating under {@link FloatingCpus#SPARE}: they run at the lowest CPU weight. */
    private Set<String> lowestWeight() {
        if (settings.floating() != FloatingCpus.SPARE) {
            return Set.of();
        }
        Set<String> out = new HashSet<>(cpusets.keySet());
        out.removeAll(pinnedNames());
        return out;
    }

    private CpuAction action(Instant at, String tenant, CpuAction.Kind kind, String what, String why) {
        return new CpuAction(at, Duration.between(startedAt, at), tenant, kind, what, why);
    }

    private static String cpus(int n) {
        return n + (n == 1 ? " CPU" : " CPUs");
    }
}
