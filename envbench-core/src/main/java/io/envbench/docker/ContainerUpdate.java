package io.envbench.docker;

import io.envbench.environment.EnvironmentRegistry;
import io.envbench.environment.TargetStartException;
import io.envbench.settings.InvalidSettingException;
import io.envbench.units.CpuSet;
import io.envbench.units.MemorySize;

import java.util.ArrayList;
import java.util.List;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.UpdateContainerCmd;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;

/** Changes a running container's limits ({@code docker update}) or pauses it, through docker-java. */
public final class ContainerUpdate {
    private final EnvironmentRegistry environments;

    /** @param environments where environment names are looked up; its Docker daemon is used */
    public ContainerUpdate(EnvironmentRegistry environments) {
        this.environments = environments;
    }

    /** An EnvBench environment's container, or any container by name or id. */
    String resolve(DockerClient docker, String container) {
        String c = container == null ? "" : container.trim();
        if (c.isEmpty()) {
            throw new InvalidSettingException("container", "is empty; give an environment name (e.g. docker-bridge) or a container name");
        }
        var env = environments.running(c);
        if (env.isPresent()) {
            return env.get().containerId().orElseThrow(() ->
                    new InvalidSettingException("container", "environment '" + c + "' runs on bare metal, not in a container"));
        }
        try {
            return docker.inspectContainerCmd(c).exec().getId();
        } catch (NotFoundException e) {
            throw new InvalidSettingException("container", "'" + c + "' is neither a running EnvBench environment nor a container");
        }
    }

    /** Blank fields are left as they are. @return what was changed */
    public String update(String container, String cpuset, String cpus, String memory) throws TargetStartException {
        DockerClient docker = DockerConnection.connect(environments.dockerHost());
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
                throw new InvalidSettingException("cpus", "'" + cpus + "' is not a number; give a number of cores, e.g. 0.5");
            }
            ContainerOptions.builder().cpus(cores); // range check, same message as at start
            cmd.withCpuPeriod((int) DockerLauncher.CPU_PERIOD_US).withCpuQuota((int) Math.round(cores * DockerLauncher.CPU_PERIOD_US));
            changed.add("cpus=" + cores);
        }
        if (memory != null && !memory.isBlank()) {
            long bytes = MemorySize.parseContainerLimit("memory", memory);
            cmd.withMemory(bytes).withMemorySwap(bytes);
            changed.add("memory=" + bytes);
        }
        if (changed.isEmpty()) {
            throw new InvalidSettingException("cpuset", "cpuset, cpus and memory are all empty; set at least one to update");
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
        DockerClient docker = DockerConnection.connect(environments.dockerHost());
        String id = resolve(docker, container);
        try {
            if (pause) {
                docker.pauseContainerCmd(id).exec();
            } else {
                docker.unpauseContainerCmd(id).exec();
            }
        } catch (DockerException e) {
            throw new TargetStartException("docker " + (pause ? "pause" : "unpause") + " refused: " + DockerConnection.rootCause(e));
        }
        return (pause ? "paused " : "unpaused ") + container;
    }
}
