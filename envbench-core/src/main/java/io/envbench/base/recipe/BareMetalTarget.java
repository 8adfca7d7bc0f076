package io.envbench.base.recipe;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.envbench.base.readiness.Readiness;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;

/**
 * A server started as a plain host process.
 *
 * @param command   command line; the first element is resolved against {@code workDir}
 * @param workDir   working directory
 * @param env       extra environment variables
 * @param hostPort  port the process listens on
 * @param readiness when it counts as ready
 */
public record BareMetalTarget(
        List<String> command, Path workDir, Map<String, String> env, int hostPort, Readiness readiness)
        implements TargetSpec {
    public BareMetalTarget {
        command = List.copyOf(command);
        env = Map.copyOf(env);
        if (command.isEmpty()) {
            throw new InvalidSettingException("command", "is empty; give the command that starts the server");
        }
        if (hostPort != 0) {
            LocalPorts.checkRange("port", hostPort);
        }
        TargetSpec.checkReadinessFits(hostPort, readiness);
    }
}
