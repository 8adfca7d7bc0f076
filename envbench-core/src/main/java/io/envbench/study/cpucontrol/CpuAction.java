package io.envbench.study.cpucontrol;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * One thing a CPU controller did, or decided not to do and why, for the timeline drawn over the metrics. Immutable.
 *
 * @param at         when
 * @param sinceStart since the controller started
 * @param tenant     the tenant it concerns; empty for the host (interrupt steering)
 * @param kind       what kind of action
 * @param action     what, e.g. {@code pin 0}, {@code release to 1}, {@code steer IRQ 38 -> CPU 1}
 * @param reason     why, e.g. {@code cpu 97% of its 1 CPU (0) for 3 steps, at least 90%}
 */
public record CpuAction(Instant at, Duration sinceStart, String tenant, Kind kind, String action, String reason) {
    /** What kind of action. */
    public enum Kind {
        /** A tenant's cpuset set to its home. */
        PIN,
        /** A pinned tenant set free to float. */
        RELEASE,
        /** A floating tenant's cpuset changed because the floating CPUs did (another tenant pinned or released). */
        FLOAT,
        /** Network IRQs pointed at the free CPUs. */
        STEER_IRQ,
        /** Receive processing (RPS) of the tenants' veth host ends pointed at the free CPUs. */
        STEER_RPS,
        /** A cpuset put back as it was before the controller. */
        RESTORE,
        /** Nothing changed, and why (a goal missed with nothing left to give, the first reading awaited, an apply that failed). */
        NOTE
    }

    /** E.g. {@code 12.0 s tenant-1 release to 1: cpu 97% of its 1 CPU (0) for 3 steps, at least 90%}. */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "%.1f s %s%s: %s",
                sinceStart.toMillis() / 1000.0,
                tenant.isEmpty() ? "" : tenant + " ",
                action,
                reason);
    }
}
