package io.envbench.launch.docker;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One owner's connection to one daemon (address and TLS folder): a {@link DockerDaemonLink}, made at the first call.
 * Every owner (an {@code EnvBench}, a reaper's sweep, a test) has its own, so whether the
 * daemon was lost, what waits for its return and its pooled connections are this owner's, never another's in the
 * same JVM. Every call through its client has a deadline ({@link DockerDeadlines}); {@link #client} pings first, so a
 * daemon that is gone or frozen fails a connection within {@link DockerDeadlines#PING} with a message naming the
 * address and what to do (for TLS, which side lacks it or whose certificate is refused: {@link ConnectionFailure}),
 * and a daemon that comes back is used again at the next connection (the client is never stuck on a daemon that went
 * away). No API version is forced: requests go unversioned, so the daemon answers with its own (negotiated) API.
 * Thread-safe.
 */
@ThreadSafe
public final class DockerConnection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DockerConnection.class);

    private final DockerDaemon daemon;

    @GuardedBy("this")
    private DockerDaemonLink link;

    /** Connects nothing yet: the daemon is reached at the first {@link #client} or {@link #link}. */
    public DockerConnection(DockerDaemon daemon) {
        this.daemon = Objects.requireNonNull(daemon, "daemon");
    }

    /** The daemon this connection reaches. */
    public DockerDaemon daemon() {
        return daemon;
    }

    private synchronized DockerDaemonLink made() {
        return link;
    }

    /**
     * The client, when the daemon was reached and answers, without connecting (nor waiting for a daemon that is
     * down); empty when it never answered or is lost.
     */
    public Optional<DockerClient> connected() {
        DockerDaemonLink l = made();
        return l != null && l.answering() ? Optional.of(l.client()) : Optional.empty();
    }

    /**
     * The daemon was restarted on purpose: its pooled connections are dropped ({@link DockerDaemonLink#dropConnections}),
     * so that the next call connects to the new daemon. Connects nothing.
     */
    public void restarted() {
        DockerDaemonLink l = made();
        if (l != null) {
            l.dropConnections();
        }
    }

    /**
     * Whether containers wait for this daemon to answer again before they are removed ({@link DockerDaemonLink#removeWhenBack}):
     * a lost container may still hold its published port, so a start of any kind should connect first.
     */
    public boolean owesRemovals() {
        return !owedRemovals().isEmpty();
    }

    /**
     * The containers (ids) that wait for this daemon to answer again before they are removed: what may still hold a
     * published port after a run was lost with its daemon. Empty when none, or no connection was ever made.
     */
    public Set<String> owedRemovals() {
        DockerDaemonLink l = made();
        return l == null ? Set.of() : l.owedRemovals();
    }

    /**
     * The daemon's client, after a ping (within {@link DockerDeadlines#PING}). The first answer of a daemon removes
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
    public DockerClient client() throws TargetStartException {
        return link().client();
    }

    /** As {@link #client}, the daemon's link itself: for its state, loss listeners and deferred removals. */
    public DockerDaemonLink link() throws TargetStartException {
        DockerDaemonLink l;
        synchronized (this) { // making a link connects nothing: cheap, and never twice for one connection
            if (link == null) {
                link = newLink(daemon);
            }
            l = link;
        }
        boolean first = ping(l, daemon);
        l.removeOwed();
        if (first) {
            try {
                new DockerReaper(l.client()).reapLeftovers();
            } catch (RuntimeException e) { // the daemon went away right after its ping: the caller's next call says so
                log.warn("could not sweep leftovers at {}: {}", daemon.address(), e.getMessage());
            }
        }
        return l;
    }

    /**
     * Closes the pooled connections (their sockets) when the owner is done; the link stays, so a call after this
     * connects again rather than failing (a reading that ends just after its owner closed).
     */
    @Override
    public void close() {
        restarted();
    }

    /**
     * A new client for the daemon, pinged, neither cached nor sweeping: what {@link #connect} makes once per daemon
     * (and what a measurement of the connection's cost, or a one-off question to a daemon, makes each time). Its calls have their deadlines. The caller
     * closes it.
     */
    public static DockerClient open(DockerDaemon daemon) throws TargetStartException {
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
