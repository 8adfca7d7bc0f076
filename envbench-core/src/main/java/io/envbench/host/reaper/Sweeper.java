package io.envbench.host.reaper;

import java.util.function.Consumer;

/**
 * Sweeps one kind of place a dead owner may have left things in: a Docker daemon, a folder of bare-metal state
 * files, a cgroup, a folder of host-settings journals. The reaper knows only this interface; each sweeper sits beside
 * what it sweeps, and the reaper's main names them.
 */
public interface Sweeper {
    /** The kind of place, as the first field of the owner's line ({@link ReaperProcess#DOCKER}, ...). */
    String kind();

    /**
     * Called while the owner still lives, for each place it named: e.g. connect early, so classes are loaded and a
     * daemon known; a failure is only said.
     */
    default void prepare(String place, Consumer<String> say) {}

    /**
     * Removes or puts back what the dead owner left in {@code place} (the line after its kind), saying each thing
     * done.
     *
     * @return how many things were removed or put back
     * @throws RuntimeException when the place cannot be swept now (a daemon restarting): the reaper tries again for a
     *     while
     */
    int sweep(String place, long ownerPid, Consumer<String> say);
}
