package io.envbench.report;

/**
 * What a chart's values measure, in the unit they are computed in; the unit an axis shows is picked from the values'
 * magnitude, so an axis reads "12 MB/s" rather than "1.2E7".
 */
public enum Quantity {
    /** Durations computed in ms: shown in ms below 1 s, in s below 10 min, else in min. */
    MILLISECONDS,
    /** Byte rates computed in bytes/s: shown in B/s, KB/s, MB/s or GB/s (1 KB = 1024 bytes, as JMeter's KB/s). */
    BYTES_PER_SECOND;

    /**
     * A unit to show values in: a value in the quantity's own unit divided by {@code perUnit} is the number shown.
     *
     * @param name the unit as an axis label says it, e.g. "MB/s"
     * @param perUnit how many of the quantity's own unit (ms, bytes/s) one shown unit is
     */
    public record Scale(String name, double perUnit) {
        /** A unit taken as given: values shown as computed. */
        public static Scale of(String name) {
            return new Scale(name, 1);
        }

        /** The number shown for a value in the quantity's own unit. */
        public double shown(double value) {
            return value / perUnit;
        }
    }

    private static final double MS_PER_SECOND = 1000;
    private static final double MS_PER_MINUTE = 60_000;
    private static final String[] BYTE_RATE_UNITS = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};

    /**
     * The unit whose numbers for values up to {@code largestValue} stay below 1000 (no thousands on the axis) and are
     * at least 1 where the data allows.
     */
    public Scale scaleFor(double largestValue) {
        double largest = Double.isFinite(largestValue) ? Math.abs(largestValue) : 0;
        return switch (this) {
            case MILLISECONDS ->
                largest < MS_PER_SECOND
                        ? new Scale("ms", 1)
                        : largest < 10 * MS_PER_MINUTE
                                ? new Scale("s", MS_PER_SECOND)
                                : new Scale("min", MS_PER_MINUTE);
            case BYTES_PER_SECOND -> {
                int power = 0;
                while (power < BYTE_RATE_UNITS.length - 1 && largest >= 1000 * Math.pow(1024, power)) {
                    power++;
                }
                yield new Scale(BYTE_RATE_UNITS[power], Math.pow(1024, power));
            }
        };
    }
}
