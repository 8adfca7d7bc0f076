package io.envbench.measure.influxdb;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.prometheus.ExposedName;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The figures of a metrics collector and the samples of a load (the Resource Monitor's, or {@code envbench run}'s)
 * written to an InfluxDB 1.x while load runs, in line protocol:
 * <ul>
 *   <li>every column of each tick of the metrics collector as a point of its own measurement, named and tagged as the
 *       Prometheus endpoint names it ({@link ExposedName}: {@code container.docker.cpu.pct} is
 *       {@code envbench_container_cpu_percent,environment=docker}), field {@value #VALUE}, plus the tag
 *       {@value #RUNNING}: the environments running at that tick, so a host figure can be grouped by environment;
 *       the tick's timestamp, the metrics file's;
 *   <li>{@value #RESPONSE_TIME}: per sampler label and environment, each interval's samples, errors and the elapsed
 *       times' sum, least and most (milliseconds, JMeter's unit), stamped at the tick that ends the interval.
 * </ul>
 * Sampling never waits for it: a tick's points go into a bounded queue (full: dropped and counted), a thread of its
 * own sends them in batches; a server that is down or refuses loses its batches, counted, said once in the log, and
 * the load runs on.
 */
@ThreadSafe
public final class InfluxDbWriter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(InfluxDbWriter.class);

    public static final String RESPONSE_TIME = "envbench_response_time";
    public static final String SAMPLES = "samples";
    public static final String ERRORS = "errors";
    public static final String ELAPSED_SUM_MS = "elapsed_sum_ms";
    public static final String ELAPSED_MIN_MS = "elapsed_min_ms";
    public static final String ELAPSED_MAX_MS = "elapsed_max_ms";
    public static final String LABEL = "label";
    public static final String ENVIRONMENT = ExposedName.ENVIRONMENT;
    /** The field of a tick's figure. */
    public static final String VALUE = "value";
    /** The tag of a tick's figure naming the environments running then (comma-separated, "none"). */
    public static final String RUNNING = "running";

    /** Points held while the server is slow: hours of a large host's ticks at 1 s; beyond, new ones are dropped. */
    static final int QUEUE_POINTS = 200_000;

    static final int BATCH_POINTS = 5_000;
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(5);
    /** At the end, what is queued gets this long to be sent; JMeter's end should not wait on a dead server. */
    private static final Duration FLUSH_AT_END = Duration.ofSeconds(10);

    private final InfluxDbTarget target;
    /** Who the log lines are of: "EnvBench Resource Monitor", "envbench run". */
    private final String speaker;

    private final ResponseTimes responses = new ResponseTimes();
    private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(QUEUE_POINTS);
    private final HttpClient http = HttpClient.newBuilder()
            .proxy(HttpClient.Builder.NO_PROXY)
            .connectTimeout(HTTP_TIMEOUT)
            .build();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicBoolean queueFullTold = new AtomicBoolean();
    /** Confined to the sending thread: whether the server's failure was said, so it is said once, and its return. */
    private boolean failing;

    private final Thread sender;
    private volatile boolean closing;

    private InfluxDbWriter(InfluxDbTarget target, String speaker) {
        this.target = target;
        this.speaker = speaker;
        sender = new Thread(this::send, "envbench-influxdb");
        sender.setDaemon(true); // never keeps JMeter's JVM alive
    }

    /**
     * Starts the sending thread; the database is created (if missing) before the first write.
     *
     * @param speaker who the log lines are of, e.g. "EnvBench Resource Monitor"
     */
    public static InfluxDbWriter start(InfluxDbTarget target, String speaker) {
        InfluxDbWriter w = new InfluxDbWriter(target, speaker);
        w.sender.start();
        log.info("{}: writing to InfluxDB {} database {}", speaker, target.base(), target.database());
        return w;
    }

    /** Counts one sample (called by every JMeter thread: one short lock of its label's series). */
    public void recordSample(String label, String environment, long elapsedMs, boolean successful) {
        responses.record(label, environment, elapsedMs, successful);
    }

    /** On the collector's thread: the tick's figures and the samples since the last tick, queued, never waiting. */
    public void tick(MetricsCollector.Tick t) {
        t.values().forEach((column, value) -> {
            if (value == null || !Double.isFinite(value)) {
                return;
            }
            ExposedName n = ExposedName.of(column, t.environment());
            Map<String, String> tags = new LinkedHashMap<>(n.labels());
            tags.put(RUNNING, t.environment());
            enqueue(LineProtocol.line(n.name(), tags, Map.of(VALUE, value * n.scale()), t.epochMs()));
        });
        queueResponses(t.epochMs());
    }

    /**
     * The samples since the last tick, queued now, stamped now: a load that ends between ticks (one of several runs of
     * an experiment) has its last samples at its own end, not at the next load's first tick.
     */
    public void endInterval() {
        queueResponses(System.currentTimeMillis());
    }

    private void queueResponses(long epochMs) {
        for (ResponseTimes.Interval i : responses.takeInterval()) {
            Map<String, String> tags = new LinkedHashMap<>();
            tags.put(LABEL, i.label());
            tags.put(ENVIRONMENT, i.environment());
            Map<String, Long> fields = new LinkedHashMap<>();
            fields.put(SAMPLES, i.samples());
            fields.put(ERRORS, i.errors());
            fields.put(ELAPSED_SUM_MS, i.sumMs());
            fields.put(ELAPSED_MIN_MS, i.minMs());
            fields.put(ELAPSED_MAX_MS, i.maxMs());
            enqueue(LineProtocol.line(RESPONSE_TIME, tags, fields, epochMs));
        }
    }

    private void enqueue(String line) {
        if (!queue.offer(line)) {
            dropped.incrementAndGet();
            if (queueFullTold.compareAndSet(false, true)) {
                log.warn(
                        "{}: InfluxDB {} takes points slower than they come; {} are waiting,"
                                + " new ones are dropped (and counted) until it catches up",
                        speaker,
                        target.base(),
                        QUEUE_POINTS);
            }
        }
    }

    /** Points the server took. */
    public long written() {
        return written.get();
    }

    /** Points lost: the queue full, or the server down or refusing them. */
    public long dropped() {
        return dropped.get();
    }

    public InfluxDbTarget target() {
        return target;
    }

    /**
     * At the test's end: the samples since the last tick are queued (stamped now), what is queued is sent within
     * {@link #FLUSH_AT_END}, and jmeter.log says how many points were written and dropped.
     */
    @Override
    public void close() {
        queueResponses(System.currentTimeMillis());
        closing = true;
        try {
            sender.join(FLUSH_AT_END.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
        }
        long lost = dropped.get() + queue.size();
        queue.clear();
        if (lost > 0) {
            log.warn("{}: InfluxDB {}: {} points written, {} dropped", speaker, target.base(), written.get(), lost);
        } else {
            log.info("{}: InfluxDB {}: {} points written", speaker, target.base(), written.get());
        }
    }

    private void send() {
        boolean created = false;
        List<String> batch = new ArrayList<>(BATCH_POINTS);
        try {
            while (!(closing && queue.isEmpty())) {
                String first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH_POINTS - 1);
                if (!created) {
                    created = createDatabase();
                }
                post(batch);
                batch.clear();
            }
        } catch (InterruptedException e) {
            dropped.addAndGet(batch.size());
        }
    }

    /** {@code CREATE DATABASE} does nothing when it exists; without it the first write of a new name is refused. */
    private boolean createDatabase() throws InterruptedException {
        String q =
                "CREATE DATABASE \"" + target.database().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return answered(
                HttpRequest.newBuilder(target.queryUri(q))
                        .timeout(HTTP_TIMEOUT)
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                0);
    }

    private void post(List<String> batch) throws InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(target.writeUri())
                .timeout(HTTP_TIMEOUT)
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", batch)))
                .build();
        if (answered(r, batch.size())) {
            written.addAndGet(batch.size());
        } else {
            dropped.addAndGet(batch.size());
        }
    }

    /** Whether the server took the request (2xx); a failure is said once, and so is the server's return. */
    private boolean answered(HttpRequest r, int points) throws InterruptedException {
        String why;
        try {
            HttpResponse<String> a = http.send(r, HttpResponse.BodyHandlers.ofString());
            if (a.statusCode() / 100 == 2) {
                if (failing) {
                    failing = false;
                    log.info(
                            "{}: InfluxDB {} takes points again; {} were dropped so far",
                            speaker,
                            target.base(),
                            dropped.get());
                }
                return true;
            }
            why = "HTTP " + a.statusCode() + " " + a.body().strip();
        } catch (IOException e) {
            why = e.toString();
        }
        if (!failing) {
            failing = true;
            log.warn(
                    "{}: InfluxDB {} database {} does not take points ({}); they are dropped"
                            + " (and counted) until it does, the load runs on. Is influxd running there?",
                    speaker,
                    target.base(),
                    target.database(),
                    why + (points > 0 ? ", " + points + " points" : ""));
        }
        return false;
    }
}
