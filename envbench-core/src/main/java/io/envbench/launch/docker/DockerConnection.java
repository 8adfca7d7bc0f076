package io.envbench.launch.docker;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link DockerDaemonLink} per daemon (address and TLS folder), made at the first connection. Every call through
 * its client has a deadline ({@link DockerDeadlines}); {@link #connect} pings first, so a daemon that is gone or
 * frozen fails a connection within {@link DockerDeadlines#PING} with a message naming the address and what to do
 * (for TLS, which side lacks it or whose certificate is refused: {@link ConnectionFailure}), and a daemon that comes
 * back is used again at the next connection (the client is never stuck on a daemon that went away). No API version
 * is forced: requests go unversioned, so the daemon answers with its own (negotiated) API. Thread-safe.
 */
@ThreadSafe
public final class DockerConnection {
    private static final Logger log = LoggerFactory.getLogger(DockerConnection.class);
    /** What makes two daemons the same link: not the names the settings came from. */
    private record Key(String address, Optional<Path> tlsCertFolder) {}

    private static final Map<Key, DockerDaemonLink> LINKS = new ConcurrentHashMap<>();

    private DockerConnection() {}

    /**
     * The client of a daemon already connected and answering, without connecting (nor waiting for a daemon that is
     * down); empty when it never answered or is lost.
     */
    public static Optional<DockerClient> connected(DockerDaemon daemon) {
        DockerDaemonLink link = LINKS.get(key(daemon));
        return link != null && link.answering() ? Optional.of(link.client()) : Optional.empty();
    }

    /**
     * The daemon at {@code address} was restarted on purpose: the pooled connections of every link to that address
     * (whatever settings it was reached with) are dropped ({@link DockerDaemonLink#dropConnections}), so that the next
     * call connects to the new daemon. Connects nothing.
     */
    public static void restarted(String address) {
        LINKS.forEach((key, link) -> {
            if (key.address().equals(address)) {
                link.dropConnections();
            }
        });
    }

    /**
     * Whether containers wait for this daemon to answer again before they are removed ({@link DockerDaemonLink#removeWhenBack}):
     * a lost container may still hold its published port, so a start of any kind should connect first.
     */
    public static boolean owesRemovals(DockerDaemon daemon) {
        return !owedRemovals(daemon).isEmpty();
    }

    /**
     * The containers (ids) that wait for this daemon to answer again before they are removed: what may still hold a
     * published port after a run was lost with its daemon. Empty when none, or no connection was ever made.
     */
    public static Set<String> owedRemovals(DockerDaemon daemon) {
        DockerDaemonLink link = LINKS.get(key(daemon));
        return link == null ? Set.of() : link.owedRemovals();
    }

    /**
     * A daemon's client, after a ping (within {@link DockerDeadlines#PING}). The first answer of a daemon removes
     * the leftovers of killed runs there ({@link DockerReaper#sweep}: containers, networks, volumes); an answer
     * after the daemon was lost removes what could not be removed meanwhile ({@link DockerDaemonLink#removeWhenBack}).
     * (The reaper hears of a daemon when something is created there: {@link DockerLauncher#start}.)
     *
     * @throws InvalidSettingException naming the setting and the fix, when the settings are wrong before any
     *                                 connection ({@link DockerDaemon#check()})
     * @throws TargetStartException    naming the address, the setting and what to do, when the daemon does not answer
     *                                 (gone, or frozen), or TLS fails (no TLS on one side, an unknown CA, a refused
     *                                 client certificate)
     */
    public static DockerClient connect(DockerDaemon daemon) throws TargetStartException {
        return link(daemon).client();
    }

    /** As {@link #connect}, the daemon's link itself: for its state, loss listeners and deferred removals. */
    public static DockerDaemonLink link(DockerDaemon daemon) throws TargetStartException {
        Key key = key(daemon);
        DockerDaemonLink link = LINKS.get(key);
        if (link == null) {
            synchronized (LINKS) { // making a link connects nothing: cheap, and never twice for one daemon
                link = LINKS.get(key);
                if (link == null) {
                    link = newLink(daemon);
                    LINKS.put(key, link);
                }
            }
        }
        boolean first = ping(link, daemon);
        link.removeOwed();
        if (first) {
            try {
                new DockerReaper(link.client()).reapLeftovers();
            } catch (RuntimeException e) { // the daemon went away right after its ping: the caller's next call says so
                log.warn("could not sweep leftovers at {}: {}", daemon.address(), e.getMessage());
            }
        }
        return link;
    }

    /**
     * A new client for the daemon, pinged, neither cached nor sweeping: what {@link #connect} makes once per daemon
     * (and what a measurement of the connection's cost makes each time). Its calls have their deadlines. The caller
     * closes it.
     */
    static DockerClient open(DockerDaemon daemon) throws TargetStartException {
        DockerDaemonLink link = newLink(daemon);
        try {
            ping(link, daemon);
        } catch (TargetStartException e) {
            try {
                link.client().close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return link.client();
    }

    /** The settings checked, and the link made (its TLS context read from the certificate folder); nothing connected. */
    private static DockerDaemonLink newLink(DockerDaemon daemon) throws TargetStartException {
        daemon.check();
        if (!daemon.isLocalSocket() && !daemon.usesTls()) {
            log.warn(
                    "Docker daemon {} is reached WITHOUT TLS: allowed only because it is a loopback address; turn TLS on "
                            + "for anything else",
                    daemon.address());
        }
        try {
            return new DockerDaemonLink(daemon);
        } catch (RuntimeException e) { // the TLS context is made here
            throw new TargetStartException(
                    daemon.usesTls()
                            ? ConnectionFailure.unreadableCertificates(daemon, e)
                            : ConnectionFailure.explain(daemon, e),
                    e);
        }
    }

    /**
     * Pings the link; a failure explained in the words of this caller's settings ({@code daemon}), a frozen daemon
     * as the link says it.
     *
     * @return whether this was the daemon's first answer
     */
    private static boolean ping(DockerDaemonLink link, DockerDaemon daemon) throws TargetStartException {
        try {
            return link.ping();
        } catch (DockerUnavailableException e) {
            throw new TargetStartException(
                    e.noAnswerInTime() || e.getCause() == null
                            ? e.getMessage()
                            : ConnectionFailure.explain(daemon, e.getCause()),
                    e);
        } catch (RuntimeException e) { // an answer that is no pong, e.g. plain HTTP to a TLS port
            throw new TargetStartException(ConnectionFailure.explain(daemon, e), e);
        }
    }

    private static Key key(DockerDaemon daemon) {
        return new Key(daemon.address(), daemon.tlsCertFolder());
    }

    /** The innermost cause, as a user reads it; a {@link DockerUnavailableException}'s own message when there is one. */
    public static String rootCause(Throwable t) {
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
