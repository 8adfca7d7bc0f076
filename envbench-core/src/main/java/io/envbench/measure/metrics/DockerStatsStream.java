package io.envbench.measure.metrics;

import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Statistics;
import net.jcip.annotations.Immutable;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Container figures from the Docker stats API as a stream: one long-lived stats stream per container (the
 * daemon sends a frame a second, as {@code docker stats} shows), the two latest frames kept, rates taken
 * between them. Reading the figures costs nothing but a lookup, so a 1 s interval holds for any number of
 * remote containers (one call of the one-frame API takes a second). A stream that ends while its container
 * is still wanted is reopened (at most every {@link #REOPEN_NANOS}) and logged; figures older than
 * {@link #STALE_NANOS} are not reported. Thread-safe: opening, reopening and closing streams happen under this
 * object's lock, so a stream is never opened after close nor replaced without being closed.
 */
@ThreadSafe
public final class DockerStatsStream implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DockerStatsStream.class);
    /** What {@link ContainerRates#source()} says for figures of this stream. */
    public static final String SOURCE = "docker stats stream";

    static final long REOPEN_NANOS = 2_000_000_000L;
    static final long STALE_NANOS = 5_000_000_000L;

    private final DockerClient docker;
    private final Map<String, Stream> streams = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public DockerStatsStream(DockerClient docker) {
        this.docker = docker;
    }

    /**
     * The rates between the container's two latest frames; empty until its stream has sent two (about 2 s
     * after the first call, which opens the stream) and while its latest frame is older than 5 s.
     *
     * @throws IllegalStateException when the stream cannot be opened (the container is gone)
     */
    public synchronized Optional<ContainerRates> rates(String containerId) {
        if (closed) {
            throw new IllegalStateException("the stats streams are closed");
        }
        long now = System.nanoTime();
        Stream s = streams.computeIfAbsent(containerId, id -> open(id, now));
        if (s.ended && now - s.openedAt > REOPEN_NANOS) {
            log.warn("the stats stream of container {} ended ({}); reopening it", shortId(containerId), s.why());
            Stream again = open(containerId, now);
            again.previous = s.previous;
            again.latest = s.latest;
            streams.put(containerId, again);
            s = again;
        }
        Frames f = s.frames;
        if (f == null || now - f.receivedAt > STALE_NANOS) {
            return Optional.empty();
        }
        return Optional.of(f.rates);
    }

    /** Closes the streams of containers not in {@code containerIds} (they stopped). */
    public synchronized void retain(Set<String> containerIds) {
        for (String id : List.copyOf(streams.keySet())) {
            if (!containerIds.contains(id)) {
                Stream s = streams.remove(id);
                if (s != null) {
                    s.close();
                }
            }
        }
    }

    /** Closes every stream; their threads end. */
    @Override
    public synchronized void close() {
        closed = true;
        retain(Set.of());
    }

    /** The thread reading each open stream (tests check they end). */
    Map<String, Thread> threads() {
        Map<String, Thread> m = new HashMap<>();
        streams.forEach((id, s) -> {
            if (s.thread != null) {
                m.put(id, s.thread);
            }
        });
        return m;
    }

    private Stream open(String containerId, long now) {
        Stream s = new Stream(containerId, now);
        try {
            docker.statsCmd(containerId).exec(s);
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "cannot open the stats stream of container " + shortId(containerId) + ": " + e.getMessage(), e);
        }
        return s;
    }

    private static String shortId(String id) {
        return id.length() > 12 ? id.substring(0, 12) : id;
    }

    /** The rates of the two latest frames, and when the later one arrived. Immutable. */
    @Immutable
    private record Frames(ContainerRates rates, long receivedAt) {}

    /** One container's stream: docker-java calls it from the stream's own thread. */
    private static final class Stream implements ResultCallback<Statistics> {
        private final String containerId;
        final long openedAt;
        volatile Closeable connection;
        volatile Thread thread;
        volatile ContainerSnapshot previous;
        volatile ContainerSnapshot latest;
        volatile Frames frames;
        volatile boolean ended;
        volatile Throwable failure;
        private volatile boolean closing;

        Stream(String containerId, long openedAt) {
            this.containerId = containerId;
            this.openedAt = openedAt;
        }

        @Override
        public void onStart(Closeable stream) {
            connection = stream;
            thread = Thread.currentThread();
            if (closing) {
                close();
            }
        }

        @Override
        public void onNext(Statistics s) {
            long received = System.nanoTime();
            ContainerSnapshot now = DockerStatsProbe.snapshot(s, frameNanos(s.getRead(), received), SOURCE);
            ContainerSnapshot before = latest;
            previous = before;
            latest = now;
            if (before != null && now.atNanos() > before.atNanos()) {
                frames = new Frames(ContainerRates.between(before, now), received);
            }
        }

        @Override
        public void onError(Throwable t) {
            if (!closing) {
                failure = t;
                log.debug("stats stream of {} failed", containerId, t);
            }
            ended = true;
        }

        @Override
        public void onComplete() {
            ended = true;
        }

        String why() {
            Throwable t = failure;
            return t == null ? "the daemon closed it" : t.toString();
        }

        @Override
        public void close() {
            closing = true;
            Closeable c = connection;
            if (c != null) {
                try {
                    c.close(); // interrupts the stream's thread and closes its response
                } catch (IOException | RuntimeException e) {
                    log.debug("closing the stats stream of {}: {}", containerId, e.toString());
                }
            }
        }
    }

    /**
     * The daemon's time of a frame ({@code read}, RFC 3339 with nanoseconds) as nanoseconds: rates use the
     * daemon's own spacing of frames, not when they happened to arrive here.
     */
    static long frameNanos(String read, long fallback) {
        if (read == null || read.startsWith("0001-")) {
            return fallback;
        }
        try {
            Instant i = Instant.parse(read);
            return i.getEpochSecond() * 1_000_000_000L + i.getNano();
        } catch (DateTimeParseException e) {
            return fallback;
        }
    }
}
