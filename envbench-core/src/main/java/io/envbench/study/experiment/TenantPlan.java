package io.envbench.study.experiment;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.OptionalLong;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * One tenant of a multi-tenant experiment: its container (the target in Docker, its own port and database) and the
 * load its own JMeter thread group puts on it. Immutable. Validation errors name the field as written under a tenant.
 *
 * @param name               {@code tenant-1} .. {@code tenant-N}: every table and file names it so
 * @param definition         the container: placement docker, the tenant's port, cpuset, and {@code DB_NAME} in its environment
 * @param threads            the tenant's JMeter threads, each its own user of the tenant's database
 * @param requestsPerSecond  the tenant's target rate (requests, not sessions) for all its threads; 0 = closed loop
 * @param responseTimeGoalMs a goal for the tenant's 90% line a CPU controller may act on; empty for none
 * @param high               whether it is one of the scenario's high tenants (the paper's tenant 8, then 7 and 8): a static
 *                           control lets it float instead of pinning it
 */
@Immutable
public record TenantPlan(
        String name,
        EnvironmentDefinition definition,
        int threads,
        double requestsPerSecond,
        OptionalLong responseTimeGoalMs,
        boolean high) {
    /** A goal beyond an hour is a typo. */
    public static final long MAX_RESPONSE_TIME_GOAL_MS = 3_600_000;

    public TenantPlan {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(responseTimeGoalMs, "responseTimeGoalMs");
        if (!definition.name().equals(name)) {
            throw new InvalidSettingException(
                    "name", "'" + name + "' differs from its container's name '" + definition.name() + "'");
        }
        if (definition.placement() != EnvironmentDefinition.Placement.DOCKER) {
            throw new InvalidSettingException("placement", "a tenant runs in a container; its placement is docker");
        }
        if (threads < 1) {
            throw new InvalidSettingException(
                    "threads", threads + " is below 1; give the tenant's concurrent users, e.g. 4");
        }
        if (threads > HttpLoad.MAX_THREADS) {
            throw new InvalidSettingException(
                    "threads",
                    threads + " is above " + HttpLoad.MAX_THREADS + " (one JMeter's threads on one "
                            + "machine); give at most " + HttpLoad.MAX_THREADS + ", e.g. 32");
        }
        if (!(requestsPerSecond >= 0) || Double.isInfinite(requestsPerSecond)) {
            throw new InvalidSettingException(
                    "requestsPerSecond",
                    requestsPerSecond + " is not a rate; give the tenant's requests per "
                            + "second, or 0 for a closed loop");
        }
        if (requestsPerSecond > HttpLoad.MAX_REQUESTS_PER_SECOND) {
            throw new InvalidSettingException(
                    "requestsPerSecond",
                    BigDecimal.valueOf(requestsPerSecond).toPlainString() + " is above "
                            + (long) HttpLoad.MAX_REQUESTS_PER_SECOND + "; give at most "
                            + (long) HttpLoad.MAX_REQUESTS_PER_SECOND
                            + " requests per second, or 0 for a closed loop");
        }
        if (responseTimeGoalMs.isPresent()
                && (responseTimeGoalMs.getAsLong() < 1 || responseTimeGoalMs.getAsLong() > MAX_RESPONSE_TIME_GOAL_MS)) {
            throw new InvalidSettingException(
                    "responseTimeGoalMs",
                    responseTimeGoalMs.getAsLong() + " is not a goal; give whole " + "milliseconds from 1 to "
                            + MAX_RESPONSE_TIME_GOAL_MS + ", e.g. 50, or leave it out");
        }
    }

    /** Whether its threads run as fast as the tenant answers (no rate). */
    public boolean closedLoop() {
        return requestsPerSecond == 0;
    }

    /** The same tenant (container, port, database) running {@code load}, high or not. */
    public TenantPlan withLoad(TenantLoad load, boolean high) {
        return new TenantPlan(
                name, definition, load.threads(), load.requestsPerSecond(), load.responseTimeGoalMs(), high);
    }

    /** The tenant's database (and role) on the host's PostgreSQL: {@code daytrader_tenant_1} for {@code tenant-1}. */
    public String database() {
        return "daytrader_" + databaseSuffix();
    }

    /** What targets/daytrader/db.sh calls the tenant ({@code db.sh rebuild tenant_1 URL}): the name with '-' as '_'. */
    public String databaseSuffix() {
        return name.replace('-', '_');
    }
}
