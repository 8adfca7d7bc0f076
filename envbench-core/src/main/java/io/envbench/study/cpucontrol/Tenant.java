package io.envbench.study.cpucontrol;

import java.time.Duration;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;

/**
 * A tenant the CPU controller places: its name as every table shows it ({@code tenant-1}), its container, and an
 * optional goal for its 90% line. Immutable.
 *
 * @param name             e.g. {@code tenant-1}
 * @param containerId      its container's id (or name)
 * @param responseTimeGoal the 90% line it should stay under; empty when it has none (only CPU then counts)
 */
public record Tenant(String name, String containerId, Optional<Duration> responseTimeGoal) {
    public Tenant {
        if (name == null || name.isBlank()) {
            throw new InvalidSettingException("tenants", "a tenant has no name; name each, e.g. tenant-1");
        }
        if (containerId == null || containerId.isBlank()) {
            throw new InvalidSettingException(
                    "tenants", "tenant '" + name + "' has no container; give its container id");
        }
        if (responseTimeGoal.isPresent()
                && (responseTimeGoal.get().isNegative()
                        || responseTimeGoal.get().isZero())) {
            throw new InvalidSettingException(
                    "responseTimeGoal",
                    "tenant '" + name + "': " + responseTimeGoal.get().toMillis()
                            + " ms is no goal; give a positive 90% line, e.g. 20 ms, or none");
        }
    }

    /** A tenant without a response-time goal. */
    public static Tenant of(String name, String containerId) {
        return new Tenant(name, containerId, Optional.empty());
    }

    /** A tenant whose 90% line should stay under {@code goal}. */
    public static Tenant withGoal(String name, String containerId, Duration goal) {
        return new Tenant(name, containerId, Optional.of(goal));
    }
}
