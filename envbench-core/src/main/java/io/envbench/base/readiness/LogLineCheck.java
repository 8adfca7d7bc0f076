package io.envbench.base.readiness;

import io.envbench.base.settings.InvalidSettingException;

/** Ready when the target's output contains {@code text}. */
public record LogLineCheck(String text) implements ReadinessCheck {
    /** How far back the output is searched. */
    private static final int LINES = 1000;

    public LogLineCheck {
        if (text == null || text.isEmpty()) {
            throw new InvalidSettingException(
                    "ready.log",
                    "is empty; give text the server prints when ready, e.g. 'ready to accept connections'");
        }
    }

    @Override
    public boolean passes(ReadinessContext target) {
        return target.logs(LINES).contains(text);
    }

    @Override
    public String describe() {
        return "log line containing '" + text + "'";
    }
}
