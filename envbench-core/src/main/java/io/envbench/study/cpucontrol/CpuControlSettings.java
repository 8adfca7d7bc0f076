package io.envbench.study.cpucontrol;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;

/**
 * How a CPU controller works: the mode, how often the dynamic loop looks, how many CPUs a pinned tenant gets, where
 * unpinned tenants run, which tenants are high, and the dynamic loop's thresholds. Checked when made: every wrong value
 * is refused with its field and the fix. Immutable.
 *
 * @param mode                 none, static or dynamic
 * @param interval             how often the dynamic loop reads and decides: {@link #MIN_INTERVAL} to {@link #MAX_INTERVAL}
 * @param cpusPerTenant        CPUs a pinned tenant gets (study 004 (docs/studies.md#study-004): 2), when there are
 *                             enough; see {@link CpuLayout}
 * @param floating             where tenants that are not pinned run
 * @param highTenants          the tenants that start floating (study 004's 7 and 8); empty: static decides them from
 *                             the first reading, dynamic pins every tenant at first
 * @param releaseAbovePct      a pinned tenant using at least this % of its CPUs ...
 * @param releaseAfterSteps    ... for this many steps in a row is released
 * @param pinBelowPct          a floating tenant using less than this % of the CPUs it is pinned to ...
 * @param pinAfterSteps        ... for this many steps in a row (and meeting its goal) is pinned again
 * @param goalMissedSteps      a pinned tenant whose 90% line is over its goal this many steps in a row is released
 * @param goalMetFraction      a released tenant with a goal is pinned again only while its 90% line is at most this
 *                             fraction of its goal (hysteresis: it was released for missing it)
 * @param irqSteeringPeriod    how often interrupts are steered to the free CPUs (study 004: 10 s)
 */
public record CpuControlSettings(
        CpuControlMode mode,
        Duration interval,
        int cpusPerTenant,
        FloatingCpus floating,
        Optional<Set<String>> highTenants,
        double releaseAbovePct,
        int releaseAfterSteps,
        double pinBelowPct,
        int pinAfterSteps,
        int goalMissedSteps,
        double goalMetFraction,
        Duration irqSteeringPeriod) {
    /** The dynamic loop's shortest interval: a cgroup's CPU counter over less is mostly noise from one scheduler tick. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    /** Its longest: a loop slower than this reacts after the harm is done (study 004 steered IRQs every 10 s). */
    public static final Duration MAX_INTERVAL = Duration.ofSeconds(10);
    /** At most this many steps in a row for a rule: at 10 s, 10 minutes, study 004's whole run. */
    public static final int MAX_STEPS = 60;

    public CpuControlSettings {
        if (mode == null) {
            throw new InvalidSettingException("cpuControl", "is missing; choose none, static or dynamic");
        }
        if (interval == null || interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new InvalidSettingException(
                    "controlInterval",
                    (interval == null
                                    ? "is missing"
                                    : seconds(interval) + " s is outside " + MIN_INTERVAL.toSeconds() + " to "
                                            + MAX_INTERVAL.toSeconds() + " s")
                            + "; give a number of seconds from "
                            + MIN_INTERVAL.toSeconds() + " to " + MAX_INTERVAL.toSeconds() + ", e.g. 2");
        }
        if (cpusPerTenant < 1 || cpusPerTenant > CpuSet.MAX_CPU) {
            throw new InvalidSettingException(
                    "cpusPerTenant", cpusPerTenant + " CPUs per pinned tenant; give at least 1 (study 004: 2)");
        }
        floating = floating == null ? FloatingCpus.UNPINNED : floating;
        highTenants = highTenants == null ? Optional.empty() : highTenants.map(Set::copyOf);
        percent("releaseAbovePct", releaseAbovePct);
        percent("pinBelowPct", pinBelowPct);
        if (pinBelowPct >= releaseAbovePct) {
            throw new InvalidSettingException(
                    "pinBelowPct",
                    pinBelowPct + "% is not below releaseAbovePct (" + releaseAbovePct
                            + "%); pin again well below the release threshold (e.g. 50 and 90), or the tenant flaps");
        }
        steps("releaseAfterSteps", releaseAfterSteps);
        steps("pinAfterSteps", pinAfterSteps);
        steps("goalMissedSteps", goalMissedSteps);
        if (!(goalMetFraction > 0 && goalMetFraction <= 1)) {
            throw new InvalidSettingException(
                    "goalMetFraction",
                    goalMetFraction + " is outside (0, 1]; e.g. 0.8 pins a released "
                            + "tenant again once its 90% line is at most 80% of its goal");
        }
        if (irqSteeringPeriod == null
                || irqSteeringPeriod.compareTo(MIN_INTERVAL) < 0
                || irqSteeringPeriod.toMinutes() > 10) {
            throw new InvalidSettingException(
                    "irqSteeringPeriod",
                    (irqSteeringPeriod == null ? "is missing" : seconds(irqSteeringPeriod) + " s")
                            + "; give 1 to 600 s (study 004: 10)");
        }
    }

    /**
     * The defaults for a mode: a 2 s interval, 1 CPU per pinned tenant (this 2-CPU machine; study 004 gave 2),
     * floating on the unpinned CPUs, release at 90% for 3 steps, pin again under 50% for 3 steps, act on a goal missed
     * for 3 steps and pin such a tenant again at 80% of its goal, interrupts steered every 10 s.
     */
    public static CpuControlSettings defaults(CpuControlMode mode) {
        return new CpuControlSettings(
                mode,
                Duration.ofSeconds(2),
                1,
                FloatingCpus.UNPINNED,
                Optional.empty(),
                90,
                3,
                50,
                3,
                3,
                0.8,
                Duration.ofSeconds(10));
    }

    public CpuControlSettings withInterval(Duration interval) {
        return new CpuControlSettings(
                mode,
                interval,
                cpusPerTenant,
                floating,
                highTenants,
                releaseAbovePct,
                releaseAfterSteps,
                pinBelowPct,
                pinAfterSteps,
                goalMissedSteps,
                goalMetFraction,
                irqSteeringPeriod);
    }

    public CpuControlSettings withCpusPerTenant(int cpus) {
        return new CpuControlSettings(
                mode,
                interval,
                cpus,
                floating,
                highTenants,
                releaseAbovePct,
                releaseAfterSteps,
                pinBelowPct,
                pinAfterSteps,
                goalMissedSteps,
                goalMetFraction,
                irqSteeringPeriod);
    }

    public CpuControlSettings withFloating(FloatingCpus where) {
        return new CpuControlSettings(
                mode,
                interval,
                cpusPerTenant,
                where,
                highTenants,
                releaseAbovePct,
                releaseAfterSteps,
                pinBelowPct,
                pinAfterSteps,
                goalMissedSteps,
                goalMetFraction,
                irqSteeringPeriod);
    }

    public CpuControlSettings withHighTenants(Set<String> high) {
        return new CpuControlSettings(
                mode,
                interval,
                cpusPerTenant,
                floating,
                Optional.of(high),
                releaseAbovePct,
                releaseAfterSteps,
                pinBelowPct,
                pinAfterSteps,
                goalMissedSteps,
                goalMetFraction,
                irqSteeringPeriod);
    }

    /** The release rule: at or above {@code pct} for {@code steps} steps; the pin rule: below {@code pinPct} for {@code pinSteps}. */
    public CpuControlSettings withRules(double pct, int steps, double pinPct, int pinSteps) {
        return new CpuControlSettings(
                mode,
                interval,
                cpusPerTenant,
                floating,
                highTenants,
                pct,
                steps,
                pinPct,
                pinSteps,
                goalMissedSteps,
                goalMetFraction,
                irqSteeringPeriod);
    }

    public CpuControlSettings withGoalRule(int missedSteps, double metFraction) {
        return new CpuControlSettings(
                mode,
                interval,
                cpusPerTenant,
                floating,
                highTenants,
                releaseAbovePct,
                releaseAfterSteps,
                pinBelowPct,
                pinAfterSteps,
                missedSteps,
                metFraction,
                irqSteeringPeriod);
    }

    public CpuControlSettings withIrqSteeringPeriod(Duration period) {
        return new CpuControlSettings(
                mode,
                interval,
                cpusPerTenant,
                floating,
                highTenants,
                releaseAbovePct,
                releaseAfterSteps,
                pinBelowPct,
                pinAfterSteps,
                goalMissedSteps,
                goalMetFraction,
                period);
    }

    private static void percent(String field, double pct) {
        if (!(pct > 0 && pct <= 100)) {
            throw new InvalidSettingException(
                    field, pct + "% is outside (0, 100]; give a share of the tenant's CPUs, e.g. 90");
        }
    }

    private static void steps(String field, int n) {
        if (n < 1 || n > MAX_STEPS) {
            throw new InvalidSettingException(field, n + " steps is outside 1 to " + MAX_STEPS + "; e.g. 3");
        }
    }

    private static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis())
                .movePointLeft(3)
                .stripTrailingZeros()
                .toPlainString();
    }
}
