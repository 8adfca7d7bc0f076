package io.envbench.launch.docker;

import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import io.envbench.base.liveness.DeathWatch;
import io.envbench.base.liveness.ProcessDeathWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A container's death, from Docker's events API: one streaming request per container, filtered by its id (at the
 * daemon) and to {@code oom}, {@code die} and {@code destroy} (here: Podman's compatible API, 4.3, answers a filter
 * on the event's kind with no events at all, so both engines are asked for the container's events alone, a handful
 * in its life). Chosen over polling {@code inspect} every second because
 * it costs nothing while nothing dies (an idle connection, no request per second per container on the
 * daemon) and hears of a death within milliseconds rather than up to a second later. On {@code die} one
 * inspect says why:
 * <ul>
 * <li>{@code killed: out of memory, limit 6m} when Docker saw the OOM killer (the limit from the
 *     container's own HostConfig);</li>
 * <li>{@code removed from outside} when the container is being removed or is gone ({@code docker rm -f});</li>
 * <li>{@code exited with code N}, with Docker's error message when it gives one.</li>
 * </ul>
 * The stream is long-lived, so it has no inactivity deadline (silence is what a healthy container gives);
 * instead the daemon's heartbeat ({@link DockerDaemonLink#onLoss}) watches the daemon while the watch is open. A
 * daemon that is gone or frozen (SIGSTOP) is a death too, told within {@link DockerDaemonLink#HEARTBEAT} plus
 * {@link io.envbench.launch.docker.DockerDeadlines#PING} (at once when its stream breaks), with the reason
 * {@code Docker daemon lost: ...} ({@link #isDaemonLoss}): the container's fate is unknown, and nothing can be
 * run against it until the daemon answers again. A stream that ends while the daemon answers is subscribed
 * again from where it stopped ({@code since}, so no event falls in the gap), at most once a second.
 */
public final class ContainerDeathWatch implements DeathWatch {
    private static final Logger log = LoggerFactory.getLogger(ContainerDeathWatch.class);
    /** Between subscriptions after a stream ended: never more often than this. */
    static final long RESUBSCRIBE_DELAY_MS = 1000;
    /** After a container's exit, how long a daemon that is stopping may take to close its API (here: about 0.3 s). */
    static final long DAEMON_EXIT_GRACE_MS = 1000;
    /** The reason when the container was removed by someone else ({@code docker rm -f}). */
    public static final String REMOVED_FROM_OUTSIDE = "removed from outside";
    /** How the reason starts when the daemon stopped answering, not the container. */
    static final String DAEMON_LOST = "Docker daemon lost: ";

    private final DockerDaemonLink daemon;
    private final DockerClient docker;
    private final String containerId;
    private final Consumer<String> onDeath;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile boolean oomSeen;
    private volatile Closeable stream;
    private volatile AutoCloseable lossWatch;

    private ContainerDeathWatch(DockerDaemonLink daemon, String containerId, Consumer<String> onDeath) {
        this.daemon = daemon;
        this.docker = daemon.client();
        this.containerId = containerId;
        this.onDeath = onDeath;
    }

    /**
     * @param onDeath called once, on a thread of its own, with the reason, unless closed first
     */
    public static ContainerDeathWatch start(DockerDaemonLink daemon, String containerId, Consumer<String> onDeath) {
        ContainerDeathWatch w = new ContainerDeathWatch(daemon, containerId, onDeath);
        w.lossWatch = daemon.onLoss(why -> w.report(() -> DAEMON_LOST + why));
        // a second back: a death between the start and this subscription is still heard
        w.subscribe(Instant.now().getEpochSecond() - 1);
        if (w.done.get()) {
            w.close();
        }
        return w;
    }

    /** Whether a death's reason is the daemon's loss (the container's own fate unknown), not the container's end. */
    public static boolean isDaemonLoss(String reason) {
        return reason != null && reason.startsWith(DAEMON_LOST);
    }

    private void subscribe(long sinceEpochSecond) {
        if (done.get()) {
            return;
        }
        long subscribedAt = Instant.now().getEpochSecond();
        ResultCallback.Adapter<Event> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Event e) {
                heard(e.getAction() != null ? e.getAction() : e.getStatus());
            }

            @Override
            public void onError(Throwable t) {
                log.debug("events of container {} ended: {}", shortId(), t.toString());
                daemon.checkSoon(); // a broken stream: is the daemon gone?
                resubscribe(subscribedAt);
            }

            @Override
            public void onComplete() {
                daemon.checkSoon();
                resubscribe(subscribedAt);
            }
        };
        try {
            stream = docker.eventsCmd()
                    .withEventTypeFilter(EventType.CONTAINER)
                    .withContainerFilter(containerId)
                    .withSince(Long.toString(sinceEpochSecond))
                    .exec(callback);
        } catch (RuntimeException e) {
            log.debug("events of container {}: {}", shortId(), e.toString());
            resubscribe(subscribedAt);
        }
        if (done.get()) { // closed while subscribing
            closeStream();
        }
    }

    private void resubscribe(long previousSubscription) {
        if (done.get() || !daemon.answering()) {
            return; // a lost daemon is reported by the loss listener
        }
        CompletableFuture.delayedExecutor(RESUBSCRIBE_DELAY_MS, TimeUnit.MILLISECONDS)
                .execute(() -> subscribe(previousSubscription - 1));
    }

    private void heard(String action) {
        if (action == null) {
            return;
        }
        switch (action.toLowerCase(Locale.ROOT)) {
            case "oom" -> oomSeen = true;
            case "die" -> report(() -> daemonStopping(whyDied()));
            case "destroy" -> report(() -> REMOVED_FROM_OUTSIDE);
            default -> {}
        }
    }

    /** Tells the death once, off the events thread (the receiver may stop JMeter, remove things, close this). */
    private void report(Supplier<String> reason) {
        if (done.compareAndSet(false, true)) {
            Thread t = new Thread(
                    () -> {
                        closeStream();
                        stopWatchingDaemon();
                        onDeath.accept(reason.get());
                    },
                    "envbench-death-" + shortId());
            t.setDaemon(true);
            t.start();
        }
    }

    private String whyDied() {
        InspectContainerResponse c;
        try {
            c = docker.inspectContainerCmd(containerId).exec();
        } catch (NotFoundException e) {
            return REMOVED_FROM_OUTSIDE;
        } catch (RuntimeException e) {
            return oomSeen ? "killed: out of memory" : "died (Docker did not say why: " + e.getMessage() + ")";
        }
        InspectContainerResponse.ContainerState s = c.getState();
        if ("removing".equals(s.getStatus()) || Boolean.TRUE.equals(s.getDead())) {
            return REMOVED_FROM_OUTSIDE;
        }
        if (oomSeen || Boolean.TRUE.equals(s.getOOMKilled())) {
            return outOfMemory(c);
        }
        Long code = s.getExitCodeLong();
        String error = s.getError() == null || s.getError().isBlank()
                ? ""
                : " (" + s.getError().strip() + ")";
        return "exited with code " + (code == null ? "unknown" : code + ProcessDeathWatch.signalOf(code.intValue()))
                + error;
    }

    /** How an OOM kill reads, wherever it happened (during the start or later): the same words with the limit. */
    static String outOfMemory(InspectContainerResponse c) {
        Long limit = c.getHostConfig() == null ? null : c.getHostConfig().getMemory();
        return limit == null || limit <= 0
                ? "killed: out of memory (no memory limit: the host ran out)"
                : "killed: out of memory, limit " + dockerSize(limit);
    }

    /**
     * A daemon that is stopped (SIGTERM) stops its containers on its way out and closes its API a few hundred
     * milliseconds later; the container's death is then the daemon's loss, and is told as such.
     */
    private String daemonStopping(String reason) {
        if (reason.startsWith("killed: out of memory")) {
            return reason;
        }
        try {
            Thread.sleep(DAEMON_EXIT_GRACE_MS);
            if (daemon.answering()) {
                daemon.client().pingCmd().exec();
            }
            if (daemon.answering()) {
                return reason;
            }
            return DAEMON_LOST + daemon.lostBecause().orElse("") + " (it stopped the container on its way out: "
                    + reason + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return reason;
        } catch (RuntimeException e) {
            return DAEMON_LOST + daemon.lostBecause().orElse(e.getMessage())
                    + " (it stopped the container on its way out: " + reason + ")";
        }
    }

    /** As {@code docker run --memory} takes it: {@code 6m}, {@code 1g}, else bytes. */
    static String dockerSize(long bytes) {
        long g = 1024L * 1024 * 1024;
        long m = 1024L * 1024;
        long k = 1024L;
        if (bytes % g == 0) {
            return bytes / g + "g";
        }
        if (bytes % m == 0) {
            return bytes / m + "m";
        }
        if (bytes % k == 0) {
            return bytes / k + "k";
        }
        return bytes + "b";
    }

    private String shortId() {
        return containerId.length() > 12 ? containerId.substring(0, 12) : containerId;
    }

    private void closeStream() {
        Closeable s = stream;
        if (s != null) {
            try {
                s.close();
            } catch (IOException | RuntimeException e) {
                log.debug("closing events of container {}: {}", shortId(), e.toString());
            }
        }
    }

    private void stopWatchingDaemon() {
        AutoCloseable l = lossWatch;
        if (l != null) {
            try {
                l.close();
            } catch (Exception e) {
                log.debug("loss watch of container {}: {}", shortId(), e.toString());
            }
        }
    }

    @Override
    public void close() {
        done.set(true);
        closeStream();
        stopWatchingDaemon();
    }
}
