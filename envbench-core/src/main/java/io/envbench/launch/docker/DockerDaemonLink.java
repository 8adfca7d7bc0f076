package io.envbench.launch.docker;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStoreException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.LocalDirectorySSLConfig;
import com.github.dockerjava.core.SSLConfig;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Docker daemon ({@link DockerDaemon}: address and TLS folder): its client, whether it answers, and what to do
 * when it stops answering.
 * <ul>
 * <li>The client reaches the daemon as its settings say, TLS included: the certificate folder is read once, when
 *     this object is made, into the TLS context of every transport ({@link RequiredTls}: never plain HTTP instead),
 *     and TLS never comes from the process's environment.</li>
 * <li>Every request gets the deadline {@link DockerDeadlines} gives it (one HTTP transport per deadline; streams
 *     one without an inactivity deadline). A request that gets no answer fails with a
 *     {@link DockerUnavailableException} naming the address and what to do ({@link ConnectionFailure} says which
 *     TLS side failed).</li>
 * <li>A refused connection, or a ping without answer, marks the daemon <em>lost</em>: from then on every request but
 *     a ping fails at once, the transports are made anew (no pooled connection to the old daemon survives), and the
 *     {@link #onLoss loss listeners} hear it. A call that only timed out asks for a ping first (the daemon may just
 *     be slow).</li>
 * <li>While a listener is registered (a long-lived stream is open), a heartbeat pings every
 *     {@link #HEARTBEAT} with the {@link DockerDeadlines#PING ping deadline}: a frozen daemon (SIGSTOP) is noticed
 *     within {@code HEARTBEAT + PING}, a gone one as soon as its stream breaks.</li>
 * <li>A ping that is answered makes a lost daemon usable again, and removes the containers that could not be
 *     removed while it was lost ({@link #removeWhenBack}).</li>
 * </ul>
 * Thread-safe.
 */
@ThreadSafe
public final class DockerDaemonLink {
    private static final Logger log = LoggerFactory.getLogger(DockerDaemonLink.class);
    /** Between two pings while a long-lived stream is open. */
    public static final Duration HEARTBEAT = Duration.ofMillis(500);

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** The transport of long-lived streams (no inactivity deadline) in {@link #transports}. */
    private static final Duration STREAM = Duration.ZERO;

    /**
     * Connections per transport: each running container holds one for its death watch (events) and, for a remote
     * daemon, one for its stats stream; 32 would stall the 16th container's streams.
     */
    static final int MAX_CONNECTIONS = 256;

    private final DockerDaemon daemon;
    private final String address;
    private final DockerClientConfig config;
    /** The TLS context of every transport, or null without TLS. */
    private final SSLContext tls;

    private final DockerClient client;
    /** The transports by response deadline: made, dropped and closed under this lock, so none outlives a drop. */
    private final Object transportLock = new Object();

    @GuardedBy("transportLock")
    private final Map<Duration, ApacheDockerHttpClient> transports = new HashMap<>();
    /** Why the daemon is lost, or null while it answers. */
    private volatile String lostBecause;
    /** When it was lost, as a user reads it (HH:MM:SS). */
    private volatile String lostSince = "";

    private volatile boolean answeredOnce;
    private final List<Consumer<String>> lossListeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService heartbeat;
    private ScheduledFuture<?> beating;
    /** Container id -> the volume made for it (or ""), to remove when the daemon answers again. */
    private final Map<String, String> owed = new ConcurrentHashMap<>();
    /** How long an attached command's answer may take to begin ({@link DockerDeadlines#ATTACHED} but in tests). */
    private final Duration attached;

    /**
     * Connects nothing yet; reads the TLS certificate folder (when the daemon uses TLS).
     *
     * @param daemon checked already ({@link DockerDaemon#check()})
     * @throws IllegalStateException when the certificates cannot be made a TLS context (not PEM, a key that does not
     *                               fit); {@link ConnectionFailure#unreadableCertificates} explains it
     */
    public DockerDaemonLink(DockerDaemon daemon) {
        this(daemon, DockerDeadlines.ATTACHED);
    }

    /**
     * As {@link #DockerDaemonLink(DockerDaemon)}, with {@code attached} as the deadline for an attached command's
     * answer to begin instead of {@link DockerDeadlines#ATTACHED}: a test shows a silence longer than it in seconds,
     * not half a minute.
     */
    public DockerDaemonLink(DockerDaemon daemon, Duration attached) {
        this.attached = attached;
        this.daemon = daemon;
        this.address = daemon.address();
        this.config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(address)
                .withDockerTlsVerify(
                        false) // TLS comes from the daemon's settings, never from the process's environment
                .withCustomSslConfig(
                        daemon.tlsCertFolder().map(RequiredTls::new).orElse(null))
                .build();
        try {
            this.tls =
                    config.getSSLConfig() == null ? null : config.getSSLConfig().getSSLContext();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        this.client = DockerClientImpl.getInstance(config, new DeadlineTransport());
        ScheduledThreadPoolExecutor beats = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "envbench-docker-heartbeat");
            t.setDaemon(true);
            return t;
        });
        // each owner has its own link: an idle one keeps no thread, so a link its owner let go is collected
        beats.setKeepAliveTime(10, TimeUnit.SECONDS);
        beats.allowCoreThreadTimeOut(true);
        this.heartbeat = beats;
    }

    /** The daemon as it was given when this link was made. */
    public DockerDaemon daemon() {
        return daemon;
    }

    public String address() {
        return address;
    }

    /** The client; every call through it has its deadline. */
    public DockerClient client() {
        return client;
    }

    /** Whether the daemon answers (as far as known: not lost since its last answered ping). */
    public boolean answering() {
        return lostBecause == null;
    }

    /** Why it is lost; empty while it answers. */
    public Optional<String> lostBecause() {
        return Optional.ofNullable(lostBecause);
    }

    /**
     * Pings now, with the ping deadline.
     *
     * @return whether this was the daemon's first answer since this object was made (the caller sweeps leftovers then)
     * @throws DockerUnavailableException naming the address and what to do
     */
    public synchronized boolean ping() {
        client.pingCmd().exec();
        boolean first = !answeredOnce;
        answeredOnce = true;
        return first;
    }

    /**
     * Calls {@code listener} once with the reason when the daemon is lost (at once when it is lost already); while
     * any listener is registered the heartbeat runs. Close the returned handle to stop listening.
     */
    public AutoCloseable onLoss(Consumer<String> listener) {
        Consumer<String> once = new Consumer<>() {
            private boolean told;

            @Override
            public synchronized void accept(String why) {
                if (!told) {
                    told = true;
                    listener.accept(why);
                }
            }
        };
        lossListeners.add(once);
        synchronized (this) {
            if (beating == null) {
                beating = heartbeat.scheduleWithFixedDelay(
                        this::beat, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        String lost = lostBecause;
        if (lost != null) {
            once.accept(lost);
        }
        return () -> {
            lossListeners.remove(once);
            synchronized (this) {
                if (lossListeners.isEmpty() && beating != null) {
                    beating.cancel(false);
                    beating = null;
                }
            }
        };
    }

    /** A ping soon, off the caller's thread: a stream broke, or a call timed out. */
    public void checkSoon() {
        heartbeat.execute(this::beat);
    }

    private void beat() {
        boolean wasLost = lostBecause != null;
        try {
            client.pingCmd().exec();
            if (wasLost) {
                removeOwed();
            }
        } catch (RuntimeException e) {
            log.debug("heartbeat of {}: {}", address, e.toString());
        }
    }

    /**
     * A container (and the volume made for it, or null) that could not be removed because the daemon was lost: it
     * is removed when the daemon answers again, as its owner is alive and the leftover sweep would keep it.
     */
    public void removeWhenBack(String containerId, String volume) {
        owed.put(containerId, volume == null ? "" : volume);
        log.warn(
                "container {} could not be removed: the Docker daemon at {} is lost; it is removed when the daemon answers again",
                containerId.substring(0, Math.min(12, containerId.length())),
                address);
    }

    /** Containers waiting for the daemon to answer again before they are removed. */
    public Set<String> owedRemovals() {
        return Set.copyOf(owed.keySet());
    }

    /** Removes what could not be removed while the daemon was lost; a no-op while it is lost or nothing is owed. */
    public synchronized void removeOwed() {
        if (owed.isEmpty() || lostBecause != null) {
            return;
        }
        for (Map.Entry<String, String> e : Map.copyOf(owed).entrySet()) {
            try {
                try {
                    client.removeContainerCmd(e.getKey())
                            .withForce(true)
                            .withRemoveVolumes(true)
                            .exec();
                } catch (NotFoundException gone) {
                    // removed already (by the daemon's shutdown, or by hand)
                }
                if (!e.getValue().isEmpty()) {
                    try {
                        client.removeVolumeCmd(e.getValue()).exec();
                    } catch (NotFoundException gone) {
                        // removed with its container
                    }
                }
                owed.remove(e.getKey());
                log.info(
                        "removed container {}, left while the Docker daemon at {} was lost",
                        e.getKey().substring(0, 12),
                        address);
            } catch (RuntimeException ex) {
                log.warn("could not remove container {} left while the daemon was lost: {}", e.getKey(), ex.toString());
                return;
            }
        }
    }

    private void lost(String why) {
        synchronized (this) {
            if (lostBecause != null) {
                return;
            }
            lostBecause = why;
            lostSince = LocalTime.now().truncatedTo(ChronoUnit.SECONDS).toString();
        }
        log.warn("{}", why);
        // no pooled connection to the old daemon may survive: a daemon that comes back gets fresh ones
        closeTransports();
        lossListeners.forEach(l -> l.accept(why));
    }

    /**
     * The daemon was restarted on purpose (a change of its settings, {@code DaemonRestart}):
     * every pooled connection, to the old daemon's socket, is closed, so that no request meets a broken pipe and takes
     * the new daemon for lost. Not a loss: no listener hears of it.
     */
    public void dropConnections() {
        closeTransports();
    }

    /** Closes every transport made so far; the next call makes new ones. */
    private void closeTransports() {
        List<ApacheDockerHttpClient> old;
        synchronized (transportLock) {
            old = List.copyOf(transports.values());
            transports.clear();
        }
        old.forEach(DockerDaemonLink::closeQuietly);
    }

    private void answered() {
        String was;
        synchronized (this) {
            was = lostBecause;
            lostBecause = null;
        }
        if (was != null) {
            log.info("the Docker daemon at {} answers again", address);
        }
    }

    private ApacheDockerHttpClient transport(Duration deadline) {
        synchronized (transportLock) { // building a transport connects nothing: cheap under the lock
            return transports.computeIfAbsent(deadline, d -> {
                ApacheDockerHttpClient.Builder b = new ApacheDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .sslConfig(tls == null ? null : () -> tls)
                        .maxConnections(MAX_CONNECTIONS)
                        .connectionTimeout(CONNECT_TIMEOUT);
                if (!d.isZero()) {
                    b.responseTimeout(d);
                }
                return b.build();
            });
        }
    }

    private static void closeQuietly(ApacheDockerHttpClient c) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            log.debug("closing a Docker transport: {}", e.toString());
        }
    }

    /** What the user reads when a request got no answer. */
    String unanswered(String method, String path, Optional<Duration> deadline, Throwable e) {
        String what = method + " " + (path.indexOf('?') < 0 ? path : path.substring(0, path.indexOf('?')));
        if (timedOut(e)) {
            return "Docker daemon at " + address + " did not answer " + what + " within "
                    + deadline.map(d -> d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms")
                            .orElse("its deadline")
                    + ": it is frozen or overloaded; check it with 'docker info', and restart it if it hangs ('./envbench setup' starts it)";
        }
        return ConnectionFailure.explain(daemon, e); // gone, or TLS refused by one side
    }

    static boolean timedOut(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof InterruptedIOException && !(c instanceof ClosedByInterruptException)) {
                return true; // SocketTimeoutException, the response timeout
            }
        }
        return false;
    }

    /**
     * Routes each request to the transport of its deadline, and tells when the daemon does not answer. docker-java's
     * Unix socket reads block in native code and ignore socket timeouts, so the deadline is kept here: the request
     * runs on a worker thread, and the caller stops waiting for the response's head at the deadline (the worker is
     * freed when the daemon answers at last or its socket closes; a late response is closed unread).
     */
    private final class DeadlineTransport implements DockerHttpClient {
        @Override
        public Response execute(Request request) {
            boolean ping = request.path().matches("^(/v[0-9.]+)?/_ping(\\?.*)?$");
            String lost = lostBecause;
            if (lost != null && !ping) {
                throw new DockerUnavailableException(address, lost + " (no answer since " + lostSince + ")");
            }
            Optional<Duration> deadline = DockerDeadlines.of(request.method(), request.path(), attached);
            // an attached command's output may be silent for minutes: its transport has no read timeout, only the
            // head's deadline
            DockerHttpClient transport = transport(
                    DockerDeadlines.silenceAllowed(request.method(), request.path())
                            ? STREAM
                            : deadline.orElse(STREAM));
            Response r;
            try {
                if (deadline.isEmpty()) {
                    r = transport.execute(request); // a stream: the heartbeat watches the daemon instead
                } else {
                    r = withDeadline(transport, request, deadline.get());
                }
            } catch (RuntimeException e) {
                if (e instanceof CallInterrupted || Thread.currentThread().isInterrupted() && !timedOut(e)) {
                    throw e; // the caller gave up (cancel), the daemon did not
                }
                String why = unanswered(request.method(), request.path(), deadline, e);
                boolean noAnswerInTime = timedOut(e);
                if (ping || !noAnswerInTime) {
                    lost(why);
                } else {
                    checkSoon(); // slow or frozen: a ping decides
                }
                throw new DockerUnavailableException(address, why, e, noAnswerInTime);
            }
            if (ping) {
                answered();
            }
            return r;
        }

        private Response withDeadline(DockerHttpClient transport, Request request, Duration deadline) {
            CompletableFuture<Response> call = CompletableFuture.supplyAsync(() -> transport.execute(request), CALLS);
            try {
                return call.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                call.thenAccept(Response::close);
                throw new DeadlinePassed();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                call.thenAccept(Response::close);
                throw new CallInterrupted(e);
            }
        }

        @Override
        public void close() {
            heartbeat.shutdownNow();
            closeTransports();
        }
    }

    /** The worker threads of calls with a deadline, shared by every daemon; idle ones end after a minute. */
    private static final ExecutorService CALLS =
            new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "envbench-docker-call");
                t.setDaemon(true);
                return t;
            });

    /** The deadline passed before the response's head came. */
    private static final class DeadlinePassed extends RuntimeException {
        DeadlinePassed() {
            super(new SocketTimeoutException("no response within the deadline"));
        }
    }

    /**
     * docker-java's certificate folder, which never falls back to plain HTTP: docker-java's own returns no context
     * when a file is missing, and its transport then speaks plain HTTP to a tcp:// address.
     */
    private record RequiredTls(Path folder) implements SSLConfig {
        @Override
        public SSLContext getSSLContext() throws KeyStoreException {
            SSLContext context = new LocalDirectorySSLConfig(folder.toString()).getSSLContext();
            if (context == null) {
                throw new KeyStoreException(folder + " lacks one of " + DockerDaemon.TLS_FILES);
            }
            return context;
        }
    }

    /** The calling thread was interrupted while it waited (a cancel), which says nothing about the daemon. */
    private static final class CallInterrupted extends RuntimeException {
        CallInterrupted(InterruptedException e) {
            super(e);
        }
    }
}
