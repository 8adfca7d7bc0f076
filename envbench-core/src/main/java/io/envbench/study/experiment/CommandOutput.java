package io.envbench.study.experiment;

import java.util.Arrays;
import java.util.Locale;

import io.envbench.base.settings.InvalidSettingException;

/** How a command load's standard output is read into figures: the programs EnvBench knows. */
public enum CommandOutput {
    /** bonnie++'s CSV line (quiet mode, {@code -q}), read by the study floor's {@code BonnieCsv}. */
    BONNIE_CSV("bonnie++"),
    /** The timed psql phases of {@code targets/postgres/psql-latency.sh}, read by the study floor's {@code PsqlTimes}. */
    PSQL_TIME("psql-time");

    private final String yamlName;

    CommandOutput(String yamlName) {
        this.yamlName = yamlName;
    }

    /** As written in an experiment file: {@code bonnie++}. */
    public String yamlName() {
        return yamlName;
    }

    public static CommandOutput parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(o -> o.yamlName.equals(t))
                .findFirst()
                .orElseThrow(() -> new InvalidSettingException(
                        field,
                        "'" + text + "' is not an output EnvBench reads; use "
                                + String.join(
                                        ", ",
                                        Arrays.stream(values())
                                                .map(CommandOutput::yamlName)
                                                .toList())));
    }
}
