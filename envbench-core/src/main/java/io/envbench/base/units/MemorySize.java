package io.envbench.base.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.settings.InvalidSettingException;

/** Parses memory sizes the way {@code docker run --memory} does: a number with an optional b, k, m or g. */
public final class MemorySize {
    private static final Pattern SIZE =
            Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([bkmg]?)(?:i?b)?", Pattern.CASE_INSENSITIVE);
    /** Docker refuses a memory limit below 6 MiB. */
    public static final long DOCKER_MINIMUM_BYTES = 6L * 1024 * 1024;

    private MemorySize() {}

    /**
     * @param field the user-visible field name, for the message
     * @param text  e.g. {@code 512m}, {@code 1g}, {@code 1.5G}, {@code 268435456}, {@code 512MiB}
     * @return bytes
     */
    public static long parseBytes(String field, String text) {
        String t = text == null ? "" : text.trim();
        Matcher m = SIZE.matcher(t);
        if (!m.matches()) {
            throw new InvalidSettingException(
                    field, "'" + text + "' is not a size; use a number with k, m or g, e.g. 512m or 1g");
        }
        double number = Double.parseDouble(m.group(1));
        long unit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 1024L;
            case "m" -> 1024L * 1024;
            case "g" -> 1024L * 1024 * 1024;
            default -> 1L;
        };
        double bytes = Math.floor(number * unit);
        if (bytes >= MAX_BYTES) {
            // a double cast to long would quietly become 8 EiB: a size nobody typed
            throw new InvalidSettingException(
                    field, "'" + text + "' is too large; give at most 1024g (1 TiB), e.g. 512m or 1g");
        }
        return (long) bytes;
    }

    /** 1 TiB: more memory than a machine that runs a load generator and its target has; a larger figure is a typo. */
    public static final double MAX_BYTES = 1024d * 1024 * 1024 * 1024 + 1;

    /** Like {@link #parseBytes} and also refuses limits Docker would refuse. */
    public static long parseContainerLimit(String field, String text) {
        long bytes = parseBytes(field, text);
        if (bytes < DOCKER_MINIMUM_BYTES) {
            throw new InvalidSettingException(field, "'" + text + "' is below Docker's minimum of 6m; use at least 6m");
        }
        return bytes;
    }
}
