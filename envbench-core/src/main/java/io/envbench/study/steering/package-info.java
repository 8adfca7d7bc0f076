/**
 * Steering where the host handles network work, as study 004's (docs/studies.md#study-004) authors did by hand: {@link
 * io.envbench.study.steering.InterruptSteering} points the network devices' IRQs ({@link io.envbench.study.steering.NetworkIrq})
 * at CPUs no tenant is pinned to, rotating among them at each step; {@link io.envbench.study.steering.ReceivePacketSteering}
 * sets the RPS masks of interfaces (the tenants' veth host ends), since traffic between local containers is handled
 * in softirq context on the receiving queue's CPUs, not by a device's IRQ. {@link io.envbench.study.steering.IrqBalance}
 * finds irqbalance, which would undo the steering. Every change goes through a
 * {@link io.envbench.host.hostsettings.HostSettingsJournal}, so it is put back. Everything reads and writes the procfs and
 * sysfs trees of {@link io.envbench.study.steering.HostRoots}: the real ones, or fixture trees laid out like them.
 */
package io.envbench.study.steering;
