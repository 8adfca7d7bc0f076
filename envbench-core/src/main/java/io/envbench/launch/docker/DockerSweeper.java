package io.envbench.launch.docker;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.envbench.base.environment.TargetStartException;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.host.reaper.Sweeper;

/** Removes a dead owner's labelled containers, networks and volumes on a Docker daemon ({@link DockerReaper}). */
public final class DockerSweeper implements Sweeper {
    /** The reaper's own connection per daemon line: made at {@link #prepare}, used again at the sweep. */
    private final Map<String, DockerConnection> connections = new ConcurrentHashMap<>();

    private DockerConnection connection(String place) {
        return connections.computeIfAbsent(place, p -> new DockerConnection(daemonOf(p)));
    }

    @Override
    public String kind() {
        return ReaperProcess.DOCKER;
    }

    /** Connects early, so classes are loaded and the daemon known; a daemon that is down is tried again at the sweep. */
    @Override
    public void prepare(String place, Consumer<String> say) {
        try {
            connection(place).client();
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
            sweep = new DockerReaper(connection(place).client()).sweep();
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
