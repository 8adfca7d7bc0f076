package io.envbench.jmeter.listeners;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;

import net.jcip.annotations.NotThreadSafe;
import org.jfree.data.time.FixedMillisecond;
import org.jfree.data.time.TimeSeries;

/**
 * Every metric the Resource Monitor has seen (a live run's ticks or a metrics file's rows), one time series
 * per column, whichever view is shown: switching the view picks series from here, it never drops data.
 * Not thread-safe: the Resource Monitor's GUI confines it to the event thread.
 */
@NotThreadSafe
final class MetricHistory {
    /** An hour of readings per metric; older points are dropped as new ones arrive. */
    static final long MAX_AGE_MS = 3_600_000;

    private final Map<String, TimeSeries> series = new LinkedHashMap<>();
    private int readings;
    private long lastEpochMs = Long.MIN_VALUE;

    /** One reading: a value per metric (NaN and null values are skipped). */
    void add(long epochMs, Map<String, Double> values) {
        values.forEach((name, v) -> {
            if (v == null || v.isNaN()) {
                return;
            }
            series.computeIfAbsent(name, n -> {
                        TimeSeries s = new TimeSeries(n);
                        s.setMaximumItemAge(MAX_AGE_MS);
                        return s;
                    })
                    .addOrUpdate(new FixedMillisecond(epochMs), v);
        });
        readings++;
        lastEpochMs = Math.max(lastEpochMs, epochMs);
    }

    /** The series whose metric name matches, in the order they first appeared, at most {@code max}. */
    List<TimeSeries> matching(Pattern metricNames, int max) {
        List<TimeSeries> found = new ArrayList<>();
        for (TimeSeries s : series.values()) {
            if (found.size() < max && metricNames.matcher((String) s.getKey()).matches()) {
                found.add(s);
            }
        }
        return found;
    }

    /** How many series match: more than a chart shows is said in the status. */
    long countMatching(Pattern metricNames) {
        return series.keySet().stream()
                .filter(n -> metricNames.matcher(n).matches())
                .count();
    }

    int readings() {
        return readings;
    }

    int metrics() {
        return series.size();
    }

    OptionalLong lastEpochMs() {
        return readings == 0 ? OptionalLong.empty() : OptionalLong.of(lastEpochMs);
    }

    /** Takes over another history's series (a file read aside, so a bad file leaves what was shown). */
    void replaceWith(MetricHistory other) {
        series.clear();
        series.putAll(other.series);
        readings = other.readings;
        lastEpochMs = other.lastEpochMs;
    }

    void clear() {
        series.clear();
        readings = 0;
        lastEpochMs = Long.MIN_VALUE;
    }
}
