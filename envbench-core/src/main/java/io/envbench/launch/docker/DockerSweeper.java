package io.envbench.launch.docker;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.environment.TargetStartException;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.host.reaper.Sweeper;

/**
 * Removes a dead owner's labelled containers, networks and volumes on a Docker daemon ({@link DockerReaper}).
 *
 * <p>Its clients do not sweep on their first answer, as an owner's {@link DockerConnection} does: when the ping at
 * {@link #prepare} failed (a daemon slow to answer a JVM that had just started), such a first answer at the sweep
 * removed the dead owner's leftovers unseen, the sweep itself then found none, and the reaper's log, deleted when
 * nothing was removed, lost what happened. Here every removal is this sweep's own, counted and said.
 */
public final class DockerSweeper implements Sweeper {
    /** The reaper's own client per daemon line: made at {@link #prepare} (or at the sweep if that failed). */
    private final Map<String, DockerClient> clients = new ConcurrentHashMap<>();

    private DockerClient client(String place) throws TargetStartException {
        DockerClient c = clients.get(place);
        if (c == null) {
            c = DockerConnection.open(daemonOf(place));
            clients.put(place, c);
        }
        return c;
    }

    @Override
    public String kind() {
        return ReaperProcess.DOCKER;
    }

    /** Connects early, so classes are loaded and the daemon known; a daemon that is down is tried again at the sweep. */
    @Override
    public void prepare(String place, Consumer<String> say) {
        try {
            client(place);
        } catch (Exception e) {
            say.accept("daemon " + ReaperProcess.DOCKER + " " + place.replace('\t', ' ') + " not reached yet ("
                    + e.getMessage() + "); tried again at the sweep");
        }
    }

    @Override
    public int sweep(String place, long ownerPid, Consumer<String> say) {
        DockerDaemon daemon = daemonOf(place);
        DockerReaper.Sweep sweep;
        try {
            sweep = new DockerReaper(client(place)).sweep();
        } catch (TargetStartException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        for (DockerReaper.Decision d : sweep.decisions()) {
            if (d.removed()) {
                say.accept("removed " + d.kind() + " " + d.id() + " " + d.name() + " on " + daemon.address() + " ("
                        + d.why() + ")");
            }
        }
        return sweep.removed();
    }

    /** {@code address<TAB>TLS folder} (the folder empty: no TLS); a line of an older owner has the address alone. */
    static DockerDaemon daemonOf(String field) {
        String[] f = field.split("\t", 2);
        String folder = f.length == 2 ? f[1].trim() : "";
        return DockerDaemon.of(f[0], folder.isEmpty() ? Optional.empty() : Optional.of(Path.of(folder)));
    }
}
