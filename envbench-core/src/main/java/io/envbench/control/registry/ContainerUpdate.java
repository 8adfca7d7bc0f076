package io.envbench.control.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.UpdateContainerCmd;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.base.units.MemorySize;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerLauncher;

/**
 * Changes a running container's limits ({@code docker update}) or pauses it, through docker-java. Only containers
 * EnvBench started (labelled {@code io.envbench.managed=true}) unless the caller allows others explicitly: pausing
 * someone's database by a mistyped name is not a benchmark's business.
 */
public final class ContainerUpdate {
    private final EnvironmentRegistry environments;
    private final boolean allowUnmanaged;

    /** @param environments where environment names are looked up; its Docker daemon is used */
    public ContainerUpdate(EnvironmentRegistry environments) {
        this(environments, false);
    }

    /**
     * @param environments   where environment names are looked up; its Docker daemon is used
     * @param allowUnmanaged also change containers EnvBench did not start (the user said so)
     */
    public ContainerUpdate(EnvironmentRegistry environments, boolean allowUnmanaged) {
        this.environments = environments;
        this.allowUnmanaged = allowUnmanaged;
    }

    /**
     * The id of a container EnvBench started, given its labels; any container's when others are allowed.
     *
     * @throws InvalidSettingException naming the field {@code container} and both ways out
     */
    public static String requireStartedByEnvBench(
            String container, String id, Map<String, String> labels, boolean allowUnmanaged) {
        if (allowUnmanaged || labels != null && "true".equals(labels.get(RunSession.LABEL_MANAGED))) {
            return id;
        }
        throw new InvalidSettingException(
                "container",
                "'" + container + "' is a container EnvBench did not start (it has no label "
                        + RunSession.LABEL_MANAGED
                        + "=true), so it is left alone; give an environment EnvBench started (e.g. docker-bridge) "
                        + "or one of its containers, or tick \"Allow containers EnvBench did not start\" to change it anyway");
    }

    /** An EnvBench environment's container, or a container EnvBench started by name or id (any, when allowed). */
    String resolve(DockerClient docker, String container) {
        String c = container == null ? "" : container.trim();
        if (c.isEmpty()) {
            throw new InvalidSettingException(
                    "container", "is empty; give an environment name (e.g. docker-bridge) or a container name");
        }
        var env = environments.running(c);
        if (env.isPresent()) {
            return env.get()
                    .containerId()
                    .orElseThrow(() -> new InvalidSettingException(
                            "container", "environment '" + c + "' runs on bare metal, not in a container"));
        }
        try {
            var found = docker.inspectContainerCmd(c).exec();
            return requireStartedByEnvBench(
                    c,
                    found.getId(),
                    found.getConfig() == null ? null : found.getConfig().getLabels(),
                    allowUnmanaged);
        } catch (NotFoundException e) {
            throw new InvalidSettingException(
                    "container", "'" + c + "' is neither a running EnvBench environment nor a container");
        }
    }

    /** Blank fields are left as they are. @return what was changed */
    public String update(String container, String cpuset, String cpus, String memory) throws TargetStartException {
        DockerClient docker = environments.docker().client();
        UpdateContainerCmd cmd = docker.updateContainerCmd(resolve(docker, container));
        List<String> changed = new ArrayList<>();
        if (cpuset != null && !cpuset.isBlank()) {
            String set = CpuSet.parseForHost("cpuset", cpuset).toString();
            cmd.withCpusetCpus(set);
            changed.add("cpuset=" + set);
        }
        if (cpus != null && !cpus.isBlank()) {
            double cores;
            try {
                cores = Double.parseDouble(cpus.trim());
            } catch (NumberFormatException e) {
                throw new InvalidSettingException(
                        "cpus", "'" + cpus + "' is not a number; give a number of cores, e.g. 0.5");
            }
            ContainerOptions.builder().cpus(cores); // range check, same message as at start
            cmd.withCpuPeriod((int) DockerLauncher.CPU_PERIOD_US)
                    .withCpuQuota((int) Math.round(cores * DockerLauncher.CPU_PERIOD_US));
            changed.add("cpus=" + cores);
        }
        if (memory != null && !memory.isBlank()) {
            long bytes = MemorySize.parseContainerLimit("memory", memory);
            cmd.withMemory(bytes).withMemorySwap(bytes);
            changed.add("memory=" + bytes);
        }
        if (changed.isEmpty()) {
            throw new InvalidSettingException(
                    "cpuset", "cpuset, cpus and memory are all empty; set at least one to update");
        }
        try {
            cmd.exec();
        } catch (DockerException e) {
            throw new TargetStartException("docker update refused: " + DockerConnection.rootCause(e));
        }
        return "updated " + container + ": " + String.join(" ", changed);
    }

    public String pause(String container) throws TargetStartException {
        return pauseOrUnpause(container, true);
    }

    public String unpause(String container) throws TargetStartException {
        return pauseOrUnpause(container, false);
    }

    private String pauseOrUnpause(String container, boolean pause) throws TargetStartException {
        DockerClient docker = environments.docker().client();
        String id = resolve(docker, container);
        try {
            if (pause) {
                docker.pauseContainerCmd(id).exec();
            } else {
                docker.unpauseContainerCmd(id).exec();
            }
        } catch (DockerException e) {
            throw new TargetStartException(
                    "docker " + (pause ? "pause" : "unpause") + " refused: " + DockerConnection.rootCause(e));
        }
        return (pause ? "paused " : "unpaused ") + container;
    }
}
