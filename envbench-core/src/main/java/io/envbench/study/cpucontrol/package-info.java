/**
 * Study 004's (docs/studies.md#study-004) CPU controllers, done automatically from live readings: {@link
 * io.envbench.study.cpucontrol.CpuController} decides (none, static, dynamic; CPU saturation and response-time goals)
 * with no I/O, on homes from {@link io.envbench.study.cpucontrol.CpuLayout}; {@link
 * io.envbench.study.cpucontrol.CpuControlLoop} reads ({@link io.envbench.study.cpucontrol.TenantReadings}), applies
 * ({@link io.envbench.study.cpucontrol.DockerCpusets}), steers interrupts and receive processing to the free CPUs, and
 * tells every {@link io.envbench.study.cpucontrol.CpuAction} to its {@link
 * io.envbench.study.cpucontrol.ControlTimeline}s ({@link io.envbench.study.cpucontrol.TimelineCsv}).
 */
package io.envbench.study.cpucontrol;
