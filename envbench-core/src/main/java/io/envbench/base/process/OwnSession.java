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

    /**
     * {@code command} in a session of its own and no longer a child of this process ({@code setsid -f}: a fork whose
     * parent exits at once, so the command is re-parented to init or the nearest subreaper), where the host has setsid;
     * else {@link #command}. What kills a process tree by walking children from its root (CI runners cancelling a job)
     * does not find it. The PID of the process started is setsid's, not the command's: the command tells its own.
     */
    public static List<String> detached(List<String> command) {
        if (!Files.isExecutable(SETSID)) {
            return command;
        }
        List<String> out = new ArrayList<>(command.size() + 2);
        out.add(SETSID.toString());
        out.add("-f");
        out.addAll(command);
        return out;
    }

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
