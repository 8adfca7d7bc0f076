package io.envbench.launch.docker;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerPort;
import io.envbench.base.environment.LeftoverCheck;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;

/**
 * Which EnvBench container publishes a host port that a start needs, and whose it is: so a busy port is named with
 * the container, its run and its owner, and with what frees it, instead of only "already in use". One labelled list
 * call; asked only when a port is found busy.
 */
public final class PortHolders {
    private static final Map<String, String> MANAGED = Map.of(RunSession.LABEL_MANAGED, "true");

    private PortHolders() {}

    /** An EnvBench container that publishes the port, with the verdict on its owner as this process sees it. */
    public record Holder(String id, String name, Map<String, String> labels, LeftoverCheck.Verdict owner) {
        /** How a user reads it, with the fix. */
        public String describe() {
            String env = labels.getOrDefault(RunSession.LABEL_ENV, "?");
            String run = labels.getOrDefault(RunSession.LABEL_RUN, "?");
            String who = "EnvBench container " + name + " (" + id.substring(0, Math.min(12, id.length()))
                    + ", environment " + env + ", run " + run + ")";
            if (owner.reap()) {
                return who + ", a leftover (" + owner.why() + "); the next start removes it, or ./envbench clean now";
            }
            if (owner.ownerUnseen()) {
                return who + ", which may belong to a run elsewhere (" + owner.why()
                        + "); if that run is over, remove it with ./envbench clean --orphans";
            }
            return who + ", which belongs to a running EnvBench run (" + owner.why()
                    + "); stop that run, or give this environment another port";
        }
    }

    /** The EnvBench containers (any state Docker still knows) that publish {@code port} on the host. */
    public static List<Holder> of(DockerClient docker, int port, LeftoverCheck check) {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(MANAGED).exec().stream()
                .filter(c -> publishes(c, port))
                .map(c -> new Holder(c.getId(), nameOf(c), labelsOf(c), check.judge(labelsOf(c))))
                .toList();
    }

    /** What the message of a busy port adds: each holder described; empty when no EnvBench container holds it. */
    public static Optional<String> describe(DockerClient docker, int port) {
        List<Holder> holders = of(docker, port, LeftoverCheck.forThisProcess());
        if (holders.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                String.join("; ", holders.stream().map(Holder::describe).toList()));
    }

    /**
     * For a port found busy before anything starts: removes the containers of EnvBench runs whose owner is provably
     * gone (as every start does), then names the EnvBench containers that still publish the port. Through a one-off
     * client, closed after; empty when no daemon answers or none of its EnvBench containers holds the port.
     */
    public static Optional<String> sweepThenDescribe(DockerDaemon daemon, int port) {
        DockerClient docker;
        try {
            docker = DockerConnection.open(daemon);
        } catch (TargetStartException | InvalidSettingException e) { // no daemon: the port's message stays as it was
            return Optional.empty();
        }
        try (docker) {
            new DockerReaper(docker).sweepContainers();
            return describe(docker, port);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean publishes(Container c, int port) {
        ContainerPort[] ports = c.getPorts();
        return ports != null
                && Arrays.stream(ports).anyMatch(p -> p.getPublicPort() != null && p.getPublicPort() == port);
    }

    private static String nameOf(Container c) {
        return c.getNames() == null || c.getNames().length == 0
                ? c.getId().substring(0, Math.min(12, c.getId().length()))
                : c.getNames()[0].replaceFirst("^/", "");
    }

    private static Map<String, String> labelsOf(Container c) {
        return c.getLabels() == null ? Map.of() : c.getLabels();
    }
}
