/**
 * The Docker daemon's own settings, changed for a run and put back: study 001's (docs/studies.md#study-001) row with
 * the userland proxy off ({@code "userland-proxy": false}: published ports through iptables hairpin NAT, no {@code
 * docker-proxy} process).
 *
 * <p>{@link io.envbench.launch.dockerdaemon.DaemonSettings} is what may be changed and what a report says a row ran with
 * ({@code describe()}); its effective value comes from dockerd's command line ({@link io.envbench.launch.dockerdaemon.DockerdCommandLine}),
 * then its configuration file ({@link io.envbench.launch.dockerdaemon.DaemonConfigFile}), then Docker's defaults.
 * {@link io.envbench.launch.dockerdaemon.DaemonRestart} restarts this host's dockerd (found by its socket:
 * {@link io.envbench.launch.dockerdaemon.RunningDockerd}); {@link io.envbench.launch.dockerdaemon.DaemonSettingsChange} applies and
 * puts back, only with {@link io.envbench.launch.dockerdaemon.RestartPermission#GRANTED}.
 * {@link io.envbench.launch.dockerdaemon.DaemonRequest} is what an environment asks for, over the daemon's own settings;
 * {@link io.envbench.launch.dockerdaemon.StorageDriverImages} carries images into another storage driver's store, which
 * holds none of those built here, and takes them out again.
 *
 * <p>Why the host settings journal, not a file of its own: a daemon's configuration is a host setting like the others,
 * and {@link io.envbench.host.hostsettings.HostSettingsJournal} already has everything a crash needs (owner labels, a lock
 * while the owner lives, fsync before the change, the reaper and the next start's sweep, damaged files refused). So the
 * journal got two kinds of change: {@link io.envbench.host.hostsettings.Change.FileContent} (a whole file's bytes and mode,
 * or its absence) and {@link io.envbench.host.hostsettings.Change.DaemonRestarted} (the daemon's address and how dockerd
 * ran: its command line, environment, folder and log, or its systemd unit), written down in that order so that
 * putting back, latest first, writes the file back before it restarts the daemon. A sibling file would have needed a
 * second owner check, lock and sweep. The journal restarts through {@link io.envbench.host.hostsettings.DaemonRestarter},
 * which {@code DaemonRestart} implements.
 */
package io.envbench.launch.dockerdaemon;
