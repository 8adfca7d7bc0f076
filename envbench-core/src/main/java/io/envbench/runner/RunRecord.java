package io.envbench.runner;

import java.time.Instant;

/**
 * What happened to one planned run, a row of {@code runs.csv}.
 *
 * @param run     which run
 * @param start   when its environment was asked to start
 * @param end     when it was torn down
 * @param status  {@link #OK}, {@link #INTERRUPTED}, or {@code failed: <reason>}
 * @param samples samples in its JTL (warm-up included)
 */
public record RunRecord(PlannedRun run, Instant start, Instant end, String status, long samples) {
    public static final String OK = "ok";
    public static final String INTERRUPTED = "interrupted";

    public boolean ok() {
        return OK.equals(status);
    }
}
