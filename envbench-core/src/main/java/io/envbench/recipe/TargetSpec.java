package io.envbench.recipe;

import io.envbench.readiness.Readiness;

/** What runs for an environment: a host process or a container. */
public sealed interface TargetSpec permits BareMetalTarget, ContainerTarget {
    /** The port on 127.0.0.1 where load goes. */
    int hostPort();

    Readiness readiness();
}
