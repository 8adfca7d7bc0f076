package io.envbench.study.analysis;

import java.time.Instant;

import io.envbench.study.experiment.PlannedRun;

/**
 * What happened to one planned run, a row of {@code runs.csv}.
 *
 * @param run     which run
 * @param start   when its environment was asked to start
 * @param end     when it was torn down
 * @param status  {@link #OK}, {@link #INTERRUPTED}, or {@code failed: <reason>} (e.g. {@code failed: target died:
 *                killed: out of memory, limit 6m} when the target died during the run)
 * @param samples samples in its JTL (warm-up included)
 * @param startToReadyMs how long the environment took from its start to ready (0 when it did not start)
 * @param firstSample    when the load's first sample started (null without samples): the runner's own
 *                       overhead is the time from {@code start} to it, less start-to-ready
 * @param cpus           the CPUs JMeter, the target and docker-proxy were allowed, as read from /proc during the run
 */
public record RunRecord(
        PlannedRun run,
        Instant start,
        Instant end,
        String status,
        long samples,
        long startToReadyMs,
        Instant firstSample,
        Cpus cpus) {
    /**
     * The CPU lists ({@code Cpus_allowed_list}) the run's processes had, read from /proc during the run; empty where
     * a process was not there (no docker-proxy on bare metal) or the run was not isolated.
     */
    public record Cpus(String jmeter, String target, String dockerProxy) {
        public static final Cpus UNKNOWN = new Cpus("", "", "");

        public Cpus {
            jmeter = jmeter == null ? "" : jmeter;
            target = target == null ? "" : target;
            dockerProxy = dockerProxy == null ? "" : dockerProxy;
        }
    }

    /** A run whose CPUs were not read (not isolated, or it did not get that far). */
    public RunRecord(
            PlannedRun run,
            Instant start,
            Instant end,
            String status,
            long samples,
            long startToReadyMs,
            Instant firstSample) {
        this(run, start, end, status, samples, startToReadyMs, firstSample, Cpus.UNKNOWN);
    }

    public RunRecord {
        cpus = cpus == null ? Cpus.UNKNOWN : cpus;
    }

    public static final String OK = "ok";
    public static final String INTERRUPTED = "interrupted";

    public boolean ok() {
        return OK.equals(status);
    }
}
