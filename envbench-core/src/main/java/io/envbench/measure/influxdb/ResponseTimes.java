package io.envbench.measure.influxdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import net.jcip.annotations.ThreadSafe;

/**
 * The samples of one interval per sampler label and environment: how many, how many failed, and their elapsed times'
 * sum, least and most. JMeter's threads add; the collector's thread takes the interval's figures and starts the next
 * one. Each series has a lock of its own, held for a few additions: threads of other labels never wait.
 */
@ThreadSafe
final class ResponseTimes {
    /** One interval's figures of one label and environment. */
    record Interval(String label, String environment, long samples, long errors, long sumMs, long minMs, long maxMs) {}

    private record Key(String label, String environment) {}

    private static final class Counts {
        private long samples;
        private long errors;
        private long sumMs;
        private long minMs = Long.MAX_VALUE;
        private long maxMs = Long.MIN_VALUE;
    }

    private final Map<Key, Counts> series = new ConcurrentHashMap<>();

    void record(String label, String environment, long elapsedMs, boolean successful) {
        Counts c = series.computeIfAbsent(new Key(label, environment), k -> new Counts());
        synchronized (c) {
            c.samples++;
            if (!successful) {
                c.errors++;
            }
            c.sumMs += elapsedMs;
            c.minMs = Math.min(c.minMs, elapsedMs);
            c.maxMs = Math.max(c.maxMs, elapsedMs);
        }
    }

    /** The figures since the last call, of the series that had samples; those series start again from nothing. */
    List<Interval> takeInterval() {
        List<Interval> out = new ArrayList<>();
        series.forEach((k, c) -> {
            synchronized (c) {
                if (c.samples > 0) {
                    out.add(new Interval(k.label, k.environment, c.samples, c.errors, c.sumMs, c.minMs, c.maxMs));
                    c.samples = 0;
                    c.errors = 0;
                    c.sumMs = 0;
                    c.minMs = Long.MAX_VALUE;
                    c.maxMs = Long.MIN_VALUE;
                }
            }
        });
        return out;
    }
}
