package io.envbench.base.readiness;

import java.io.IOException;
import java.time.Duration;

import net.jcip.annotations.Immutable;

/**
 * One way to tell that a started target is ready: a TCP port open, an HTTP answer, a log line, a command
 * that succeeds (such as {@code pg_isready}), or a one-shot target's exit code. Immutable; polled by
 * {@link Readiness#await} until it passes, the target dies or time runs out.
 */
@Immutable
public sealed interface ReadinessCheck permits TcpCheck, HttpCheck, LogLineCheck, CommandCheck, ExitCodeCheck {
    /**
     * @return true when the target is ready
     * @throws IOException saying why not yet (kept for the timeout message)
     */
    boolean passes(ReadinessContext target) throws IOException, InterruptedException;

    /** Whether the check needs the target's port (a target without a port cannot use it). */
    default boolean needsPort() {
        return false;
    }

    /** Whether the target is expected to exit (a one-shot job): its exit is then no failure by itself. */
    default boolean expectsExit() {
        return false;
    }

    /** How long to wait between tries: short for a socket, longer for a check that starts a process. */
    default Duration pollInterval() {
        return Duration.ofMillis(25);
    }

    /** For messages: what is checked, e.g. "HTTP 200 from /health". */
    String describe();
}
