package io.envbench.measure.results;

/** One row of a JTL, with what the statistics need. */
public record Sample(
        String environment,
        String label,
        long startMs,
        long elapsedMs,
        boolean success,
        long receivedBytes,
        long sentBytes) {}
