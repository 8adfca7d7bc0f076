package io.envbench.base.recipe;

import java.util.Optional;

import io.envbench.base.environment.Endpoint;
import io.envbench.base.readiness.Readiness;
import io.envbench.base.settings.InvalidSettingException;

/** What runs for an environment: a host process, a container, or a target made of several services. */
public sealed interface TargetSpec permits BareMetalTarget, ContainerTarget, ServicesTarget {
    /** The port on 127.0.0.1 where load goes; 0 for a target without a port. */
    int hostPort();

    /** Where load goes, or empty for a target without a port. */
    default Optional<Endpoint> endpoint() {
        return hostPort() == 0 ? Optional.empty() : Optional.of(new Endpoint("127.0.0.1", hostPort()));
    }

    Readiness readiness();

    /** A check that needs a port on a target without one can never pass: refuse it up front. */
    static void checkReadinessFits(int hostPort, Readiness readiness) {
        if (hostPort == 0 && readiness.check().needsPort()) {
            throw new InvalidSettingException(
                    "ready",
                    "the target has no port, so '" + readiness.check().describe()
                            + "' cannot be checked; use a log line, a command or an exit code");
        }
    }
}
