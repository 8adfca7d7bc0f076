package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.envbench.host.hostsettings.DaemonRestarter;

/**
 * What {@link DaemonSettingsChange} needs of a host: the command line of the dockerd serving an address (its flags
 * and its configuration file decide its settings) and a restart of it. {@link DaemonRestart} does it on this host;
 * tests on a temporary folder pass one that records. Implementations are thread-safe.
 */
public interface DaemonControl extends DaemonRestarter {
    /** The command line of the dockerd that serves {@code daemonAddress}; empty when none runs. */
    Optional<DockerdCommandLine> commandLine(String daemonAddress) throws IOException;

    /**
     * Whether the daemon at {@code daemonAddress} may be restarted now (asked before anything is written down; the
     * restart asks again).
     *
     * @throws IOException saying why not: a remote daemon, containers running that a restart would stop (listed)
     */
    void checkRestartAllowed(String daemonAddress) throws IOException;

    /**
     * Host files dockerd changes by itself when its settings change, written down before its restart and put back after
     * the restart that puts its settings back: with the userland proxy off it sets {@code route_localnet} of its bridge
     * {@code docker0} to 1 (so that hairpin NAT may route 127.0.0.1), and does not set it back when the proxy is on again.
     */
    List<Path> filesItChanges();
}
