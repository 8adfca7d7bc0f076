package io.envbench.launch.docker;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import net.jcip.annotations.Immutable;

/**
 * How long each Docker API call may take before it fails, decided in one place from the request itself, so
 * every call has a deadline, also those added later. Ordinary calls answer in milliseconds and get {@link #CALL};
 * calls that legitimately take long get a deadline of their own: a stop waits its grace period ({@code t=}) and
 * then {@link #CALL}, an attached command {@link #ATTACHED}, an image build or load {@link #IMAGE}, a container's
 * create or remove and an image's remove {@link #LAYER}. Long-lived
 * streams (events, followed logs, streamed stats, wait) get no inactivity deadline, since silence is normal
 * there: {@link DockerDaemonLink}'s heartbeat watches the daemon while such a stream is open instead. Immutable.
 */
@Immutable
public final class DockerDeadlines {
    /** An ordinary call (inspect, list, start, one stats frame). */
    public static final Duration CALL = Duration.ofSeconds(4);
    /** {@code /_ping}: how long a daemon may take to say it is there. */
    public static final Duration PING = Duration.ofSeconds(2);
    /**
     * A command attached to a container ({@code exec} start, attach): how long its answer may take to begin. Its
     * output may then be silent for as long as the command runs (bonnie++ prints nothing for minutes), so no
     * inactivity deadline follows ({@link #silenceAllowed}); the caller's own deadline and the heartbeat bound it.
     */
    public static final Duration ATTACHED = Duration.ofSeconds(30);
    /** Building, loading, pulling, pushing or exporting an image: between two chunks of its progress. */
    public static final Duration IMAGE = Duration.ofMinutes(10);
    /**
     * Creating or removing a container, or removing an image: the daemon makes or deletes the storage driver's layer
     * for it before it answers, which on a copying driver (vfs: the image's whole tree, hundreds of MB) takes as long
     * as the disk needs; 4 s cut such a create short while dockerd went on to make the container.
     */
    public static final Duration LAYER = Duration.ofMinutes(2);
    /** Docker's own stop grace period when a stop gives none. */
    static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(10);

    private static final Pattern VERSION_PREFIX = Pattern.compile("^/v[0-9.]+(?=/)");
    private static final Pattern STOP = Pattern.compile("^/containers/[^/]+/(stop|restart)$");
    private static final Pattern GRACE = Pattern.compile("(?:^|&)t=(\\d{1,6})(?:&|$)");

    private DockerDeadlines() {}

    /**
     * The deadline of one request: how long to wait for its answer, and between two chunks of a streamed answer.
     *
     * @param method e.g. {@code GET}
     * @param path   as docker-java sends it, with its query string, e.g. {@code /containers/abc/stop?t=5}
     * @return empty for a long-lived stream (no inactivity deadline: a heartbeat watches the daemon instead)
     */
    public static Optional<Duration> of(String method, String path) {
        return of(method, path, ATTACHED);
    }

    /** As {@link #of(String, String)}, with {@code attached} in place of {@link #ATTACHED}. */
    static Optional<Duration> of(String method, String path, Duration attached) {
        int q = path.indexOf('?');
        String p = VERSION_PREFIX.matcher(q < 0 ? path : path.substring(0, q)).replaceFirst("");
        String query = q < 0 ? "" : path.substring(q + 1);
        if (p.equals("/_ping")) {
            return Optional.of(PING);
        }
        if (p.equals("/events")
                || p.matches("^/containers/[^/]+/wait$")
                || p.matches("^/containers/[^/]+/logs$") && flag(query, "follow")
                || p.matches("^/containers/[^/]+/stats$") && !query.matches("(?:.*&)?stream=(0|false)(?:&.*)?")) {
            return Optional.empty();
        }
        if (STOP.matcher(p).matches()) {
            Matcher t = GRACE.matcher(query);
            return Optional.of(
                    (t.find() ? Duration.ofSeconds(Long.parseLong(t.group(1))) : DEFAULT_STOP_GRACE).plus(CALL));
        }
        if (p.matches(ATTACHED_PATH)) {
            return Optional.of(attached);
        }
        if (method.equals("POST") && p.equals("/containers/create")
                || method.equals("DELETE") && (p.matches("^/containers/[^/]+$") || p.matches("^/images/.+$"))) {
            return Optional.of(LAYER);
        }
        if (p.equals("/build")
                || p.equals("/images/load")
                || p.equals("/images/create")
                || p.equals("/commit")
                || p.matches("^/images/.+/(push|get)$")
                || p.equals("/images/get")
                || p.matches("^/containers/[^/]+/export$")) {
            return Optional.of(IMAGE);
        }
        return Optional.of(CALL);
    }

    /**
     * Whether the answer of a request may fall silent for long once it began: a long-lived stream (then
     * {@link #of} is empty) or an attached command's output. Its transport then has no read timeout; the deadline
     * of {@link #of}, if any, bounds only the wait for the answer's head.
     */
    public static boolean silenceAllowed(String method, String path) {
        int q = path.indexOf('?');
        String p = VERSION_PREFIX.matcher(q < 0 ? path : path.substring(0, q)).replaceFirst("");
        return of(method, path).isEmpty() || p.matches(ATTACHED_PATH);
    }

    private static final String ATTACHED_PATH = "^/(exec/[^/]+/start|containers/[^/]+/attach)$";

    private static boolean flag(String query, String name) {
        return query.matches("(?:.*&)?" + name + "=(1|true)(?:&.*)?");
    }
}
