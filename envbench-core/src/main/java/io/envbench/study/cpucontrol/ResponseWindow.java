package io.envbench.study.cpucontrol;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

import io.envbench.measure.stats.ElapsedDistribution;

/**
 * The response times that ended in the last {@code window}, and their 90% line as JMeter's Aggregate Report computes
 * it ({@link ElapsedDistribution#nearestRank}). Samples are kept in a ring that grows as needed and drops those older
 * than the window. Thread-safe.
 */
final class ResponseWindow {
    private final long windowNanos;
    private final LongSupplier clock;
    private long[] at = new long[1024];
    private long[] elapsedMs = new long[1024];
    private int head;
    private int size;

    ResponseWindow(Duration window, LongSupplier nanoClock) {
        this.windowNanos = window.toNanos();
        this.clock = nanoClock;
    }

    synchronized void add(long elapsed) {
        long now = clock.getAsLong();
        dropOlderThan(now);
        if (size == at.length) {
            long[] a = new long[size * 2];
            long[] e = new long[size * 2];
            for (int i = 0; i < size; i++) {
                a[i] = at[(head + i) % at.length];
                e[i] = elapsedMs[(head + i) % at.length];
            }
            at = a;
            elapsedMs = e;
            head = 0;
        }
        int i = (head + size) % at.length;
        at[i] = now;
        elapsedMs[i] = elapsed;
        size++;
    }

    /** The 90% line of the samples in the window; empty when there is none. */
    synchronized Optional<Duration> line90() {
        dropOlderThan(clock.getAsLong());
        if (size == 0) {
            return Optional.empty();
        }
        ElapsedDistribution d = new ElapsedDistribution();
        for (int i = 0; i < size; i++) {
            d.add(elapsedMs[(head + i) % at.length]);
        }
        return Optional.of(Duration.ofMillis(d.nearestRank(0.9)));
    }

    synchronized int size() {
        dropOlderThan(clock.getAsLong());
        return size;
    }

    private void dropOlderThan(long now) {
        while (size > 0 && now - at[head] > windowNanos) {
            head = (head + 1) % at.length;
            size--;
        }
    }
}
