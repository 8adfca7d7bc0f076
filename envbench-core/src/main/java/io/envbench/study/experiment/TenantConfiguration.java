package io.envbench.study.experiment;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;

import io.envbench.base.settings.FileSafeName;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.FloatingCpus;
import net.jcip.annotations.Immutable;

/**
 * One compared configuration of a multi-tenant experiment: how the tenants' CPUs are controlled and whether network
 * interrupts are steered while they run. The repetitions interleave the configurations (A B C A B C) as they
 * interleave environments. Immutable. Validation errors name the field as written under a configuration.
 *
 * @param name              letters, digits, '.', '_' or '-'; names the run's files ({@code jtl/NAME-r1.jtl})
 * @param cpuControl        what controls the tenants' cpusets during the measured part of each run (study 004's
 *                          controllers, {@link io.envbench.study.cpucontrol}; docs/studies.md#study-004)
 * @param interruptSteering whether the network IRQs and the tenants' receive processing are steered to free CPUs
 * @param controlInterval   the dynamic controller's loop period, 1 to 10 s
 * @param highTenants       the scenario under this configuration: how many tenants (the last ones) run the high load;
 *                          empty: the tenants' own ({@code tenants.highTenants}). Lets one file interleave the paper's
 *                          scenarios 1, 2 and 3, so their figures compare run against run
 * @param floating          where the tenants the control does not pin run (only with a static or dynamic control):
 *                          the CPUs no tenant is pinned to, every CPU, or every CPU at the lowest weight ({@link
 *                          FloatingCpus})
 */
@Immutable
public record TenantConfiguration(
        String name,
        CpuControlMode cpuControl,
        boolean interruptSteering,
        Duration controlInterval,
        OptionalInt highTenants,
        FloatingCpus floating) {
    public static final Duration DEFAULT_CONTROL_INTERVAL = Duration.ofSeconds(5);
    public static final Duration MIN_CONTROL_INTERVAL = Duration.ofSeconds(1);
    public static final Duration MAX_CONTROL_INTERVAL = Duration.ofSeconds(10);

    public TenantConfiguration {
        FileSafeName.check("name", name, "static");
        Objects.requireNonNull(cpuControl, "cpuControl");
        Objects.requireNonNull(controlInterval, "controlInterval");
        Objects.requireNonNull(highTenants, "highTenants");
        Objects.requireNonNull(floating, "floating");
        if (floating != FloatingCpus.UNPINNED && cpuControl == CpuControlMode.NONE) {
            throw new InvalidSettingException(
                    "floating",
                    floating.yamlName() + " only applies under a cpu control (nothing is pinned with none); "
                            + "remove it, or set cpuControl: static or dynamic");
        }
        if (highTenants.isPresent() && highTenants.getAsInt() < 0) {
            throw new InvalidSettingException(
                    "highTenants",
                    highTenants.getAsInt() + " is below 0; give how many tenants run high under this configuration, "
                            + "e.g. 2, or leave it out");
        }
        if (controlInterval.compareTo(MIN_CONTROL_INTERVAL) < 0
                || controlInterval.compareTo(MAX_CONTROL_INTERVAL) > 0) {
            throw new InvalidSettingException(
                    "controlIntervalSeconds",
                    LoadPlan.seconds(controlInterval) + " s is outside 1 to 10 s; "
                            + "give how often the dynamic controller looks, e.g. 5");
        }
    }

    /** A configuration that runs the tenants' own scenario. */
    public TenantConfiguration(
            String name, CpuControlMode cpuControl, boolean interruptSteering, Duration controlInterval) {
        this(name, cpuControl, interruptSteering, controlInterval, OptionalInt.empty(), FloatingCpus.UNPINNED);
    }

    /** {@code none}, {@code static}, {@code dynamic}: as written in a file. */
    public static String yamlName(CpuControlMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    /** {@code on}/{@code off} as written in a file (also true/false, yes/no). */
    public static boolean parseOnOff(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new InvalidSettingException(field, "'" + text + "' is neither on nor off; use on or off");
        };
    }
}
