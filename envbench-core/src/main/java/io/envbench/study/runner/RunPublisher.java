package io.envbench.study.runner;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.influxdb.InfluxDbWriter;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.prometheus.PrometheusEndpoint;
import io.envbench.measure.publish.PublishSetting;
import io.envbench.measure.publish.Publishing;
import io.envbench.measure.results.JtlTail;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.PlannedRun;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;

/**
 * An experiment's figures published while it runs, as the Resource Monitor publishes a JMeter test's (the same names
 * and labels, so the same Grafana dashboards show both): one Prometheus endpoint and one InfluxDB writer for the whole
 * experiment, from before its first run to after its last, so a scrape between runs answers (with the response times
 * so far, and no machine figures: no run is measuring then).
 * <ul>
 *   <li>the machine's figures: each tick of the running run's metrics collector (the run's metrics file's row);
 *   <li>the response times: the run's JTL read as JMeter writes it ({@link JtlTail}), at each tick and at the run's
 *       end, each sample under its label and its {@code envbench.env} column (the run's environment).
 * </ul>
 * The runner's own process publishes, not JMeter: JMeter is a child process per run, and a run's plan need not hold a
 * Resource Monitor.
 */
@ThreadSafe
public final class RunPublisher implements AutoCloseable {
    /** Who the InfluxDB writer's log lines are of. */
    static final String SPEAKER = "envbench run";

    /**
     * The longest the endpoint stays up after the experiment for one more scrape: the last run's final samples are
     * counted as it ends, and an endpoint closed before the next scrape would leave them out of Prometheus.
     */
    static final Duration LAST_SCRAPE_AT_MOST = Duration.ofSeconds(30);

    /** The endpoint stops at once: this long for a scrape that has read the figures to write its answer. */
    private static final long ANSWER_WRITTEN_MS = 200;

    private final PrometheusEndpoint prometheus;
    private final InfluxDbWriter influxDb;
    /** The running run's latest tick; null between runs, when no figure of the machine stands for a run. */
    private final AtomicReference<MetricsCollector.Tick> latest;

    private final Object tailLock = new Object();

    @GuardedBy("tailLock")
    private JtlTail tail;

    private RunPublisher(
            PrometheusEndpoint prometheus, InfluxDbWriter influxDb, AtomicReference<MetricsCollector.Tick> latest) {
        this.prometheus = prometheus;
        this.latest = latest;
        this.influxDb = influxDb;
    }

    /**
     * Starts what {@code publishing} asks for: the endpoint listens from now on, the writer's thread runs.
     *
     * @throws InvalidSettingException naming the port's setting (as the front end spells it) when the port is in use;
     *     nothing is left started then
     */
    public static RunPublisher start(Publishing publishing) {
        AtomicReference<MetricsCollector.Tick> latest = new AtomicReference<>();
        PrometheusEndpoint p = null;
        if (publishing.prometheus().isPresent()) {
            InetSocketAddress at = publishing.prometheus().get();
            try {
                p = PrometheusEndpoint.start(at.getAddress(), at.getPort(), latest::get);
            } catch (IOException | RuntimeException e) {
                var s = publishing.spelling();
                throw new InvalidSettingException(
                        s.field(PublishSetting.PROMETHEUS_PORT),
                        at.getPort() + ": no Prometheus endpoint: " + e.getMessage() + "; free port " + at.getPort()
                                + " or give another, e.g. "
                                + s.give(
                                        PublishSetting.PROMETHEUS_PORT,
                                        Integer.toString(at.getPort() < 65535 ? at.getPort() + 1 : 9270)));
            }
        }
        return new RunPublisher(
                p,
                publishing.influxDb().map(t -> InfluxDbWriter.start(t, SPEAKER)).orElse(null),
                latest);
    }

    /** Nothing published: what an experiment run without publishing settings holds. */
    static RunPublisher none() {
        return new RunPublisher(null, null, new AtomicReference<>());
    }

    /** Where Prometheus scrapes, when it serves. */
    public Optional<URI> prometheusUri() {
        return Optional.ofNullable(prometheus).map(PrometheusEndpoint::metricsUri);
    }

    /** The InfluxDB writer, when it writes (its counts of points written and dropped). */
    public Optional<InfluxDbWriter> influxDb() {
        return Optional.ofNullable(influxDb);
    }

    /** {@code progress}, with the runs' ticks and JTLs published on the way; {@code progress} itself when nothing is. */
    RunProgress around(RunProgress progress, RunDirectory directory) {
        if (prometheus == null && influxDb == null) {
            return progress;
        }
        return new RunProgress() {
            @Override
            public void runStarting(PlannedRun run, int index, int total, Duration timeLeft) {
                synchronized (tailLock) {
                    tail = new JtlTail(directory.jtl(run));
                }
                progress.runStarting(run, index, total, timeLeft);
            }

            @Override
            public void live(PlannedRun run, LiveFigures figures, Duration timeLeft) {
                progress.live(run, figures, timeLeft);
            }

            @Override
            public void metrics(PlannedRun run, MetricsCollector.Tick tick) {
                // the samples first, so the writer's interval that this tick ends holds them
                readJtl(progress);
                latest.set(tick);
                if (influxDb != null) {
                    influxDb.tick(tick);
                }
                progress.metrics(run, tick);
            }

            @Override
            public void runEnded(RunRecord record, int index, int total) {
                readJtl(progress); // what JMeter wrote after the last tick, up to its end
                synchronized (tailLock) {
                    tail = null;
                }
                latest.set(null);
                if (influxDb != null) {
                    influxDb.endInterval();
                }
                progress.runEnded(record, index, total);
            }

            @Override
            public void capacitySearched(CapacitySearch.Result result, Path dir) {
                progress.capacitySearched(result, dir);
            }

            @Override
            public void log(String line) {
                progress.log(line);
            }
        };
    }

    /** The running run's JTL since the last read, each sample counted; a JTL that cannot be read is said once. */
    private void readJtl(RunProgress progress) {
        synchronized (tailLock) {
            if (tail == null) {
                return;
            }
            try {
                tail.poll(s -> {
                    if (prometheus != null) {
                        prometheus.recordSample(s.label(), s.environment(), s.elapsedMs(), s.success());
                    }
                    if (influxDb != null) {
                        influxDb.recordSample(s.label(), s.environment(), s.elapsedMs(), s.success());
                    }
                });
            } catch (IOException | RuntimeException e) {
                tail = null; // this run's response times are not published further; its figures still are
                progress.log("publishing response times: " + e.getMessage());
            }
        }
    }

    /**
     * Stops serving (the port is free again) once whatever scrapes the endpoint has scraped it after the last run's end
     * (at most twice its interval, and 30 s), and sends what the writer holds.
     */
    @Override
    public void close() {
        if (prometheus != null) {
            try {
                if (prometheus.awaitNextScrape(LAST_SCRAPE_AT_MOST)) {
                    Thread.sleep(ANSWER_WRITTEN_MS); // the scrape has read the figures: its answer takes a moment more
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                prometheus.close();
            }
        }
        if (influxDb != null) {
            influxDb.close();
        }
    }
}
