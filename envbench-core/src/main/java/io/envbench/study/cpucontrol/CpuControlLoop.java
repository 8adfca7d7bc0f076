package io.envbench.study.cpucontrol;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.envbench.base.units.CpuSet;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.study.steering.HostRoots;
import io.envbench.study.steering.InterruptSteering;
import io.envbench.study.steering.ReceivePacketSteering;
import io.envbench.study.steering.SteeringStep;
import io.envbench.study.steering.VethHostEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link CpuController} on real tenants: {@link #start} places them ({@link CpuController#begin}) and then,
 * every {@code interval} on a thread of its own, reads ({@link ReadingSource}), decides ({@link CpuController#step})
 * and applies each cpuset (and CPU weight) that changed ({@link TenantCpusets}); optionally, every {@code irqSteeringPeriod}, points the
 * network IRQs ({@link InterruptSteering}) and the tenants' veth receive processing ({@link ReceivePacketSteering}) at
 * the CPUs no tenant is pinned to. Every action goes to the timelines ({@link ControlTimeline}) and is kept
 * ({@link #actions}). {@link #close} stops the loop and puts every cpuset back; the steering's settings are put back by
 * the {@link io.envbench.host.hostsettings.HostSettingsJournal} they were written through, which the caller closes after.
 * Thread-safe: a step, a steering and a close never overlap.
 */
public final class CpuControlLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CpuControlLoop.class);

    private final CpuController controller;
    private final ReadingSource readings;
    private final TenantCpusets cpusets;
    private final Map<String, Tenant> tenants = new LinkedHashMap<>();
    private final List<ControlTimeline> timelines;
    private final Optional<InterruptSteering> irqs;
    private final Optional<ReceivePacketSteering> rps;
    private final List<String> rpsInterfaces;
    private final Clock clock;
    private final List<CpuAction> actions = new ArrayList<>();
    private final Map<String, CpuSet> applied = new LinkedHashMap<>();
    /** The tenants set to the lowest CPU weight, among those applied. */
    private final Set<String> appliedLowest = new HashSet<>();

    private ScheduledExecutorService scheduler;
    private CpuSet freeCpus;
    private CpuSet rpsCpus;
    private Instant startedAt;
    private boolean closed;

    private CpuControlLoop(Builder b) {
        this.controller = b.controller;
        this.readings = b.readings;
        this.cpusets = b.cpusets;
        b.tenants.forEach(t -> tenants.put(t.name(), t));
        this.timelines = List.copyOf(b.timelines);
        this.irqs = Optional.ofNullable(b.irqs);
        this.rps = Optional.ofNullable(b.rps);
        this.rpsInterfaces = List.copyOf(b.rpsInterfaces);
        this.clock = b.clock;
    }

    /**
     * A loop of {@code controller} over its tenants, reading from {@code readings} and applying
     * through {@code cpusets}.
     */
    public static Builder builder(CpuController controller, ReadingSource readings, TenantCpusets cpusets) {
        return new Builder(controller, readings, cpusets);
    }

    /**
     * Study 004's (docs/studies.md#study-004) loop over tenants in containers on {@code daemon}, sharing {@code cpus}:
     * the one way the runner's multi-tenant runs and the JMeter CPU Control assemble it.
     */
    public static Builder overContainers(
            CpuController controller, ReadingSource readings, DockerConnection daemon, CpuSet cpus) {
        return builder(controller, readings, new DockerCpusets(daemon, cpus));
    }

    /** The optional parts of a loop. */
    public static final class Builder {
        private final CpuController controller;
        private final List<Tenant> tenants;
        private final ReadingSource readings;
        private final TenantCpusets cpusets;
        private final List<ControlTimeline> timelines = new ArrayList<>();
        private InterruptSteering irqs;
        private ReceivePacketSteering rps;
        private List<String> rpsInterfaces = List.of();
        private Clock clock = Clock.systemUTC();

        private Builder(CpuController controller, ReadingSource readings, TenantCpusets cpusets) {
            this.controller = controller;
            this.tenants = controller.tenants();
            this.readings = readings;
            this.cpusets = cpusets;
        }

        /** Also tell {@code timeline} of every action (any number of them). */
        public Builder timeline(ControlTimeline timeline) {
            timelines.add(timeline);
            return this;
        }

        /** Steer these IRQs at the free CPUs every {@code irqSteeringPeriod}. */
        public Builder steerInterrupts(InterruptSteering steering) {
            this.irqs = steering;
            return this;
        }

        /** Point the RPS masks of {@code interfaces} (the tenants' veth host ends: {@link io.envbench.study.steering.VethHostEnd}) at the free CPUs. */
        public Builder steerReceivePackets(ReceivePacketSteering steering, List<String> interfaces) {
            this.rps = steering;
            this.rpsInterfaces = List.copyOf(interfaces);
            return this;
        }

        /**
         * Point the RPS masks of the tenants' veth host ends at the free CPUs: found from the tenants' PIDs; a tenant on
         * the host network has none.
         *
         * @throws IOException when a tenant's network namespace cannot be read
         */
        public Builder steerReceivePacketsOf(ReceivePacketSteering steering, HostRoots roots, List<Long> tenantPids)
                throws IOException {
            List<String> veths = new ArrayList<>();
            for (long pid : tenantPids) {
                VethHostEnd.of(roots, pid).ifPresent(veths::add);
            }
            return veths.isEmpty() ? this : steerReceivePackets(steering, veths);
        }

        /** The clock actions are timed by (tests). */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public CpuControlLoop build() {
            return new CpuControlLoop(this);
        }
    }

    /**
     * Places the tenants, steers once, and starts the loop: a step every {@code interval} (dynamic and static; none has
     * nothing to step), the steering every {@code irqSteeringPeriod}.
     */
    public synchronized void start() {
        if (startedAt != null) {
            throw new IllegalStateException("already started");
        }
        begin();
        CpuControlSettings s = controller.settings();
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "envbench-cpucontrol");
            t.setDaemon(true);
            return t;
        });
        if (s.mode() != CpuControlMode.NONE) {
            long ms = s.interval().toMillis();
            scheduler.scheduleAtFixedRate(this::stepQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
        if (irqs.isPresent() || rps.isPresent()) {
            long ms = s.irqSteeringPeriod().toMillis();
            scheduler.scheduleAtFixedRate(this::steerQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    /** Places the tenants ({@link CpuController#begin}) and steers once, without starting the loop's thread (a caller that steps itself). */
    public synchronized ControlStep begin() {
        startedAt = clock.instant();
        readings.read(); // the first readings: what the first step compares with
        ControlStep first = controller.begin(startedAt);
        publish(first.actions());
        apply(first);
        steer();
        return first;
    }

    /** One step now: read, decide, apply. */
    public synchronized ControlStep step() {
        if (closed) {
            return new ControlStep(List.of(), applied, appliedLowest, freeCpus);
        }
        ControlStep step = controller.step(clock.instant(), readings.read());
        publish(step.actions());
        apply(step);
        return step;
    }

    /** Steers the IRQs and RPS masks to the free CPUs now. */
    public synchronized void steer() {
        if (closed || freeCpus == null) {
            return;
        }
        Instant at = clock.instant();
        if (irqs.isPresent()) {
            try {
                SteeringStep s = irqs.get().step(freeCpus);
                String moved = s.cpuOfIrq().entrySet().stream()
                        .map(e -> "IRQ " + e.getKey() + " -> CPU " + e.getValue())
                        .reduce((a, b) -> a + ", " + b)
                        .orElse("no IRQ moved");
                publish(List.of(action(
                        at,
                        "",
                        CpuAction.Kind.STEER_IRQ,
                        "steer " + moved,
                        "free CPUs " + freeCpus + " (no tenant pinned there), step " + s.step()
                                + (s.notes().isEmpty() ? "" : "; " + String.join("; ", s.notes())))));
            } catch (IOException | RuntimeException e) {
                publish(List.of(action(at, "", CpuAction.Kind.NOTE, "IRQs not steered", e.getMessage())));
            }
        }
        if (rps.isPresent() && !rpsInterfaces.isEmpty() && !freeCpus.equals(rpsCpus)) {
            try {
                rps.get().steer(rpsInterfaces, freeCpus);
                rpsCpus = freeCpus;
                publish(List.of(action(
                        at,
                        "",
                        CpuAction.Kind.STEER_RPS,
                        "steer RPS of " + String.join(",", rpsInterfaces) + " -> CPU " + freeCpus + " (mask "
                                + freeCpus.toHexMask() + ")",
                        "free CPUs " + freeCpus + " (no tenant pinned there)")));
            } catch (IOException | RuntimeException e) {
                publish(List.of(action(at, "", CpuAction.Kind.NOTE, "RPS not steered", e.getMessage())));
            }
        }
    }

    /** Every action so far, in order. */
    public synchronized List<CpuAction> actions() {
        return List.copyOf(actions);
    }

    /** The cpusets applied now, by tenant. */
    public synchronized Map<String, CpuSet> applied() {
        return Map.copyOf(applied);
    }

    /** The CPUs no tenant is pinned to now; empty before {@link #start}. */
    public synchronized Optional<CpuSet> freeCpus() {
        return Optional.ofNullable(freeCpus);
    }

    /** Stops the loop (waits for a step under way) and puts back every cpuset it changed; again is a no-op. */
    @Override
    public void close() {
        ScheduledExecutorService s;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            s = scheduler;
        }
        if (s != null) {
            s.shutdownNow();
            try {
                s.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            Instant at = clock.instant();
            List<CpuAction> restored = new ArrayList<>();
            cpusets.restore()
                    .forEach((tenant, what) -> restored.add(
                            action(at, tenant, CpuAction.Kind.RESTORE, what, "the cpu controller stopped")));
            publish(restored);
            applied.clear();
            appliedLowest.clear();
        }
    }

    private void apply(ControlStep step) {
        freeCpus = step.freeCpus();
        for (var e : step.cpusets().entrySet()) {
            boolean lowest = step.lowestWeight().contains(e.getKey());
            if (e.getValue().equals(applied.get(e.getKey())) && lowest == appliedLowest.contains(e.getKey())) {
                continue;
            }
            Tenant t = tenants.get(e.getKey());
            try {
                cpusets.apply(t, e.getValue(), lowest);
                applied.put(e.getKey(), e.getValue());
                if (lowest) {
                    appliedLowest.add(e.getKey());
                } else {
                    appliedLowest.remove(e.getKey());
                }
            } catch (IOException | RuntimeException failed) {
                publish(List.of(action(
                        clock.instant(),
                        e.getKey(),
                        CpuAction.Kind.NOTE,
                        "cpuset " + e.getValue() + " not set",
                        failed.getMessage() + "; tried again at the next step")));
            }
        }
    }

    private void stepQuietly() {
        try {
            step();
        } catch (RuntimeException e) {
            log.warn("cpu control step failed: {}", e.toString());
            publish(List.of(action(clock.instant(), "", CpuAction.Kind.NOTE, "step failed", e.toString())));
        }
    }

    private void steerQuietly() {
        try {
            steer();
        } catch (RuntimeException e) {
            log.warn("steering failed: {}", e.toString());
        }
    }

    private synchronized void publish(List<CpuAction> list) {
        for (CpuAction a : list) {
            actions.add(a);
            log.info("cpu control: {}", a.describe());
            for (ControlTimeline t : timelines) {
                try {
                    t.acted(a);
                } catch (RuntimeException e) {
                    log.warn("a timeline failed on {}: {}", a.describe(), e.toString());
                }
            }
        }
    }

    private CpuAction action(Instant at, String tenant, CpuAction.Kind kind, String what, String why) {
        return new CpuAction(at, Duration.between(startedAt == null ? at : startedAt, at), tenant, kind, what, why);
    }
}
