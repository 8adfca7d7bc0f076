package io.envbench.measure.results;

/**
 * One row of a JTL, with what the statistics need.
 *
 * @param intendedStartMs when an open-model load meant the sample to start (the JTL's {@code envbench.intended}, epoch
 *     ms), from which its response time counts the wait for a free thread; -1 where the load has no schedule
 */
public record Sample(
        String environment,
        String label,
        long startMs,
        long elapsedMs,
        boolean success,
        long receivedBytes,
        long sentBytes,
        long intendedStartMs) {
    /** A sample without an intended start (a closed-loop load, a plan without the Arrivals Timer). */
    public Sample(
            String environment,
            String label,
            long startMs,
            long elapsedMs,
            boolean success,
            long receivedBytes,
            long sentBytes) {
        this(environment, label, startMs, elapsedMs, success, receivedBytes, sentBytes, -1);
    }

    /**
     * The response time from the intended start: elapsed plus the time the sample waited past its arrival (never less
     * than elapsed: an early start is no negative wait); elapsed alone without an intended start.
     */
    public long fromIntendedMs() {
        return intendedStartMs < 0 ? elapsedMs : elapsedMs + Math.max(0, startMs - intendedStartMs);
    }
}
