package io.envbench.docker;

import io.envbench.environment.TargetStartException;
import io.envbench.reaper.ReaperProcess;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.github.dockerjava.api.DockerClient;

/**
 * One {@link DockerDaemonLink} per daemon address, made at the first connection. Every call through its client has a
 * deadline ({@link DockerDeadlines}); {@link #connect} pings first, so a daemon that is gone or frozen fails a
 * connection within {@link DockerDeadlines#PING} with a message naming the address and what to do, and a daemon
 * that comes back is used again at the next connection (the client is never stuck on a daemon that went away). No
 * API version is forced: requests go unversioned, so the daemon answers with its own (negotiated) API.
 */
public final class DockerConnection {
    private static final Map<String, DockerDaemonLink> DAEMONS = new ConcurrentHashMap<>();

    private DockerConnection() {
    }

    /** The daemon address: the given one, else DOCKER_HOST, else the local socket. */
    public static String resolveHost(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        String env = System.getenv("DOCKER_HOST");
        return env != null && !env.isBlank() ? env : "unix:///var/run/docker.sock";
    }

    /**
     * The client of a daemon already connected and answering, without connecting (nor waiting for a daemon that is
     * down); empty when it never answered or is lost.
     */
    public static java.util.Optional<DockerClient> connected(String host) {
        DockerDaemonLink d = DAEMONS.get(resolveHost(host));
        return d != null && d.answering() ? java.util.Optional.of(d.client()) : java.util.Optional.empty();
    }

    /**
     * Whether containers wait for this daemon to answer again before they are removed ({@link DockerDaemonLink#removeWhenBack}):
     * a lost container may still hold its published port, so a start of any kind should connect first.
     */
    public static boolean owesRemovals(String host) {
        DockerDaemonLink d = DAEMONS.get(resolveHost(host));
        return d != null && !d.owedRemovals().isEmpty();
    }

    /**
     * A daemon's client, after a ping (within {@link DockerDeadlines#PING}). The first answer of a daemon removes
     * the leftovers of killed runs there ({@link DockerReaper#sweep}: containers, networks, volumes); an answer
     * after the daemon was lost removes what could not be removed meanwhile ({@link DockerDaemonLink#removeWhenBack}). The
     * first answer also tells this process's reaper ({@link ReaperProcess}) to sweep the daemon when this process dies.
     *
     * @param host daemon address or blank for the default
     * @throws TargetStartException naming the address and what to do, when the daemon does not answer
     */
    public static DockerClient connect(String host) throws TargetStartException {
        return daemon(host).client();
    }

    /** As {@link #connect}, the daemon itself: for its state, loss listeners and deferred removals. */
    public static DockerDaemonLink daemon(String host) throws TargetStartException {
        String address = resolveHost(host);
        DockerDaemonLink daemon;
        try {
            daemon = DAEMONS.computeIfAbsent(address, DockerDaemonLink::new);
        } catch (RuntimeException e) {
            throw new TargetStartException("Docker daemon address '" + address + "' is not usable (" + rootCause(e)
                    + "); give unix:///path/docker.sock or tcp://HOST:PORT in envbench.docker.host or DOCKER_HOST", e);
        }
        boolean first;
        try {
            first = daemon.ping();
        } catch (RuntimeException e) {
            throw new TargetStartException(e instanceof DockerUnavailableException ? e.getMessage()
                    : "Docker daemon not reachable at " + address + " (" + rootCause(e)
                    + "); start it with './envbench setup' (or dockerd), or set envbench.docker.host", e);
        }
        daemon.removeOwed();
        if (first) {
            ReaperProcess.ofThisJvm().watchDockerDaemon(address);
            try {
                new DockerReaper(daemon.client()).reapLeftovers();
            } catch (RuntimeException e) { // the daemon went away right after its ping: the caller's next call says so
                org.slf4j.LoggerFactory.getLogger(DockerConnection.class).warn("could not sweep leftovers at {}: {}", address, e.getMessage());
            }
        }
        return daemon;
    }

    /** The innermost cause, as a user reads it; a {@link DockerUnavailableException}'s own message when there is one. */
    static String rootCause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c && !(c instanceof DockerUnavailableException)) {
            c = c.getCause();
        }
        if (c instanceof DockerUnavailableException) {
            return c.getMessage();
        }
        String m = c.getMessage();
        return c.getClass().getSimpleName() + (m == null ? "" : ": " + m.strip());
    }
}
