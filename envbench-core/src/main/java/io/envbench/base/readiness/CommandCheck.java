package io.envbench.base.readiness;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.envbench.base.settings.InvalidSettingException;

/**
 * Ready when a command run where the target runs exits with 0, e.g. {@code pg_isready -h 127.0.0.1}
 * (inside the container, or on the host for bare metal).
 */
public record CommandCheck(List<String> command) implements ReadinessCheck {
    public CommandCheck {
        command = command == null ? List.of() : List.copyOf(command);
        if (command.isEmpty()) {
            throw new InvalidSettingException(
                    "ready.command",
                    "is empty; give a command that exits with 0 when the target is ready, e.g. pg_isready");
        }
    }

    @Override
    public boolean passes(ReadinessContext target) throws IOException, InterruptedException {
        int code = target.exec(command);
        if (code != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + code);
        }
        return true;
    }

    /** Each try starts a process (or a docker exec): on a small machine every 25 ms would slow the start it waits for. */
    @Override
    public Duration pollInterval() {
        return Duration.ofMillis(250);
    }

    @Override
    public String describe() {
        return "command '" + String.join(" ", command) + "' exits with 0";
    }
}
