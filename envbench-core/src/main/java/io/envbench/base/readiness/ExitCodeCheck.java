package io.envbench.base.readiness;

import java.io.IOException;
import java.util.OptionalInt;

/**
 * For one-shot targets (a benchmark such as bonnie++ that runs and exits): done when the target has
 * exited with {@code expected}; another exit code fails the start.
 */
public record ExitCodeCheck(int expected) implements ReadinessCheck {
    @Override
    public boolean passes(ReadinessContext target) throws IOException {
        OptionalInt code = target.exitCode();
        if (code.isEmpty()) {
            return false;
        }
        if (code.getAsInt() != expected) {
            throw new ExitedWithOtherCode("exited with " + code.getAsInt() + ", expected " + expected);
        }
        return true;
    }

    @Override
    public boolean expectsExit() {
        return true;
    }

    @Override
    public String describe() {
        return "exit with code " + expected;
    }

    /** The job ended with another code: waiting longer cannot help. */
    static final class ExitedWithOtherCode extends IOException {
        ExitedWithOtherCode(String message) {
            super(message);
        }
    }
}
