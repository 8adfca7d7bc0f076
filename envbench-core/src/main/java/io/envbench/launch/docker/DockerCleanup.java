package io.envbench.launch.docker;

import java.io.IOException;
import java.util.List;

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

    @Override
    public void close() {
        try {
            docker.close();
        } catch (IOException e) { // frees sockets only: the command's work is done
            // nothing to tell the user
        }
    }
}
