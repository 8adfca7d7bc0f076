package io.envbench.launch.dockerdaemon;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A dockerd command line ({@code /proc/PID/cmdline}) as dockerd's flag parser reads it: {@code --name=value},
 * {@code --name value}, and a bare {@code --name} for a boolean (true). Immutable.
 *
 * @param arguments the arguments, the program first
 */
public record DockerdCommandLine(List<String> arguments) {
    public DockerdCommandLine {
        arguments = List.copyOf(arguments);
    }

    /** The value the flag {@code --name} is given, the last one when given twice; empty when it is not given. */
    public Optional<String> flag(String name, boolean isBoolean) {
        String bare = "--" + name;
        Optional<String> value = Optional.empty();
        for (int i = 1; i < arguments.size(); i++) {
            String a = arguments.get(i);
            if (a.startsWith(bare + "=")) {
                value = Optional.of(a.substring(bare.length() + 1));
            } else if (a.equals(bare)) {
                value = isBoolean
                        ? Optional.of("true")
                        : i + 1 < arguments.size() ? Optional.of(arguments.get(++i)) : Optional.empty();
            }
        }
        return value;
    }

    /** The configuration file dockerd reads: its {@code --config-file}, else {@code defaultFile}. */
    public Path configFile(Path defaultFile) {
        return flag("config-file", false).map(Path::of).orElse(defaultFile);
    }
}
