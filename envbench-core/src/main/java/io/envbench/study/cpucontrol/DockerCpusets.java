package io.envbench.study.cpucontrol;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.units.CpuSet;
import io.envbench.control.registry.ContainerUpdate;
import io.envbench.launch.docker.DockerConnection;

/**
 * Tenants' cpusets as their containers' ({@code docker update --cpuset-cpus}, through docker-java). Only containers
 * EnvBench started (labelled {@code io.envbench.managed=true}) are changed. Each container's cpuset before the first
 * change is remembered and put back by {@link #restore}, if the container still exists (EnvBench's own containers are
 * removed at the end of a run, so this matters for one that outlives the controller). Thread-safe.
 */
public final class DockerCpusets implements TenantCpusets {
    private final DockerConnection daemon;
    private final CpuSet online;
    /** Container id to its cpuset before the first change ("" when it had none: every CPU), in the order changed. */
    private final Map<String, String> original = new LinkedHashMap<>();

    private final Map<String, Tenant> tenantOf = new LinkedHashMap<>();

    /** @param online the host's online CPUs: what a container without a cpuset of its own gets back */
    public DockerCpusets(DockerConnection daemon, CpuSet online) {
        this.daemon = daemon;
        this.online = online;
    }

    @Override
    public synchronized void apply(Tenant tenant, CpuSet cpus) throws IOException {
        try {
            DockerClient docker = daemon.client();
            String id = tenant.containerId();
            if (!original.containsKey(id)) {
                InspectContainerResponse c = docker.inspectContainerCmd(id).exec();
                ContainerUpdate.requireStartedByEnvBench(
                        id,
                        c.getId(),
                        c.getConfig() == null ? null : c.getConfig().getLabels(),
                        false);
                String before =
                        c.getHostConfig() == null ? null : c.getHostConfig().getCpusetCpus();
                original.put(id, before == null ? "" : before);
                tenantOf.put(id, tenant);
            }
            docker.updateContainerCmd(id).withCpusetCpus(cpus.toString()).exec();
        } catch (TargetStartException | DockerException e) {
            throw new IOException("tenant " + tenant.name() + ": cpuset " + cpus + " not set: " + e.getMessage(), e);
        }
    }

    /** The container's cpuset as Docker says it now ({@code docker inspect .HostConfig.CpusetCpus}); "" when it has none. */
    public String current(String containerId) throws IOException {
        try {
            String s = daemon.client()
                    .inspectContainerCmd(containerId)
                    .exec()
                    .getHostConfig()
                    .getCpusetCpus();
            return s == null ? "" : s;
        } catch (TargetStartException | DockerException e) {
            throw new IOException("container " + containerId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized Map<String, String> restore() {
        Map<String, String> done = new LinkedHashMap<>();
        for (var e : original.entrySet()) {
            String tenant = tenantOf.get(e.getKey()).name();
            String back = e.getValue().isEmpty() ? online.toString() : e.getValue();
            try {
                daemon.client()
                        .updateContainerCmd(e.getKey())
                        .withCpusetCpus(back)
                        .exec();
                done.put(
                        tenant,
                        "cpuset back to " + back + (e.getValue().isEmpty() ? " (it had none: every online CPU)" : ""));
            } catch (NotFoundException gone) {
                done.put(tenant, "container gone: no cpuset to put back");
            } catch (TargetStartException | DockerException failed) {
                done.put(tenant, "cpuset NOT put back to " + back + ": " + failed.getMessage());
            }
        }
        original.clear();
        tenantOf.clear();
        return done;
    }
}
