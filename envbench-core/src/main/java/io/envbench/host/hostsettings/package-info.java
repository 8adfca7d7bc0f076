/**
 * Host settings EnvBench changes for a run (a cgroup's {@code cpuset.cpus}, an IRQ's {@code smp_affinity_list}, an
 * interface queue's {@code rps_cpus}, irqbalance paused, the Docker daemon's {@code daemon.json} with the
 * daemon's restart: {@link io.envbench.launch.dockerdaemon}), each written down before it is changed and put back after:
 * {@link io.envbench.host.hostsettings.HostSettingsJournal} is a file per owner process that holds every old value,
 * fsync'd before the change. {@link io.envbench.host.hostsettings.HostSettingsJournal#restore()} puts them back in
 * reverse order at the end of a run or on cancel; the owner's reaper does it seconds after a SIGKILL; the sweep at
 * the next start ({@link io.envbench.host.hostsettings.HostSettingsJournal#sweepLeftovers}) does it for an owner whose
 * reaper died too. Whose journal may be restored follows {@link io.envbench.base.environment.LeftoverCheck}: never a
 * live owner's, never another host's.
 */
package io.envbench.host.hostsettings;
