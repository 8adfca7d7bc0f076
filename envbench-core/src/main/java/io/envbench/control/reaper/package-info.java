/**
 * A reaper that needs no next run: the resources of an owner that died (containers, networks and volumes
 * on every daemon it used, its bare-metal processes; the host settings it changed are put back) are removed seconds after its death, by a small
 * process it started, not at the next EnvBench start. Testcontainers' Ryuk is the model: a connection
 * that drops when the owner dies.
 *
 * <p>{@link io.envbench.host.reaper.ReaperProcess} is the owner's side: at the first resource it starts
 * {@link io.envbench.control.reaper.Reaper} as a separate JVM in its own session (a Ctrl-C to the owner's terminal
 * does not reach it) and tells it, one line per place, where it creates things. The reaper holds the read
 * end of that pipe: end of file means the owner is gone (the kernel closes a killed process's pipes).
 * It then waits until the owner process is provably gone, and sweeps each place with the same
 * {@link io.envbench.base.environment.LeftoverCheck} as the sweep at every start, so it never removes what a
 * live owner still uses.
 */
package io.envbench.control.reaper;
