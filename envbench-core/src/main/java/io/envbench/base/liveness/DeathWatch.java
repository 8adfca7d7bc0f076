package io.envbench.base.liveness;

import net.jcip.annotations.ThreadSafe;

/**
 * Watches one running target for a death EnvBench did not cause (killed by the OOM killer, crashed,
 * removed from outside) and tells it once, with a reason a user reads. Made by
 * {@code RunningTarget.watchForDeath}; the target's own stop ends the watch
 * first, so a stop EnvBench makes is never reported. Closing it stops watching; safe to call twice.
 * Implementations are thread-safe.
 */
@ThreadSafe
public interface DeathWatch extends AutoCloseable {
    @Override
    void close();
}
