package io.envbench.study.experiment;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.envbench.base.settings.FileSafeName;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import net.jcip.annotations.Immutable;

/**
 * The tenants of a multi-tenant experiment (the paper of study 004 (docs/studies.md#study-004)): N containers of one
 * target running at once on {@code cpus} CPUs, each with its own database and its own thread group in one JMeter run,
 * and the configurations compared (CPU control, interrupt steering). Immutable. Validation errors name the field as
 * written under {@code tenants} or {@code configurations}.
 *
 * @param cpus           the CPUs the tenants share: 0 .. cpus-1 (the paper's 16); a run needs a host with that many
 * @param users          users of each tenant's database ({@code db.sh rebuild}'s maxUsers): every thread is its own user
 * @param quotes         quotes (symbols) of each tenant's database
 * @param tenants        {@code tenant-1} .. {@code tenant-N}, in that order
 * @param configurations at least one, names unique
 * @param low            the low tenants' load ({@code low:}), kept where a configuration names a scenario of its own
 *                       ({@code highTenants}), which hands it out; empty otherwise (the tenants as written carry it)
 * @param high           the same for the high tenants' load ({@code high:})
 */
@Immutable
public record Tenancy(
        int cpus,
        int users,
        int quotes,
        List<TenantPlan> tenants,
        List<TenantConfiguration> configurations,
        Optional<TenantLoad> low,
        Optional<TenantLoad> high) {
    public static final int DEFAULT_USERS = 200;
    public static final int DEFAULT_QUOTES = 400;
    /** Each tenant is a JVM of 200-300 MB and a database: more is a typo. */
    public static final int MAX_TENANTS = 64;

    public static final int MAX_USERS = 100_000;
    public static final int MAX_QUOTES = 1_000_000;

    public Tenancy {
        tenants = List.copyOf(Objects.requireNonNull(tenants, "tenants"));
        configurations = List.copyOf(Objects.requireNonNull(configurations, "configurations"));
        Objects.requireNonNull(low, "low");
        Objects.requireNonNull(high, "high");
        if (cpus < 1 || cpus > CpuSet.MAX_CPU + 1) {
            throw new InvalidSettingException(
                    "tenants.cpus",
                    cpus + " is not a number of CPUs; give how many CPUs the tenants share "
                            + "(CPUs 0 to cpus-1), from 1 to " + (CpuSet.MAX_CPU + 1) + ", e.g. 2");
        }
        if (users < 1 || users > MAX_USERS) {
            throw new InvalidSettingException(
                    "tenants.users",
                    users + " is outside 1 to " + MAX_USERS + "; give the users of each "
                            + "tenant's database, at least its threads, e.g. " + DEFAULT_USERS);
        }
        if (quotes < 1 || quotes > MAX_QUOTES) {
            throw new InvalidSettingException(
                    "tenants.quotes",
                    quotes + " is outside 1 to " + MAX_QUOTES + "; give the quotes of each "
                            + "tenant's database, e.g. " + DEFAULT_QUOTES);
        }
        if (tenants.isEmpty()) {
            throw new InvalidSettingException(
                    "tenants", "has no tenant; give count: (with low:/high:) or each: (a list)");
        }
        if (tenants.size() > MAX_TENANTS) {
            throw new InvalidSettingException(
                    "tenants", tenants.size() + " tenants are above " + MAX_TENANTS + "; give fewer");
        }
        for (int i = 0; i < tenants.size(); i++) {
            TenantPlan t = tenants.get(i);
            String expected = name(i + 1);
            if (!t.name().equals(expected)) {
                throw new InvalidSettingException(
                        "tenants.each[" + i + "].name",
                        "'" + t.name() + "' must be " + expected + ": tenants are named tenant-1 .. tenant-N in order");
            }
            if (t.threads() > users) {
                throw new InvalidSettingException(
                        "tenants.each[" + i + "].threads",
                        t.threads() + " threads are above tenants.users (" + users
                                + "): each thread logs in as its own user; raise users or lower threads");
            }
            if (t.definition().options().cpuset().isPresent()) {
                CpuSet c = t.definition().options().cpuset().get();
                int highest = c.cpus().get(c.cpus().size() - 1);
                if (highest >= cpus) {
                    throw new InvalidSettingException(
                            "tenants.each[" + i + "].cpuset",
                            "'" + c + "' names CPU " + highest + ", outside the tenants' CPUs 0-" + (cpus - 1)
                                    + " (tenants.cpus: " + cpus + "); give CPUs below " + cpus);
                }
            }
        }
        if (configurations.isEmpty()) {
            throw new InvalidSettingException(
                    "configurations", "is empty; add at least one, e.g. - { name: none, cpuControl: none }");
        }
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Integer> seenIgnoringCase = new HashMap<>();
        for (int i = 0; i < configurations.size(); i++) {
            String n = configurations.get(i).name();
            Integer earlier = seen.putIfAbsent(n, i);
            if (earlier != null) {
                throw new InvalidSettingException(
                        "configurations[" + i + "].name",
                        "'" + n + "' is already the name of configurations[" + earlier
                                + "]; give each configuration its own name");
            }
            Integer sameFiles = seenIgnoringCase.putIfAbsent(FileSafeName.collisionKey(n), i);
            if (sameFiles != null) {
                throw new InvalidSettingException(
                        "configurations[" + i + "].name",
                        "'" + n + "' and '" + configurations.get(sameFiles).name()
                                + "' differ only in case, so their files share a name on a case-insensitive disk; rename one");
            }
            checkScenario(i, configurations.get(i), tenants.size(), low, high);
        }
    }

    /** A configuration's own scenario needs the loads it hands out: low: for the low tenants, high: for the high. */
    private static void checkScenario(
            int i, TenantConfiguration c, int count, Optional<TenantLoad> low, Optional<TenantLoad> high) {
        if (c.highTenants().isEmpty()) {
            return;
        }
        String field = "configurations[" + i + "].highTenants";
        int h = c.highTenants().getAsInt();
        if (low.isEmpty() && high.isEmpty()) {
            throw new InvalidSettingException(
                    field,
                    "needs the tenants written as a scenario (tenants: count:, low:, high:); with each: every tenant "
                            + "has its own load, so remove highTenants here");
        }
        if (h > count) {
            throw new InvalidSettingException(
                    field,
                    h + " is above the tenants' count (" + count + "); give how many of them run high, 0 to " + count);
        }
        if (h > 0 && high.isEmpty()) {
            throw new InvalidSettingException(
                    field,
                    (h == 1 ? "1 high tenant needs" : h + " high tenants need")
                            + " tenants.high, the load it runs; add e.g. high: { threads: 24, requestsPerSecond: 1200 }"
                            + " under tenants:");
        }
        if (h < count && low.isEmpty()) {
            int lows = count - h;
            throw new InvalidSettingException(
                    field,
                    (lows == 1 ? "1 low tenant needs" : lows + " low tenants need")
                            + " tenants.low, the load it runs; add e.g. low: { threads: 16, requestsPerSecond: 190 }"
                            + " under tenants:");
        }
    }

    /**
     * The tenants as they run under {@code configuration}: its own scenario ({@code highTenants}: the last that many
     * run {@link #high()}, the others {@link #low()}) where it names one, the tenants as written otherwise. Their
     * containers, ports and databases are the same under every configuration; only the loads differ.
     */
    public List<TenantPlan> tenantsUnder(TenantConfiguration configuration) {
        if (configuration.highTenants().isEmpty()) {
            return tenants;
        }
        int highCount = configuration.highTenants().getAsInt();
        List<TenantPlan> under = new ArrayList<>();
        for (int i = 0; i < tenants.size(); i++) {
            boolean isHigh = i >= tenants.size() - highCount;
            TenantLoad load = (isHigh ? high : low).orElseThrow();
            under.add(tenants.get(i).withLoad(load, isHigh));
        }
        return under;
    }

    /**
     * Tenants whose threads cannot send their rate while they answer at their response-time goal: a closed group of
     * threads sends at most threads / response time requests a second, so 4 threads with a 50 ms goal stop at 80/s,
     * and a tenant asked for 100/s would measure its thread group rather than its share of the CPUs. One line per
     * tenant and load, naming the configurations that give it; empty when none falls short. Tenants without a goal
     * are checked after their runs, against the response time they measured.
     */
    public List<String> threadShortfalls() {
        Map<String, List<String>> under = new LinkedHashMap<>();
        for (TenantConfiguration c : configurations) {
            for (TenantPlan p : tenantsUnder(c)) {
                if (p.requestsPerSecond() <= 0 || p.responseTimeGoalMs().isEmpty()) {
                    continue;
                }
                long goalMs = p.responseTimeGoalMs().getAsLong();
                double ceiling = p.threads() * 1000.0 / goalMs;
                if (ceiling >= p.requestsPerSecond()) {
                    continue;
                }
                String what = String.format(
                        Locale.ROOT,
                        "%s: %d threads answering at its goal of %d ms send at most %s/s of the %s/s asked; give it at"
                                + " least %d threads (rate x response time)",
                        p.name(),
                        p.threads(),
                        goalMs,
                        BigDecimal.valueOf(ceiling)
                                .setScale(1, RoundingMode.HALF_UP)
                                .stripTrailingZeros()
                                .toPlainString(),
                        BigDecimal.valueOf(p.requestsPerSecond())
                                .stripTrailingZeros()
                                .toPlainString(),
                        (long) Math.ceil(p.requestsPerSecond() * goalMs / 1000.0));
                under.computeIfAbsent(what, k -> new ArrayList<>()).add(c.name());
            }
        }
        List<String> lines = new ArrayList<>();
        under.forEach(
                (what, configs) -> lines.add(what.replaceFirst(":", " (under " + String.join(", ", configs) + "):")));
        return lines;
    }

    /** {@code tenant-N}, 1-based: the one way tenants are named. */
    public static String name(int oneBased) {
        return "tenant-" + oneBased;
    }

    public List<String> tenantNames() {
        return tenants.stream().map(TenantPlan::name).toList();
    }

    public List<String> configurationNames() {
        return configurations.stream().map(TenantConfiguration::name).toList();
    }

    /**
     * What a criterion names in a multi-tenant experiment: a tenant under a configuration, {@code CONFIGURATION/TENANT}
     * ({@code dynamic/tenant-4}), each configuration's tenants in order.
     */
    public List<String> criterionNames() {
        List<String> names = new ArrayList<>();
        for (String c : configurationNames()) {
            for (String t : tenantNames()) {
                names.add(c + "/" + t);
            }
        }
        return names;
    }

    public TenantConfiguration configuration(String name) {
        return configurations.stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new InvalidSettingException(
                        "configuration",
                        "'" + name + "' is not a configuration; use one of "
                                + String.join(", ", configurationNames())));
    }

    /** The CPUs the tenants share, 0 .. cpus-1. */
    public CpuSet cpuSet() {
        return CpuSet.parseList("tenants.cpus", cpus == 1 ? "0" : "0-" + (cpus - 1));
    }
}
