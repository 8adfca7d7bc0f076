package io.envbench.study.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.envbench.base.definition.EnvironmentDefinition;
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

    /**
     * The environments as this calibration runs them: with {@link #AA}, the baseline's copy right after it (A A' B ...
     * in every round); unchanged with {@link #NONE}.
     *
     * @throws InvalidSettingException naming {@code calibration} for a multi-tenant experiment (no environments), or
     *     when an environment already has the copy's name
     */
    public List<EnvironmentPlan> plan(List<EnvironmentPlan> environments, String baseline) {
        if (this == NONE) {
            return environments;
        }
        if (environments.isEmpty()) {
            throw new InvalidSettingException(
                    YamlFields.CALIBRATION,
                    "compares the baseline environment with itself; a multi-tenant experiment compares "
                            + "configurations: remove calibration:");
        }
        String copy = copyOf(baseline).orElseThrow();
        List<EnvironmentPlan> out = new ArrayList<>();
        for (EnvironmentPlan e : environments) {
            if (e.name().equals(copy)) {
                throw new InvalidSettingException(
                        YamlFields.CALIBRATION,
                        "names the baseline's copy '" + copy + "', and an environment already has that name; rename "
                                + "that environment");
            }
            out.add(e);
            if (e.name().equals(baseline)) {
                EnvironmentDefinition d = e.definition();
                out.add(new EnvironmentPlan(
                        copy,
                        new EnvironmentDefinition(
                                copy, d.target(), d.placement(), d.options(), d.port(), d.readyTimeout(), d.services()),
                        e.client(),
                        e.dockerDaemon()));
            }
        }
        return out;
    }

    /** The name of the baseline's copy, when this calibrates. */
    public Optional<String> copyOf(String baseline) {
        return this == AA ? Optional.of(baseline + SUFFIX) : Optional.empty();
    }
}
