package io.envbench.base.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a child process in a session of its own ({@code setsid}), so the terminal's Ctrl-C and hang-up reach only
 * EnvBench, which then stops the child its own way (the reaper outlives its owner; a JMeter is told to stop its
 * test, remote engines included). {@code setsid} execs the command in place: the child's PID is the command's.
 */
public final class OwnSession {
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private OwnSession() {}

    /** {@code command} prefixed with {@code setsid} where the host has it (util-linux), else unchanged. */
    public static List<String> command(List<String> command) {
        if (!Files.isExecutable(SETSID)) {
            return command;
        }
        List<String> out = new ArrayList<>(command.size() + 1);
        out.add(SETSID.toString());
        out.addAll(command);
        return out;
    }
}
