package io.envbench.measure.results;

import java.util.List;
import java.util.Locale;

import io.envbench.base.settings.InvalidSettingException;

/**
 * Which columns of a run's JTL the runner keeps once the run has ended (the experiment's {@code results:}). Either way
 * the file is kept gzip-compressed; {@link #COMPACT} also drops the columns no report reads (thread names, URL,
 * latency, connect time, the per-sample metrics), which a user may still want when digging into one run by hand.
 */
public enum ResultColumns {
    /** Every column JMeter wrote. */
    FULL,
    /** The columns the figures, the errors table and the charts read ({@link #COMPACT_COLUMNS}). */
    COMPACT;

    /**
     * What {@link JtlReader} and {@link ResponseErrors} read: every other column is dropped by {@link #COMPACT}. A reader
     * of a new column adds it here, or a compact run's report would lose it.
     */
    public static final List<String> COMPACT_COLUMNS = List.of(
            "timeStamp",
            "elapsed",
            "label",
            "responseCode",
            "responseMessage",
            "success",
            "bytes",
            "sentBytes",
            JtlReader.ENV_COLUMN,
            JtlReader.INTENDED_COLUMN);

    /** Whether a column of that name is kept. */
    public boolean keeps(String column) {
        return this == FULL || COMPACT_COLUMNS.contains(column);
    }

    /**
     * @param field names the setting in the message (e.g. {@code results})
     * @throws InvalidSettingException naming {@code field}, the value and the allowed ones
     */
    public static ResultColumns parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "full" -> FULL;
            case "compact" -> COMPACT;
            default ->
                throw new InvalidSettingException(
                        field,
                        "'" + text + "' is not a choice; use full (every column JMeter wrote, compressed) or compact"
                                + " (only the columns the report reads, compressed)");
        };
    }

    /** As written in an experiment file. */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
