package io.envbench.base.recipe;

import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;

/**
 * Starts targets of one kind ({@link TargetSpec}) as an environment: a host process, a container, a target of several
 * services. The registry asks each launcher it has for its {@link #kind()} and starts a resolved target with the one
 * it is an instance of; a new kind of target is a new {@code TargetSpec} and a launcher for it.
 *
 * @param <S> the kind of target it starts
 */
public interface Launcher<S extends TargetSpec> {
    /** The targets it starts. */
    Class<S> kind();

    /**
     * Starts the target, ready for load, named {@code environment}; what it made is removed again when it fails.
     *
     * @throws TargetStartException when it did not start or get ready
     */
    RunningTarget start(String environment, S target) throws TargetStartException;
}
