package io.envbench.base.environment;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import io.envbench.base.liveness.DeathWatch;

/** A started, ready target. Stopping it removes everything that was made for it. */
public interface RunningTarget extends AutoCloseable {
    /** The environment name it was started for. */
    String environment();

    /** Where load goes (a loopback address), or empty for a target without a port. */
    Optional<Endpoint> endpoint();

    /** From the start request to the readiness check passing. */
    Duration startToReady();

    /** Host PID of the server process (bare metal) or of the container's main process. */
    long pid();

    /** The container id, when it is a container. */
    Optional<String> containerId();

    /**
     * The services of a target made of several (a web server, an application, a database), by name, in start order;
     * empty for a target of one process or container.
     */
    default Map<String, RunningTarget> services() {
        return Map.of();
    }

    /** One line for logs and sample messages: what runs where. */
    String describe();

    /** The last lines the server printed. */
    String logs(int lines);

    /**
     * Watches for a death EnvBench did not cause (OOM killer, crash, removed from outside): {@code onDeath}
     * hears it once, with a reason a user reads, e.g. {@code killed: out of memory, limit 6m}. {@link #stop()}
     * ends every watch before it stops anything, so a stop EnvBench makes is never a death.
     */
    DeathWatch watchForDeath(Consumer<String> onDeath);

    /** Stops the target and removes what was made for it; safe to call twice. */
    void stop();

    @Override
    default void close() {
        stop();
    }
}
