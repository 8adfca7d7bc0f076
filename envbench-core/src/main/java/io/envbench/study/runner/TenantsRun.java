package io.envbench.study.runner;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.control.registry.EnvBench;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.ContainerDeathWatch;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.PlannedRun;
import io.envbench.study.experiment.Tenancy;
import io.envbench.study.experiment.TenantConfiguration;
import io.envbench.study.experiment.TenantPlan;
import io.envbench.study.tenants.RunningTenant;
import io.envbench.study.tenants.TenantControl;
import io.envbench.study.tenants.TenantDatabase;
import io.envbench.study.tenants.TenantMetricsSource;
import io.envbench.study.tenants.TenantsPlan;
import io.envbench.study.tenants.Timeline;
import io.envbench.study.tenants.TimelineFile;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a multi-tenant experiment: every tenant's container started at once (each its own port and database),
 * all waited for, each database rebuilt through its own DayTrader, then one JMeter run of the tenants' plan (a thread
 * group per tenant, {@link TenantsPlan}); after the warm-up the configuration's {@link TenantControl} runs until the
 * load ends, its actions in {@code timeline/RUN.csv}; then every tenant is stopped, also on failure and cancel. A
 * tenant that dies stops the load (the run fails naming it).
 */
final class TenantsRun {
    private static final Logger log = LoggerFactory.getLogger(TenantsRun.class);

    /** The JMeter part, the runner's own: runs the plan with these properties and hooks; returns the run's status. */
    interface Load {
        String run(Path plan, Map<String, String> props, AtomicReference<String> died, JMeterLoadStep.LoadHooks hooks)
                throws IOException;
    }

    /**
     * @param status         the run's status ({@link RunRecord#OK}, interrupted, failed: ...)
     * @param startToReadyMs from the start request to the last tenant ready
     * @param died           why a tenant died during the run, null when none did
     */
    record Result(String status, long startToReadyMs, String died) {}

    private final EnvBench envbench;
    private final TenantControl.Factory controls;
    private final BooleanSupplier cancelled;
    private final AtomicReference<RunningJMeter> jmeter;

    TenantsRun(
            EnvBench envbench,
            TenantControl.Factory controls,
            BooleanSupplier cancelled,
            AtomicReference<RunningJMeter> jmeter) {
        this.envbench = envbench;
        this.controls = controls;
        this.cancelled = cancelled;
        this.jmeter = jmeter;
    }

    Result run(Experiment e, PlannedRun r, RunDirectory dir, RunProgress progress, List<String> stopped, Load load)
            throws IOException {
        Tenancy tenancy = e.tenancy().orElseThrow();
        TenantConfiguration configuration = tenancy.configuration(r.environment());
        Files.deleteIfExists(dir.timeline(r));
        Files.deleteIfExists(dir.databases(r));
        for (TenantPlan t : tenancy.tenants()) {
            Files.deleteIfExists(dir.tenantTargetLog(r, t.name()));
        }
        int hostCpus = CpuSet.online().size();
        if (hostCpus < tenancy.cpus()) {
            return failed(
                    "tenants.cpus is " + tenancy.cpus() + ", this host has " + hostCpus
                            + " CPUs; run it on a machine with " + tenancy.cpus() + " or give tenants.cpus: "
                            + hostCpus,
                    0);
        }
        try {
            controls.check(configuration, tenancy.configurations().indexOf(configuration));
        } catch (InvalidSettingException ex) {
            return failed(ex.getMessage(), 0);
        }
        TenantDatabase.Claim databases;
        try {
            databases = TenantDatabase.claim(tenancy.tenants(), TenantDatabase.defaultClaimFolder());
        } catch (IOException ex) { // another run's tenants use these databases: nothing is started
            return failed(ex.getMessage(), 0);
        }
        try (databases) {
            return run(e, r, dir, progress, load, tenancy, configuration);
        }
    }

    private Result run(
            Experiment e,
            PlannedRun r,
            RunDirectory dir,
            RunProgress progress,
            Load load,
            Tenancy tenancy,
            TenantConfiguration configuration)
            throws IOException {
        EnvironmentRegistry registry = envbench.environments();
        TenantControl control = controls.create(tenancy, configuration, registry.docker());
        AtomicReference<String> died = new AtomicReference<>();
        List<RunningTenant> running = new ArrayList<>();
        EnvironmentRegistry.Listener deaths = new EnvironmentRegistry.Listener() {
            @Override
            public void died(String environment, String reason) {
                if (tenancy.tenantNames().contains(environment)
                        && died.compareAndSet(null, environment + " died: " + reason)) {
                    progress.log(r.id() + ": "
                            + (ContainerDeathWatch.isDaemonLoss(reason) ? reason : environment + " died: " + reason)
                            + "; the tenants' load is stopped, the next run goes on");
                    RunningJMeter j = jmeter.get();
                    if (j != null) {
                        j.stop(environment + " died");
                    }
                }
            }
        };
        registry.addListener(deaths);
        long startToReadyMs = 0;
        try (TimelineFile timeline = new TimelineFile(dir.timeline(r), Clock.systemUTC())) {
            timeline.record(
                    Timeline.ALL,
                    "run " + r.id(),
                    "configuration " + describe(configuration) + ", "
                            + tenancy.tenants().size() + " tenants on CPUs " + tenancy.cpuSet());
            try {
                // every tenant at once: each start waits for its own readiness
                String whyNot = startAll(tenancy, configuration, registry, running, r, progress);
                startToReadyMs = running.stream()
                        .mapToLong(t -> t.target().startToReady().toMillis())
                        .max()
                        .orElse(0);
                if (whyNot != null) {
                    return failed(cancelled.getAsBoolean() ? null : "start: " + whyNot, startToReadyMs);
                }
                timeline.record(Timeline.ALL, "tenants ready", "the last in " + startToReadyMs + " ms");
                for (RunningTenant t : running) {
                    registry.whyDown(t.name()).ifPresent(why -> deaths.died(t.name(), why));
                }
                String dbProblem = rebuildDatabases(tenancy, running, dir, r, progress, timeline);
                if (dbProblem != null) {
                    return failed(cancelled.getAsBoolean() ? null : "database: " + dbProblem, startToReadyMs);
                }
                if (cancelled.getAsBoolean()) {
                    return new Result(RunRecord.INTERRUPTED, startToReadyMs, null);
                }
                TenantsPlan.write(e.load().plan().orElseThrow(), tenancy.tenantNames(), dir.tenantsPlan());
                Map<String, String> props = new LinkedHashMap<>(e.load().jmeterProperties());
                for (RunningTenant t : running) {
                    var endpoint = t.target().endpoint().orElseThrow();
                    props.putAll(TenantsPlan.properties(t.plan(), endpoint.host(), endpoint.port()));
                }
                ControlDuringLoad hooks = new ControlDuringLoad(
                        control, running, e.load().warmup(), timeline, configuration, progress, r);
                String status;
                try {
                    status = load.run(dir.tenantsPlan(), props, died, hooks);
                } finally {
                    hooks.ended();
                }
                if (hooks.failure() != null && status.equals(RunRecord.OK)) {
                    status = "failed: control: " + hooks.failure();
                }
                if (died.get() != null) {
                    status = ContainerDeathWatch.isDaemonLoss(died.get())
                            ? "failed: " + died.get()
                            : "failed: target died: " + died.get();
                }
                timeline.record(Timeline.ALL, "run ended", status);
                return new Result(status, startToReadyMs, died.get());
            } finally {
                control.stop();
                registry.removeListener(deaths);
                for (RunningTenant t : running) {
                    RunRecorder.writeTargetLog(dir.tenantTargetLog(r, t.name()), t.target(), died.get());
                }
                stopAll(tenancy, registry);
            }
        }
    }

    private Result failed(String why, long startToReadyMs) {
        return new Result(
                why == null || cancelled.getAsBoolean() ? RunRecord.INTERRUPTED : "failed: " + why,
                startToReadyMs,
                null);
    }

    private static String describe(TenantConfiguration c) {
        return c.name() + " (cpuControl " + TenantConfiguration.yamlName(c.cpuControl()) + ", interruptSteering "
                + (c.interruptSteering() ? "on" : "off")
                + (c.cpuControl() == CpuControlMode.DYNAMIC
                        ? ", every " + c.controlInterval().toSeconds() + " s"
                        : "")
                + c.highTenants().stream()
                        .mapToObj(h -> ", highTenants " + h)
                        .findFirst()
                        .orElse("") + ")";
    }

    /** Starts every tenant at once; returns why one did not start (then those that did are in {@code running} to be stopped), or null. */
    private String startAll(
            Tenancy tenancy,
            TenantConfiguration configuration,
            EnvironmentRegistry registry,
            List<RunningTenant> running,
            PlannedRun r,
            RunProgress progress) {
        ExecutorService pool = Executors.newFixedThreadPool(tenancy.tenants().size(), daemon("envbench-tenant-start"));
        try {
            List<Future<RunningTarget>> starts = new ArrayList<>();
            for (TenantPlan t : tenancy.tenants()) {
                starts.add(pool.submit(() -> registry.start(t.definition())));
            }
            String whyNot = null;
            // the configuration's scenario decides each tenant's load; its container is the same under all
            List<TenantPlan> plans = tenancy.tenantsUnder(configuration);
            for (int i = 0; i < starts.size(); i++) {
                TenantPlan t = plans.get(i);
                try {
                    running.add(new RunningTenant(t, starts.get(i).get()));
                } catch (ExecutionException ex) {
                    Throwable cause = ex.getCause();
                    String why = t.name() + " did not start: "
                            + (cause instanceof TargetStartException || cause instanceof InvalidSettingException
                                    ? cause.getMessage()
                                    : cause.toString());
                    progress.log(r.id() + ": " + why);
                    if (whyNot == null) {
                        whyNot = ExperimentRunner.firstLine(why);
                        registry.cancelStarts(); // the others' slow starts are not waited for
                    }
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    whyNot = whyNot == null ? "interrupted" : whyNot;
                }
            }
            return whyNot;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Rebuilds every tenant's database through its DayTrader, at once; writes {@code databases/RUN.csv}; returns a problem or null. */
    private String rebuildDatabases(
            Tenancy tenancy,
            List<RunningTenant> running,
            RunDirectory dir,
            PlannedRun r,
            RunProgress progress,
            Timeline timeline)
            throws IOException {
        TenantDatabase db = new TenantDatabase(envbench.environments()
                .targetsDir()
                .resolve(running.get(0).plan().definition().target()));
        ExecutorService pool = Executors.newFixedThreadPool(running.size(), daemon("envbench-tenant-db"));
        Files.createDirectories(dir.databases(r).getParent());
        try (Writer w = Files.newBufferedWriter(dir.databases(r), StandardCharsets.UTF_8);
                CSVPrinter csv = new CSVPrinter(
                        w,
                        CSVFormat.DEFAULT
                                .builder()
                                .setRecordSeparator('\n')
                                .setHeader("tenant", "database", "ordersBefore", "ordersAfter", "rebuildMs")
                                .build())) {
            List<Future<TenantDatabase.Rebuilt>> rebuilds = new ArrayList<>();
            for (RunningTenant t : running) {
                String url = "http://" + t.target().endpoint().orElseThrow();
                rebuilds.add(pool.submit(() -> db.rebuild(t.plan(), url, tenancy.users(), tenancy.quotes())));
            }
            String problem = null;
            for (int i = 0; i < running.size(); i++) {
                RunningTenant t = running.get(i);
                try {
                    TenantDatabase.Rebuilt done = rebuilds.get(i).get();
                    csv.printRecord(
                            t.name(),
                            t.plan().database(),
                            done.ordersBefore(),
                            done.ordersAfter(),
                            done.took().toMillis());
                    progress.log(r.id() + ": " + t.name() + ": " + t.plan().database() + " rebuilt in "
                            + done.took().toMillis() + " ms ("
                            + tenancy.users() + " users, " + tenancy.quotes() + " quotes; orders " + done.ordersBefore()
                            + " -> "
                            + done.ordersAfter() + ")");
                    timeline.record(
                            t.name(),
                            "database rebuilt",
                            "orders " + done.ordersBefore() + " -> " + done.ordersAfter());
                } catch (ExecutionException ex) {
                    String why = t.name() + ": " + ex.getCause().getMessage();
                    progress.log(r.id() + ": " + why);
                    problem = problem == null ? why : problem;
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return "interrupted";
                }
            }
            return problem;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void stopAll(Tenancy tenancy, EnvironmentRegistry registry) {
        ExecutorService pool = Executors.newFixedThreadPool(tenancy.tenants().size(), daemon("envbench-tenant-stop"));
        try {
            List<Future<?>> stops = new ArrayList<>();
            for (TenantPlan t : tenancy.tenants()) {
                stops.add(pool.submit(() -> registry.stop(t.name())));
            }
            for (Future<?> f : stops) {
                try {
                    f.get(120, TimeUnit.SECONDS);
                } catch (Exception ex) {
                    log.warn("stopping a tenant: {}", ex.toString());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Starts the configuration's control when the warm-up has passed (counted from the first sample JMeter wrote, as the
     * figures' cut-off), stops it when the load ends.
     */
    private static final class ControlDuringLoad implements JMeterLoadStep.LoadHooks {
        /** How often the JTL is looked at for the first sample. */
        static final Duration FIRST_SAMPLE_POLL = Duration.ofMillis(250);

        private final TenantControl control;
        private final List<RunningTenant> tenants;
        private final Duration warmup;
        private final Timeline timeline;
        private final TenantConfiguration configuration;
        private final RunProgress progress;
        private final PlannedRun run;
        private final ScheduledExecutorService timer =
                Executors.newSingleThreadScheduledExecutor(daemon("envbench-tenant-control"));
        private ScheduledFuture<?> pending;
        private volatile boolean started;
        private volatile String failure;
        private boolean ended;

        ControlDuringLoad(
                TenantControl control,
                List<RunningTenant> tenants,
                Duration warmup,
                Timeline timeline,
                TenantConfiguration configuration,
                RunProgress progress,
                PlannedRun run) {
            this.control = control;
            this.tenants = List.copyOf(tenants);
            this.warmup = warmup;
            this.timeline = timeline;
            this.configuration = configuration;
            this.progress = progress;
            this.run = run;
        }

        @Override
        public synchronized void started(MetricsCollector metrics, Path jtl) {
            TenantMetricsSource source = new TenantMetricsSource(
                    tenants.stream().map(RunningTenant::name).toList(), metrics, jtl, Clock.systemUTC());
            // the warm-up counts from the first sample (as the figures' cut-off does), not from JMeter's start, which
            // takes seconds
            pending = timer.scheduleWithFixedDelay(
                    () -> {
                        if (source.get().tenants().values().stream().anyMatch(t -> t.requests() > 0)) {
                            synchronized (this) {
                                pending.cancel(false);
                                if (!ended) {
                                    pending = timer.schedule(
                                            () -> begin(source), warmup.toMillis(), TimeUnit.MILLISECONDS);
                                }
                            }
                        }
                    },
                    0,
                    FIRST_SAMPLE_POLL.toMillis(),
                    TimeUnit.MILLISECONDS);
        }

        private synchronized void begin(TenantMetricsSource source) {
            if (ended) {
                return;
            }
            timeline.record(
                    Timeline.ALL,
                    "control started: " + describe(configuration),
                    "the " + warmup.toSeconds() + " s warm-up after the first sample has passed");
            started = true;
            try {
                source.get(); // the first window starts here, not at JMeter's start
                control.start(tenants, source, timeline);
            } catch (IOException | RuntimeException ex) {
                failure = ex.getMessage();
                timeline.record(Timeline.ALL, "control failed", String.valueOf(ex.getMessage()));
                // the load goes on (its figures are kept), and the run is failed at its end: they are not the
                // configuration's
                progress.log(
                        run.id() + ": the control did not start: " + ex.getMessage() + "; this run will be failed");
                log.warn("tenant control failed", ex);
            }
        }

        @Override
        public synchronized void ended() {
            if (ended) {
                return;
            }
            ended = true;
            if (pending != null) {
                pending.cancel(false);
            }
            timer.shutdownNow();
            if (started) {
                control.stop();
                timeline.record(Timeline.ALL, "control stopped", "the load ended");
            }
        }

        String failure() {
            return failure;
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread t = new Thread(runnable, name);
            t.setDaemon(true);
            return t;
        };
    }
}
