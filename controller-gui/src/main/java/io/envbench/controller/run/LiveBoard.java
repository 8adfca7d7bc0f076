package io.envbench.controller.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.Metrics;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.results.Sample;
import io.envbench.measure.stats.ElapsedDistribution;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.experiment.Schedule;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;

/**
 * What the run view shows while an experiment runs, gathered from the runner's threads (progress, metrics ticks)
 * and the JTL being written, and read by the event thread as an immutable {@link Snapshot}: the event thread
 * never waits for the runner and never sees a half-made figure. Thread-safe.
 */
@ThreadSafe
public final class LiveBoard {
    /** Seconds of samples the live 90% line and throughput cover. */
    public static final int WINDOW_SECONDS = 5;

    private static final int MAX_LOG_LINES_PER_SNAPSHOT = 500;

    /** One environment's latest figures; NaN where nothing was measured yet. */
    public record EnvironmentFigures(
            String environment,
            int runsDone,
            double throughputPerSec,
            double p90Ms,
            double errorPct,
            double targetCpuPct,
            double hostCpuPct) {}

    /**
     * The board at one instant.
     *
     * @param runIndex         1-based index of the running run in the schedule; 0 before the first
     * @param runs             planned runs
     * @param running          the run going on, or null
     * @param timeLeft         expected time until the experiment ends
     * @param environments     in the experiment's order
     * @param throughputSeries per environment, its current run's throughput per second (seconds since the run's first sample, samples/s)
     * @param newLogLines      log lines since the last snapshot
     */
    public record Snapshot(
            int runIndex,
            int runs,
            PlannedRun running,
            Duration timeLeft,
            List<EnvironmentFigures> environments,
            Map<String, List<double[]>> throughputSeries,
            List<String> newLogLines) {}

    private final List<String> environmentNames;
    /** Rows are a multi-tenant experiment's tenants: every run runs them all, samples and CPU are each tenant's. */
    private final boolean tenants;

    @GuardedBy("this")
    private final Map<String, PerEnvironment> perEnvironment = new LinkedHashMap<>();

    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    @GuardedBy("this")
    private int runIndex;

    @GuardedBy("this")
    private int runs;

    @GuardedBy("this")
    private PlannedRun running;

    @GuardedBy("this")
    private Duration timeLeft = Duration.ZERO;

    @GuardedBy("this")
    private long timeLeftAtNanos = System.nanoTime();

    /**
     * @param environmentNames in the experiment's order
     * @param plannedRuns      runs in the schedule
     * @param warmup           samples starting within this time of a run's first sample are left out of the figures
     */
    public LiveBoard(List<String> environmentNames, int plannedRuns, Duration warmup) {
        this(environmentNames, false, plannedRuns, warmup);
    }

    /**
     * The board of an experiment: a row per environment, or for a multi-tenant experiment a row per tenant (each run,
     * whatever its configuration, runs every tenant: the rows show the running configuration's tenants, their own
     * samples by the JTL's environment column and their container's CPU).
     */
    public static LiveBoard of(Experiment e) {
        int runs = Schedule.of(e).size();
        return e.tenancy()
                .map(t -> new LiveBoard(t.tenantNames(), true, runs, e.load().warmup()))
                .orElseGet(() -> new LiveBoard(
                        e.environmentNames(), false, runs, e.load().warmup()));
    }

    private LiveBoard(List<String> environmentNames, boolean tenants, int plannedRuns, Duration warmup) {
        this.tenants = tenants;
        this.environmentNames = List.copyOf(environmentNames);
        this.runs = plannedRuns;
        environmentNames.forEach(e -> perEnvironment.put(e, new PerEnvironment(warmup.toMillis())));
    }

    public synchronized void runStarting(PlannedRun run, int index, int total, Duration left) {
        running = run;
        runIndex = index;
        runs = total;
        timeLeft = left;
        timeLeftAtNanos = System.nanoTime();
        rowsOf(run).forEach(PerEnvironment::newRun);
    }

    /** The rows a run feeds: its environment's, or every tenant's. */
    private List<PerEnvironment> rowsOf(PlannedRun run) {
        if (tenants) {
            return List.copyOf(perEnvironment.values());
        }
        PerEnvironment p = perEnvironment.get(run.environment());
        return p == null ? List.of() : List.of(p);
    }

    /** Whether the rows are a multi-tenant experiment's tenants. */
    public boolean tenants() {
        return tenants;
    }

    public synchronized void timeLeft(Duration left) {
        timeLeft = left;
        timeLeftAtNanos = System.nanoTime();
    }

    public synchronized void runEnded(RunRecord r) {
        if (r.ok()) {
            rowsOf(r.run()).forEach(p -> p.runsDone++);
        }
        if (running != null && running.id().equals(r.run().id())) {
            running = null;
        }
    }

    /** A metrics tick of the running run. */
    public synchronized void metrics(PlannedRun run, MetricsCollector.Tick tick) {
        if (tenants) {
            perEnvironment.forEach((tenant, p) -> {
                p.targetCpuPct = tick.get(Metrics.containerColumns(tenant).cpuPct());
                p.hostCpuPct = tick.get(MetricName.HOST_CPU.column());
            });
            return;
        }
        PerEnvironment p = perEnvironment.get(run.environment());
        if (p != null) {
            p.targetCpuPct = tick.get(MetricName.TARGET_CPU.column());
            p.hostCpuPct = tick.get(MetricName.HOST_CPU.column());
        }
    }

    /** Samples of the running run's JTL, as they were written; a run that is no longer the running one's are dropped. */
    public synchronized void samples(PlannedRun run, List<Sample> samples) {
        if (running == null || !running.id().equals(run.id())) {
            return;
        }
        for (Sample s : samples) {
            // a tenant's samples carry its name in the JTL's environment column
            PerEnvironment p = perEnvironment.get(tenants ? s.environment() : run.environment());
            if (p != null) {
                p.add(s);
            }
        }
    }

    public void log(String line) {
        log.add(line);
    }

    public synchronized Snapshot snapshot() {
        List<EnvironmentFigures> figures = new ArrayList<>();
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        perEnvironment.forEach((env, p) -> {
            figures.add(p.figures(env));
            series.put(env, p.series());
        });
        List<String> lines = new ArrayList<>();
        for (String l; lines.size() < MAX_LOG_LINES_PER_SNAPSHOT && (l = log.poll()) != null; ) {
            lines.add(l);
        }
        Duration elapsedSince = Duration.ofNanos(System.nanoTime() - timeLeftAtNanos);
        Duration left = timeLeft.minus(elapsedSince);
        return new Snapshot(runIndex, runs, running, left.isNegative() ? Duration.ZERO : left, figures, series, lines);
    }

    public List<String> environmentNames() {
        return environmentNames;
    }

    /** One environment's samples, in one-second buckets by end time, for its current run. */
    private static final class PerEnvironment {
        int runsDone;
        double targetCpuPct = Double.NaN;
        double hostCpuPct = Double.NaN;
        /** second (epoch) → {count, errors}; elapsed times of the window's samples kept for the 90% line */
        final TreeMap<Long, long[]> perSecond = new TreeMap<>();

        final TreeMap<Long, long[]> elapsedBySecond = new TreeMap<>();
        long firstSecond = -1;
        long firstStartMs = Long.MAX_VALUE;
        final long warmupMs;
        /** The figures of the last window of the previous run, shown until the new run has a window of its own. */
        EnvironmentFigures previousRun;

        PerEnvironment(long warmupMs) {
            this.warmupMs = warmupMs;
        }

        void newRun() {
            EnvironmentFigures lastWindow = figures("");
            if (!Double.isNaN(lastWindow.throughputPerSec())) {
                previousRun = lastWindow;
            }
            perSecond.clear();
            elapsedBySecond.clear();
            firstSecond = -1;
            firstStartMs = Long.MAX_VALUE;
        }

        void add(Sample s) {
            firstStartMs = Math.min(firstStartMs, s.startMs());
            long second = (s.startMs() + s.elapsedMs()) / 1000;
            if (firstSecond < 0 || second < firstSecond) {
                firstSecond = second;
            }
            long[] c = perSecond.computeIfAbsent(second, k -> new long[2]);
            c[0]++;
            if (!s.success()) {
                c[1]++;
            }
            if (!elapsedBySecond.isEmpty() && second < elapsedBySecond.lastKey() - WINDOW_SECONDS - 1) {
                return; // late, and older than any window still to come
            }
            long[] e = elapsedBySecond.computeIfAbsent(second, k -> new long[16]);
            int n = (int) c[0];
            if (n > e.length) {
                e = Arrays.copyOf(e, Math.max(n, e.length * 2));
                elapsedBySecond.put(second, e);
            }
            e[n - 1] = s.elapsedMs();
            // only the window is needed for the 90% line: older seconds keep their counts, not their times
            while (!elapsedBySecond.isEmpty()
                    && elapsedBySecond.firstKey() < elapsedBySecond.lastKey() - WINDOW_SECONDS - 1) {
                elapsedBySecond.pollFirstEntry();
            }
        }

        EnvironmentFigures figures(String env) {
            // the window: complete seconds after the warm-up and after the run's first (partial) second, up to the
            // second before the newest, which may still be filling
            long last = perSecond.isEmpty() ? 0 : perSecond.lastKey() - 1;
            long afterWarmup = firstStartMs == Long.MAX_VALUE ? Long.MAX_VALUE : (firstStartMs + warmupMs + 999) / 1000;
            long from = perSecond.isEmpty()
                    ? Long.MAX_VALUE
                    : Math.max(Math.max(perSecond.firstKey() + 1, afterWarmup), last - WINDOW_SECONDS + 1);
            if (from > last) {
                return previousRun == null
                        ? new EnvironmentFigures(
                                env, runsDone, Double.NaN, Double.NaN, Double.NaN, targetCpuPct, hostCpuPct)
                        : new EnvironmentFigures(
                                env,
                                runsDone,
                                previousRun.throughputPerSec(),
                                previousRun.p90Ms(),
                                previousRun.errorPct(),
                                targetCpuPct,
                                hostCpuPct);
            }
            long count = 0;
            long errors = 0;
            for (var e : perSecond.subMap(from, true, last, true).entrySet()) {
                count += e.getValue()[0];
                errors += e.getValue()[1];
            }
            ElapsedDistribution window = new ElapsedDistribution();
            for (var e : elapsedBySecond.subMap(from, true, last, true).entrySet()) {
                long[] elapsed = e.getValue();
                int n = (int) Math.min(elapsed.length, perSecond.get(e.getKey())[0]);
                for (int i = 0; i < n; i++) {
                    window.add(elapsed[i]);
                }
            }
            double seconds = last - from + 1;
            // nearest rank, the rule of the Aggregate Report's 90% line (the core's, as the report uses)
            double p90 = window.count() == 0 ? Double.NaN : window.nearestRank(0.9);
            return new EnvironmentFigures(
                    env,
                    runsDone,
                    count / seconds,
                    p90,
                    count == 0 ? Double.NaN : 100.0 * errors / count,
                    targetCpuPct,
                    hostCpuPct);
        }

        List<double[]> series() {
            List<double[]> points = new ArrayList<>();
            if (perSecond.isEmpty()) {
                return points;
            }
            long last = perSecond.lastKey() - 1;
            perSecond.headMap(last, true).forEach((sec, c) -> points.add(new double[] {sec - firstSecond, c[0]}));
            return points;
        }
    }
}
