package io.envbench.launch.docker;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerPort;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.TargetStartException;

/** What EnvBench has in Docker right now: only resources labelled {@code io.envbench.managed=true}. */
public final class DockerInventory {
    private static final Map<String, String> MANAGED = Map.of(RunSession.LABEL_MANAGED, "true");
    private static final List<String> MANAGED_FILTER = List.of(RunSession.LABEL_MANAGED + "=true");

    /** A labelled container; {@code publishedPorts} like {@code 127.0.0.1:18080->8080/tcp}. */
    public record ManagedContainer(
            String id,
            String name,
            String image,
            String state,
            Map<String, String> labels,
            List<String> publishedPorts) {}

    private final DockerClient docker;

    public DockerInventory(DockerDaemon daemon) throws TargetStartException {
        this.docker = new DockerConnection(daemon).client();
    }

    public List<ManagedContainer> containers() {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(MANAGED).exec().stream()
                .map(DockerInventory::toManaged)
                .toList();
    }

    public int networks() {
        return docker.listNetworksCmd()
                .withFilter("label", MANAGED_FILTER)
                .exec()
                .size();
    }

    public int volumes() {
        var v = docker.listVolumesCmd()
                .withFilter("label", MANAGED_FILTER)
                .exec()
                .getVolumes();
        return v == null ? 0 : v.size();
    }

    /** Removes what runs whose JVM is gone left behind; see {@link DockerReaper}. */
    public int reapLeftovers() {
        return new DockerReaper(docker).reapLeftovers();
    }

    private static ManagedContainer toManaged(Container c) {
        List<String> ports = c.getPorts() == null
                ? List.of()
                : Arrays.stream(c.getPorts())
                        .filter(p -> p.getPublicPort() != null)
                        .map(DockerInventory::format)
                        .toList();
        String name = c.getNames() == null || c.getNames().length == 0 ? "" : c.getNames()[0].replaceFirst("^/", "");
        return new ManagedContainer(c.getId(), name, c.getImage(), c.getState(), c.getLabels(), ports);
    }

    private static String format(ContainerPort p) {
        return p.getIp() + ":" + p.getPublicPort() + "->" + p.getPrivatePort() + "/" + p.getType();
    }
}
