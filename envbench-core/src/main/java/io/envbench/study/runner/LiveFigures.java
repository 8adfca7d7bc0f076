package io.envbench.study.runner;

import java.util.regex.Pattern;

/**
 * What JMeter's summariser last said about the running load (its {@code summary +} line): the figures of
 * the last interval.
 *
 * @param samples         samples in the interval
 * @param throughputPerSec samples per second in the interval
 * @param errors          failed samples in the interval
 * @param totalSamples    samples since the load started
 * @param totalErrors     failed samples since the load started
 */
public record LiveFigures(long samples, double throughputPerSec, long errors, long totalSamples, long totalErrors) {
    public static final LiveFigures NONE = new LiveFigures(0, 0, 0, 0, 0);

    private static final Pattern SUMMARY =
            Pattern.compile("summary \\+\\s+(\\d+) in [\\d:.]+ =\\s+([\\d.]+)/s.*?Err:\\s+(\\d+)");

    /** Adds one line of JMeter's output when it is a {@code summary +} line; else returns this. */
    public LiveFigures next(String line) {
        var m = SUMMARY.matcher(line);
        if (!m.find()) {
            return this;
        }
        long n = Long.parseLong(m.group(1));
        long err = Long.parseLong(m.group(3));
        return new LiveFigures(n, Double.parseDouble(m.group(2)), err, totalSamples + n, totalErrors + err);
    }
}
