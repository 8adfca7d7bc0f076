/**
 * Study 004's CPU controllers, done automatically from live readings: {@link io.envbench.cpucontrol.CpuController}
 * decides (none, static, dynamic; CPU saturation and response-time goals) with no I/O, on homes from
 * {@link io.envbench.cpucontrol.CpuLayout}; {@link io.envbench.cpucontrol.CpuControlLoop} reads
 * ({@link io.envbench.cpucontrol.TenantReadings}), applies ({@link io.envbench.cpucontrol.DockerCpusets}), steers
 * interrupts and receive processing to the free CPUs, and tells every {@link io.envbench.cpucontrol.CpuAction} to its
 * {@link io.envbench.cpucontrol.ControlTimeline}s ({@link io.envbench.cpucontrol.TimelineCsv}).
 */
package io.envbench.cpucontrol;
