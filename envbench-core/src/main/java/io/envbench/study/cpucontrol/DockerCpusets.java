package io.envbench.study.cpucontrol;

import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.HostConfig;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.units.CpuSet;
import io.envbench.control.registry.ContainerUpdate;
import io.envbench.launch.docker.DockerConnection;

/**
 * Tenants' cpusets as their containers' ({@code docker update --cpuset-cpus}, through docker-java), and under {@link
 * FloatingCpus#SPARE} their CPU weight ({@code --cpu-shares}). Only containers EnvBench started (labelled {@code
 * io.envbench.managed=true}) are changed. Each container's cpuset and CPU shares before the first change are
 * remembered and put back by {@link #restore}, if the container still exists (EnvBench's own containers are removed
 * at the end of a run, so this matters for one that outlives the controller). Thread-safe.
 */
public final class DockerCpusets implements TenantCpusets {
    private final DockerConnection daemon;
    private final CpuSet online;
    /**
     * Docker's lowest CPU weight ({@code --cpu-shares 2}; on cgroup v2 Docker writes it as {@code cpu.weight} 1): a
     * container at it gets a CPU only when no container of the default weight (1024) there wants it.
     */
    public static final int LOWEST_CPU_SHARES = 2;
    /** Docker's default weight, what a container created without {@code --cpu-shares} (0 in its inspect) has. */
    public static final int DEFAULT_CPU_SHARES = 1024;

    /** Container id to its cpuset before the first change ("" when it had none: every CPU), in the order changed. */
    private final Map<String, String> original = new LinkedHashMap<>();
    /** Container id to its CPU shares before the first change (its default when it had none set). */
    private final Map<String, Integer> originalShares = new LinkedHashMap<>();
    /** The containers whose CPU shares were changed. */
    private final Set<String> sharesChanged = new HashSet<>();

    private final Map<String, Tenant> tenantOf = new LinkedHashMap<>();

    /** @param online the host's online CPUs: what a container without a cpuset of its own gets back */
    public DockerCpusets(DockerConnection daemon, CpuSet online) {
        this.daemon = daemon;
        this.online = online;
    }

    @Override
    public synchronized void apply(Tenant tenant, CpuSet cpus, boolean lowestWeight) throws IOException {
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
                Integer shares =
                        c.getHostConfig() == null ? null : c.getHostConfig().getCpuShares();
                originalShares.put(id, shares == null || shares == 0 ? DEFAULT_CPU_SHARES : shares);
                tenantOf.put(id, tenant);
            }
            var update = docker.updateContainerCmd(id).withCpusetCpus(cpus.toString());
            if (lowestWeight) {
                update.withCpuShares(LOWEST_CPU_SHARES);
            } else if (sharesChanged.contains(id)) {
                update.withCpuShares(originalShares.get(id));
            }
            update.exec();
            // only once Docker took it: a failed update is tried again whole at the next step
            if (lowestWeight) {
                sharesChanged.add(id);
            } else {
                sharesChanged.remove(id);
            }
        } catch (TargetStartException | DockerException e) {
            throw new IOException("tenant " + tenant.name() + ": cpuset " + cpus + " not set: " + e.getMessage(), e);
        }
    }

    /** The container's CPU shares as Docker says it now ({@code docker inspect .HostConfig.CpuShares}); 0 when unset. */
    public int currentShares(String containerId) throws IOException {
        Integer s = hostConfig(containerId).getCpuShares();
        return s == null ? 0 : s;
    }

    /** The container's cpuset as Docker says it now ({@code docker inspect .HostConfig.CpusetCpus}); "" when it has none. */
    public String current(String containerId) throws IOException {
        String s = hostConfig(containerId).getCpusetCpus();
        return s == null ? "" : s;
    }

    private HostConfig hostConfig(String containerId) throws IOException {
        try {
            return daemon.client().inspectContainerCmd(containerId).exec().getHostConfig();
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
            boolean weight = sharesChanged.contains(e.getKey());
            try {
                var update = daemon.client().updateContainerCmd(e.getKey()).withCpusetCpus(back);
                if (weight) {
                    update.withCpuShares(originalShares.get(e.getKey()));
                }
                update.exec();
                done.put(
                        tenant,
                        "cpuset back to " + back + (e.getValue().isEmpty() ? " (it had none: every online CPU)" : "")
                                + (weight ? ", CPU shares back to " + originalShares.get(e.getKey()) : ""));
            } catch (NotFoundException gone) {
                done.put(tenant, "container gone: no cpuset to put back");
            } catch (TargetStartException | DockerException failed) {
                done.put(tenant, "cpuset NOT put back to " + back + ": " + failed.getMessage());
            }
        }
        original.clear();
        originalShares.clear();
        sharesChanged.clear();
        tenantOf.clear();
        return done;
    }
}
