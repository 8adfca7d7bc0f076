package io.envbench.study.experiment;

import java.util.Objects;
import java.util.OptionalLong;

import net.jcip.annotations.Immutable;

/**
 * The load a group of tenants runs ({@code tenants.low}, {@code tenants.high}): what a configuration's
 * {@code highTenants} hands each tenant when it names a scenario of its own. Immutable; checked where it becomes a
 * {@link TenantPlan}.
 *
 * @param threads            each tenant's JMeter threads
 * @param requestsPerSecond  each tenant's rate; 0 = closed loop
 * @param responseTimeGoalMs a goal for each tenant's 90% line; empty for none
 */
@Immutable
public record TenantLoad(int threads, double requestsPerSecond, OptionalLong responseTimeGoalMs) {
    public TenantLoad {
        Objects.requireNonNull(responseTimeGoalMs, "responseTimeGoalMs");
    }
}
