package io.envbench.study.experiment;

import java.util.Locale;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;

/**
 * Whether an experiment measures its own noise: with {@link #AA} the baseline also runs against itself, as one more
 * environment named {@code BASELINE-aa} placed right after it, so the rounds go A A' B ... and the report shows what
 * chance alone gives on this machine (the A/A difference, which should come out "~") beside every other comparison.
 */
public enum Calibration {
    NONE,
    AA;

    /** Appended to the baseline's name to name its copy. */
    public static final String SUFFIX = "-aa";

    public static Calibration parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "none" -> NONE;
            case "aa" -> AA;
            default ->
                throw new InvalidSettingException(
                        field, "'" + text + "' is not a calibration; use aa (the baseline run against itself) or none");
        };
    }

    /** As written in an experiment file. */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The name of the baseline's copy, when this calibrates. */
    public Optional<String> copyOf(String baseline) {
        return this == AA ? Optional.of(baseline + SUFFIX) : Optional.empty();
    }
}
