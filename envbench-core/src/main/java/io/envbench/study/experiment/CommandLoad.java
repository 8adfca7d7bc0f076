package io.envbench.study.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.MemorySize;
import net.jcip.annotations.Immutable;

/**
 * A program run once per run in the environment's place, whose standard output is the run's result (bonnie++):
 * in a container it is executed inside the running container (its layer, volumes and memory limit); on bare metal
 * it runs from the target's folder with the recipe's {@code bare.env}, in a transient memory cgroup of
 * {@code bareMemoryBytes} when given, so the host's page cache is capped as a container's memory limit caps its
 * own. Immutable. Validation errors name the field as written under {@code load.command}.
 *
 * @param command         the program and its arguments, e.g. {@code ./bonnie.sh -s 1024 -r 512}
 * @param output          how its standard output is read
 * @param bareMemoryBytes memory limit of the bare-metal run's transient cgroup; empty: none
 * @param duration        how long one run is expected to take (progress, time left); a run may take
 *                        {@link #GRACE} longer before it is stopped and counted as failed
 */
@Immutable
public record CommandLoad(List<String> command, CommandOutput output, OptionalLong bareMemoryBytes, Duration duration) {
    /** Beyond {@code duration}, how long a run may take before it is stopped. */
    public static final Duration GRACE = Duration.ofSeconds(120);

    public CommandLoad {
        command = List.copyOf(Objects.requireNonNull(command, "command"));
        if (command.isEmpty() || command.stream().anyMatch(String::isBlank)) {
            throw new InvalidSettingException(
                    YamlFields.RUN, "is empty; give the program and its arguments, e.g. ./bonnie.sh -s 1024 -r 512");
        }
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(bareMemoryBytes, "bareMemoryBytes");
        if (bareMemoryBytes.isPresent() && bareMemoryBytes.getAsLong() < MemorySize.DOCKER_MINIMUM_BYTES) {
            throw new InvalidSettingException(
                    YamlFields.BARE_MEMORY,
                    bareMemoryBytes.getAsLong() + " bytes is too little to run a "
                            + "program; use at least 6m, e.g. 512m");
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new InvalidSettingException(
                    YamlFields.DURATION_SECONDS,
                    "is not a length; give how long one run takes, in seconds, " + "e.g. 60");
        }
    }

    /** A command line as a file or a form writes it ({@code ./bonnie.sh -s 1024 -r 512}), split at spaces; blank: none. */
    public static List<String> words(String line) {
        return line == null || line.isBlank() ? List.of() : List.of(line.trim().split("\\s+"));
    }

    /** The command as one line, as the file writes it. */
    public String commandLine() {
        return String.join(" ", command);
    }

    /** The longest a run may take before it is stopped. */
    public Duration deadline() {
        return duration.plus(GRACE);
    }
}
