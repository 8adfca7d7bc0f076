package io.envbench.base.readiness;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.envbench.base.environment.Endpoint;

/** What a {@link ReadinessCheck} may look at on a starting target; given by the launcher (bare or Docker). */
public interface ReadinessContext {
    /** Where load goes, or empty for a target without a port. */
    Optional<Endpoint> endpoint();

    /** The endpoint of a check that needs one; a target without a port cannot pass it. */
    default Endpoint requireEndpoint() throws IOException {
        return endpoint().orElseThrow(() -> new IOException("the target has no port"));
    }

    /** The last lines the target printed. */
    String logs(int lines);

    /** The exit code when the target has exited, else empty. */
    OptionalInt exitCode();

    /** Why the target is gone (exit code, state, out of memory), or empty while it runs. */
    Optional<String> whyGone();

    /**
     * Why the answer on the target's port may not come from the target (another process listens there too), checked
     * once a port check passes; empty when every listener is the target's, or when the launcher cannot tell.
     */
    default Optional<String> strangerOnPort() {
        return Optional.empty();
    }

    /**
     * Runs a command where the target runs (inside its container, or on the host for bare metal) and
     * returns its exit code.
     */
    int exec(List<String> command) throws IOException, InterruptedException;
}
