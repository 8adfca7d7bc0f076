package io.envbench.docker;

import io.envbench.environment.RunSession;

import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Network;

/**
 * Removes containers, networks and volumes left by EnvBench runs whose JVM is gone. Only resources
 * labelled {@code io.envbench.managed=true} are ever looked at; see {@link RunSession#isLeftover}.
 */
public final class DockerReaper {
    private static final Logger log = LoggerFactory.getLogger(DockerReaper.class);
    private static final Map<String, String> MANAGED = Map.of(RunSession.LABEL_MANAGED, "true");

    private final DockerClient docker;

    public DockerReaper(DockerClient docker) {
        this.docker = docker;
    }

    /** @return how many resources were removed */
    public int reapLeftovers() {
        int removed = 0;
        for (Container c : docker.listContainersCmd().withShowAll(true).withLabelFilter(MANAGED).exec()) {
            if (RunSession.isLeftover(c.getLabels())) {
                log.warn("removing leftover container {} {} of killed run {}", c.getId().substring(0, 12),
                        String.join(",", c.getNames()), c.getLabels().get(RunSession.LABEL_RUN));
                try {
                    docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                    removed++;
                } catch (RuntimeException e) {
                    log.warn("could not remove container {}: {}", c.getId(), e.toString());
                }
            }
        }
        List<Network> networks = docker.listNetworksCmd().withFilter("label", List.of(RunSession.LABEL_MANAGED + "=true")).exec();
        for (Network n : networks) {
            if (RunSession.isLeftover(n.getLabels())) {
                try {
                    docker.removeNetworkCmd(n.getId()).exec();
                    removed++;
                } catch (RuntimeException e) {
                    log.warn("could not remove network {}: {}", n.getName(), e.toString());
                }
            }
        }
        var volumes = docker.listVolumesCmd().withFilter("label", List.of(RunSession.LABEL_MANAGED + "=true")).exec().getVolumes();
        if (volumes != null) {
            for (var v : volumes) {
                if (RunSession.isLeftover(v.getLabels())) {
                    try {
                        docker.removeVolumeCmd(v.getName()).exec();
                        removed++;
                    } catch (RuntimeException e) {
                        log.warn("could not remove volume {}: {}", v.getName(), e.toString());
                    }
                }
            }
        }
        return removed;
    }
}
