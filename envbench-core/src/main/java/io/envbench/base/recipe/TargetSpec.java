package io.envbench.base.recipe;

import io.envbench.base.readiness.Readiness;

/** What runs for an environment: a host process, a container, or a target made of several services. */
public sealed interface TargetSpec permits BareMetalTarget, ContainerTarget, ServicesTarget {
    /** The port on 127.0.0.1 where load goes; 0 for a target without a port. */
    int hostPort();

    /** Where load goes, or empty for a target without a port. */
    default java.util.Optional<io.envbench.base.environment.Endpoint> endpoint() {
        return hostPort() == 0 ? java.util.Optional.empty()
                : java.util.Optional.of(new io.envbench.base.environment.Endpoint("127.0.0.1", hostPort()));
    }

    Readiness readiness();

    /** A check that needs a port on a target without one can never pass: refuse it up front. */
    static void checkReadinessFits(int hostPort, io.envbench.base.readiness.Readiness readiness) {
        if (hostPort == 0 && readiness.check().needsPort()) {
            throw new io.envbench.base.settings.InvalidSettingException("ready", "the target has no port, so '" + readiness.check().describe()
                    + "' cannot be checked; use a log line, a command or an exit code");
        }
    }
}
