package io.envbench.launch.docker;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.environment.TargetStartException;
import net.jcip.annotations.NotThreadSafe;

/**
 * What {@code ./envbench clean} does on a daemon, through a client of its own (closed at {@link #close}): removes the
 * leftovers of EnvBench runs whose owner is provably gone, as every start does, and lists the orphans, resources whose
 * owner cannot be seen from here (another host, another PID namespace such as a JMeter in a container), which no sweep
 * removes on its own because they may belong to a live run; one is removed only when the user names it. Not
 * thread-safe: one command uses it.
 */
@NotThreadSafe
public final class DockerCleanup implements AutoCloseable {
    private final DockerClient docker;
    private final DockerReaper reaper;

    private DockerCleanup(DockerClient docker) {
        this.docker = docker;
        this.reaper = new DockerReaper(docker);
    }

    /**
     * @throws TargetStartException naming the address and what to do, when the daemon does not answer
     */
    public static DockerCleanup open(DockerDaemon daemon) throws TargetStartException {
        return new DockerCleanup(DockerConnection.open(daemon));
    }

    /** Removes containers, networks and volumes of runs whose owner is provably gone. */
    public DockerReaper.Sweep leftovers() {
        return reaper.sweep();
    }

    /** The resources whose owner cannot be seen from here, each with why; nothing removed. */
    public List<DockerReaper.Decision> orphans() {
        return reaper.orphans();
    }

    /** Removes one orphan the user confirmed; the decision says whether it went, and if not, why. */
    public DockerReaper.Decision remove(DockerReaper.Decision orphan) {
        return reaper.removeOrphan(orphan);
    }

    /** An image EnvBench built (labelled {@code io.envbench.image}): its id, its tags, and its size. */
    public record BuiltImage(String id, List<String> tags, long sizeBytes) {
        public BuiltImage {
            tags = List.copyOf(tags);
        }
    }

    /** The images EnvBench built on this daemon (labelled {@value #IMAGE_LABEL}); none of anyone else's. */
    public List<BuiltImage> images() {
        return docker.listImagesCmd().withLabelFilter(IMAGE_LABEL).exec().stream()
                .map(i -> new BuiltImage(
                        i.getId(),
                        i.getRepoTags() == null ? List.of() : List.of(i.getRepoTags()),
                        i.getSize() == null ? 0 : i.getSize()))
                .toList();
    }

    /**
     * Removes one of {@link #images()}; a container still using it keeps it (not forced).
     *
     * @return empty when removed, else why not
     */
    public Optional<String> removeImage(BuiltImage image) {
        try {
            docker.removeImageCmd(image.id()).withForce(false).exec();
            return Optional.empty();
        } catch (RuntimeException e) { // in use by a container, or gone meanwhile: said, and the rest go on
            return Optional.of(String.valueOf(e.getMessage()).strip());
        }
    }

    /** The label scripts/images.sh puts on every image it builds. */
    public static final String IMAGE_LABEL = "io.envbench.image";

    @Override
    public void close() {
        try {
            docker.close();
        } catch (IOException e) { // frees sockets only: the command's work is done
            // nothing to tell the user
        }
    }
}
