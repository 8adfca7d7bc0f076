package io.envbench.host.hostsettings;

import java.io.IOException;
import java.util.Optional;

import net.jcip.annotations.ThreadSafe;

/**
 * Restarts a Docker daemon so that it reads its configuration file again: what a journal does when a daemon's
 * configuration is changed ({@link HostSettingsJournal#changeDaemonConfig}) and to put back a
 * {@link Change.DaemonRestarted}. The launch floor's {@code DaemonRestart.onThisHost()}
 * restarts the daemon of this host; tests on a temporary folder pass one that records. Implementations
 * are thread-safe.
 */
@ThreadSafe
public interface DaemonRestarter {
    /**
     * How the daemon at {@code daemonAddress} runs now, as text this restarter reads back in {@link #restart} (a
     * service manager's unit, or a command line with its environment and log): written down before the daemon is
     * first restarted, so that it can be started again so even when the owner died while the daemon was down.
     *
     * @return empty when no daemon runs there
     * @throws IOException when it cannot be told (the process cannot be read)
     */
    Optional<String> howItRuns(String daemonAddress) throws IOException;

    /**
     * Stops the daemon at {@code daemonAddress} when it runs, starts it as {@code howItRuns} says, and waits until it
     * answers.
     *
     * @throws IOException naming the daemon and why, when it may not be restarted (a remote one, containers of others
     *                     running), or does not answer after its start
     */
    void restart(String daemonAddress, String howItRuns) throws IOException;
}
