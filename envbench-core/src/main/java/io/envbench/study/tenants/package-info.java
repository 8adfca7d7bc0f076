/**
 * Tenants of a multi-tenant experiment (study 004 (docs/studies.md#study-004): tenants sharing CPUs) while they run:
 * {@link io.envbench.study.tenants.RunningTenant} (a tenant's container and load), the live per-tenant figures a
 * controller reads ({@link io.envbench.study.tenants.TenantMetrics}), the timeline every control action is written to
 * ({@link io.envbench.study.tenants.Timeline}), and the one point where a CPU controller plugs into the runner: {@link
 * io.envbench.study.tenants.TenantControl}. Also the JMeter plan of a run (one thread group per tenant, {@link
 * io.envbench.study.tenants.TenantsPlan}) and each tenant's database ({@link
 * io.envbench.study.tenants.TenantDatabase}).
 */
package io.envbench.study.tenants;
