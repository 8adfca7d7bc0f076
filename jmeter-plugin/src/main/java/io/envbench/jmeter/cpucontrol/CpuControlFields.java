package io.envbench.jmeter.cpucontrol;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.CpuControlSettings;
import io.envbench.study.cpucontrol.FloatingCpus;
import io.envbench.study.cpucontrol.Tenant;
import io.envbench.study.steering.IrqBalancePolicy;

/**
 * The EnvBench CPU Control's fields, as the user typed them (after JMeter replaced their {@code ${...}}), checked
 * into what the core's {@code cpucontrol} takes. Every wrong field is an {@link InvalidSettingException} naming the
 * field as its GUI labels it and giving the fix. No JMeter here: plain unit tests reach all of it. Immutable.
 *
 * @param settings         the controller's settings; {@code highTenants} as given (names checked against the running
 *                         tenants only when they are known: {@link #settingsFor})
 * @param highTenants      the tenants that start floating; empty: none named
 * @param goals            the 90% line each named tenant should stay under
 * @param interruptSteering whether the network IRQs are steered to the free CPUs
 * @param irqBalance       what to do when irqbalance runs
 * @param receiveSteering  whether the tenants' veth receive processing (RPS) is steered to the free CPUs
 */
public record CpuControlFields(
        CpuControlSettings settings,
        Set<String> highTenants,
        Map<String, Duration> goals,
        boolean interruptSteering,
        IrqBalancePolicy irqBalance,
        boolean receiveSteering) {
    /** GUI labels: the names errors give. */
    public static final String MODE = "Mode";

    public static final String INTERVAL = "Interval (s)";
    public static final String HIGH_TENANTS = "High tenants";
    public static final String GOALS = "Response-time goals (ms)";
    public static final String CPUS_PER_TENANT = "CPUs per tenant";
    public static final String FLOATING = "Floating tenants on";
    public static final String IRQ_STEERING = "Interrupt steering";
    public static final String IRQ_BALANCE = "irqbalance";
    public static final String RPS_STEERING = "RPS steering";
    public static final String TIMELINE_FILE = "Timeline file";

    public CpuControlFields {
        highTenants = Set.copyOf(highTenants);
        goals = Map.copyOf(goals);
    }

    /**
     * Checks every field.
     *
     * @param goals    e.g. {@code tenant-1=200,tenant-2=500}: milliseconds of the 90% line per tenant; empty: none
     * @param floating where tenants not pinned run: {@code unpinned}, {@code all} or {@code spare} ({@link FloatingCpus})
     * @throws InvalidSettingException naming the first wrong field
     */
    public static CpuControlFields parse(
            String mode,
            String intervalSeconds,
            String highTenants,
            String goals,
            String cpusPerTenant,
            String interruptSteering,
            String irqBalance,
            String receiveSteering,
            String floating) {
        CpuControlMode m = CpuControlMode.parse(MODE, mode);
        long interval = wholeNumber(
                INTERVAL,
                intervalSeconds,
                CpuControlSettings.MIN_INTERVAL.toSeconds(),
                CpuControlSettings.MAX_INTERVAL.toSeconds(),
                "seconds",
                "2 in the field or -Jenvbench.cpucontrol.interval.seconds=2");
        long cpus = wholeNumber(CPUS_PER_TENANT, cpusPerTenant, 1, CpuSet.MAX_CPU, "CPUs", "1 (study 004: 2)");
        CpuControlSettings s = CpuControlSettings.defaults(m)
                .withInterval(Duration.ofSeconds(interval))
                .withCpusPerTenant((int) cpus)
                .withFloating(FloatingCpus.parse(FLOATING, floating));
        return new CpuControlFields(
                s,
                names(highTenants),
                goals(goals),
                onOff(IRQ_STEERING, interruptSteering),
                policy(irqBalance),
                onOff(RPS_STEERING, receiveSteering));
    }

    /**
     * The settings for the tenants running now: the high tenants among them (a named one that does not run is left
     * out, and said in {@code missing}).
     */
    public CpuControlSettings settingsFor(List<String> running, List<String> missing) {
        if (highTenants.isEmpty()) {
            return settings;
        }
        Set<String> present = new LinkedHashSet<>();
        for (String h : highTenants) {
            if (running.contains(h)) {
                present.add(h);
            } else {
                missing.add(h);
            }
        }
        return settings.withHighTenants(present);
    }

    /** The tenant of this name and container, with its goal when one is given. */
    public Tenant tenant(String name, String containerId) {
        Duration goal = goals.get(name);
        return goal == null ? Tenant.of(name, containerId) : Tenant.withGoal(name, containerId, goal);
    }

    private static Set<String> names(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String n : split(text)) {
            if (!n.matches("[A-Za-z0-9_.-]+")) {
                throw new InvalidSettingException(
                        HIGH_TENANTS,
                        "'" + n + "' is no tenant name; give environment names separated by commas, "
                                + "e.g. tenant-7,tenant-8, or leave it empty");
            }
            out.add(n);
        }
        return out;
    }

    private static Map<String, Duration> goals(String text) {
        Map<String, Duration> out = new LinkedHashMap<>();
        for (String pair : split(text)) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? "" : pair.substring(0, eq).trim();
            String ms = eq < 0 ? "" : pair.substring(eq + 1).trim();
            if (name.isEmpty()
                    || !name.matches("[A-Za-z0-9_.-]+")
                    || !ms.matches("\\d{1,9}")
                    || Long.parseLong(ms) == 0) {
                throw new InvalidSettingException(
                        GOALS,
                        "'" + pair + "' is not TENANT=MILLISECONDS; give the 90% line each tenant "
                                + "should stay under, e.g. tenant-1=200,tenant-2=500 (a positive whole number of ms), or leave it empty");
            }
            out.put(name, Duration.ofMillis(Long.parseLong(ms)));
        }
        return out;
    }

    private static List<String> split(String text) {
        return text == null
                ? List.of()
                : Arrays.stream(text.split(","))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .toList();
    }

    private static boolean onOff(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no", "" -> false;
            default ->
                throw new InvalidSettingException(field, "'" + text + "' is neither on nor off; choose on or off");
        };
    }

    private static IrqBalancePolicy policy(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        for (IrqBalancePolicy p : IrqBalancePolicy.values()) {
            if (p.name().equals(t)) {
                return p;
            }
        }
        throw new InvalidSettingException(
                IRQ_BALANCE,
                "'" + text + "' is no choice; refuse (stop if irqbalance runs) or pause "
                        + "(paused for the test, resumed after)");
    }

    private static long wholeNumber(String field, String text, long min, long max, String unit, String example) {
        String t = text == null ? "" : text.trim();
        String fix = "; give a whole number of " + unit + " from " + min + " to " + max + ", e.g. " + example;
        if (!t.matches("[+-]?\\d{1,18}")) {
            throw new InvalidSettingException(
                    field, (t.isEmpty() ? "is empty" : "'" + text + "' is not a whole number") + fix);
        }
        long v = Long.parseLong(t);
        if (v < min || v > max) {
            throw new InvalidSettingException(field, "'" + t + "' is outside " + min + " to " + max + fix);
        }
        return v;
    }
}
