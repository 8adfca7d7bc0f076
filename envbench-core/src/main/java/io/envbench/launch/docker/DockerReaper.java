package io.envbench.launch.docker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Network;
import io.envbench.base.environment.LeftoverCheck;
import io.envbench.base.environment.RunSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes containers, networks and volumes left by EnvBench runs whose owner is provably gone. Only
 * resources labelled {@code io.envbench.managed=true} are ever looked at, and each is judged by
 * {@link LeftoverCheck}: another host's or another PID namespace's resources are kept, and the log says why.
 */
public final class DockerReaper {
    private static final Logger log = LoggerFactory.getLogger(DockerReaper.class);
    private static final Map<String, String> MANAGED = Map.of(RunSession.LABEL_MANAGED, "true");
    private static final List<String> MANAGED_FILTER = List.of(RunSession.LABEL_MANAGED + "=true");

    /** One labelled resource looked at: {@code kind} is container, network or volume; see {@link LeftoverCheck.Verdict}. */
    public record Decision(String kind, String id, String name, boolean removed, boolean ownerUnseen, String why) {}

    /** What a sweep did, resource by resource, and how long it took. */
    public record Sweep(List<Decision> decisions, long elapsedNanos) {
        public int removed() {
            return (int) decisions.stream().filter(Decision::removed).count();
        }
    }

    private final DockerClient docker;
    private final LeftoverCheck check;

    public DockerReaper(DockerClient docker) {
        this(docker, LeftoverCheck.forThisProcess());
    }

    public DockerReaper(DockerClient docker, LeftoverCheck check) {
        this.docker = docker;
        this.check = check;
    }

    /** @return how many resources were removed */
    public int reapLeftovers() {
        return sweep().removed();
    }

    /** Containers, networks and volumes: three labelled list calls. */
    public Sweep sweep() {
        long t0 = System.nanoTime();
        List<Decision> decisions = new ArrayList<>();
        for (Found f : labelled(true)) {
            judge(f, decisions::add);
        }
        return new Sweep(List.copyOf(decisions), System.nanoTime() - t0);
    }

    /**
     * Containers only: one labelled list call, cheap enough before every environment start. A volume
     * EnvBench made goes with its container ({@code removeVolumes}); networks and volumes on their own are
     * left to {@link #sweep}, which runs at the first connection to a daemon.
     */
    public Sweep sweepContainers() {
        long t0 = System.nanoTime();
        List<Decision> decisions = new ArrayList<>();
        for (Found f : labelled(false)) {
            judge(f, decisions::add);
        }
        return new Sweep(List.copyOf(decisions), System.nanoTime() - t0);
    }

    /**
     * The labelled resources whose owner cannot be seen from here (another host, another PID namespace, a start time
     * that cannot be compared): every sweep keeps them, as they may belong to a live run elsewhere. Nothing is
     * removed; {@link #removeOrphan} removes one the user named.
     */
    public List<Decision> orphans() {
        return labelled(true).stream()
                .map(f -> {
                    LeftoverCheck.Verdict v = check.judge(f.labels());
                    return new Decision(f.kind(), f.id(), f.name(), false, v.ownerUnseen(), v.why());
                })
                .filter(Decision::ownerUnseen)
                .toList();
    }

    /** Removes an orphan {@link #orphans} listed (the user confirmed it); the decision says whether it went. */
    public Decision removeOrphan(Decision orphan) {
        try {
            remover(orphan.kind(), orphan.id()).run();
            log.debug("removed orphan {} {} {}: {}", orphan.kind(), orphan.id(), orphan.name(), orphan.why());
            return new Decision(orphan.kind(), orphan.id(), orphan.name(), true, true, orphan.why());
        } catch (RuntimeException e) {
            return new Decision(
                    orphan.kind(), orphan.id(), orphan.name(), false, true, "removal failed: " + e.getMessage());
        }
    }

    /** A labelled resource as listed: {@code kind} is container, network or volume. */
    private record Found(String kind, String id, String name, Map<String, String> labels) {}

    /** Containers first (a network or volume goes only once its containers are gone), then networks and volumes. */
    private List<Found> labelled(boolean networksAndVolumes) {
        List<Found> found = new ArrayList<>();
        for (Container c : docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(MANAGED)
                .exec()) {
            found.add(new Found(
                    "container", c.getId(), c.getNames() == null ? "" : String.join(",", c.getNames()), c.getLabels()));
        }
        if (!networksAndVolumes) {
            return found;
        }
        for (Network n :
                docker.listNetworksCmd().withFilter("label", MANAGED_FILTER).exec()) {
            found.add(new Found("network", n.getId(), n.getName(), n.getLabels()));
        }
        var volumes = docker.listVolumesCmd()
                .withFilter("label", MANAGED_FILTER)
                .exec()
                .getVolumes();
        if (volumes != null) {
            for (var v : volumes) {
                found.add(new Found("volume", v.getName(), "", v.getLabels()));
            }
        }
        return found;
    }

    private Runnable remover(String kind, String id) {
        return switch (kind) {
            case "container" ->
                () -> docker.removeContainerCmd(id)
                        .withForce(true)
                        .withRemoveVolumes(true)
                        .exec();
            case "network" -> () -> docker.removeNetworkCmd(id).exec();
            case "volume" -> () -> docker.removeVolumeCmd(id).exec();
            default -> throw new IllegalArgumentException("no such kind of resource: " + kind);
        };
    }

    private void judge(Found f, Consumer<Decision> out) {
        judge(f.kind(), f.id(), f.name(), f.labels(), remover(f.kind(), f.id()), out);
    }

    private void judge(
            String kind, String id, String name, Map<String, String> labels, Runnable remove, Consumer<Decision> out) {
        LeftoverCheck.Verdict v = check.judge(labels);
        String run = labels == null ? null : labels.get(RunSession.LABEL_RUN);
        String shortId = id.length() > 12 && !"volume".equals(kind) ? id.substring(0, 12) : id;
        if (!v.reap()) {
            if (v.ownerUnseen()) {
                log.info("keeping {} {} {} of run {}: {}", kind, shortId, name, run, v.why());
            } else {
                log.debug("keeping {} {} {} of run {}: {}", kind, shortId, name, run, v.why());
            }
            out.accept(new Decision(kind, id, name, false, v.ownerUnseen(), v.why()));
            return;
        }
        log.warn("removing leftover {} {} {} of run {}: {}", kind, shortId, name, run, v.why());
        try {
            remove.run();
            out.accept(new Decision(kind, id, name, true, false, v.why()));
        } catch (RuntimeException e) {
            log.warn("could not remove {} {}: {}", kind, shortId, e.toString());
            out.accept(new Decision(kind, id, name, false, false, "removal failed: " + e));
        }
    }
}
