package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The Docker daemon settings EnvBench may change for a run, and says in a report each row ran with. For now one:
 * whether published ports go through the user-space {@code docker-proxy} process ({@code userland-proxy}, Docker's
 * default) or through iptables NAT alone (hairpin NAT for traffic from the host). Immutable.
 *
 * @param userlandProxy dockerd's {@code userland-proxy}: true runs a {@code docker-proxy} per published port
 */
public record DaemonSettings(boolean userlandProxy) {
    /** What dockerd runs with when neither its configuration file nor its command line says otherwise. */
    public static final DaemonSettings DOCKER_DEFAULTS = new DaemonSettings(true);

    /** For a report, e.g. {@code userland-proxy=false}. */
    public String describe() {
        return DaemonConfigFile.USERLAND_PROXY + "=" + userlandProxy;
    }

    /**
     * The settings a dockerd run as {@code commandLine} has: its command line's flags win over its configuration file
     * ({@code --config-file}, else {@code defaultConfigFile}), which wins over Docker's defaults.
     *
     * @throws DaemonConfigException when the file is not valid JSON, or a setting is given both in the file and as a flag
     *                               (dockerd refuses to start so), naming both and the fix
     */
    public static DaemonSettings effective(DockerdCommandLine commandLine, Path defaultConfigFile) throws IOException {
        DaemonConfigFile file = new DaemonConfigFile(commandLine.configFile(defaultConfigFile));
        Optional<Boolean> inFile = file.userlandProxy();
        Optional<String> flag = commandLine.flag(DaemonConfigFile.USERLAND_PROXY, true);
        if (flag.isPresent() && inFile.isPresent()) {
            throw new DaemonConfigException(
                    file.path() + " sets \"" + DaemonConfigFile.USERLAND_PROXY + "\" and dockerd's command "
                            + "line sets --" + DaemonConfigFile.USERLAND_PROXY + "=" + flag.get()
                            + ": dockerd refuses to start when a "
                            + "setting is given both ways; remove one of them");
        }
        if (flag.isPresent()) {
            if (!flag.get().equals("true") && !flag.get().equals("false")) {
                throw new DaemonConfigException("dockerd's command line sets --" + DaemonConfigFile.USERLAND_PROXY + "="
                        + flag.get() + ", not true or false");
            }
            return new DaemonSettings(Boolean.parseBoolean(flag.get()));
        }
        return new DaemonSettings(inFile.orElse(DOCKER_DEFAULTS.userlandProxy()));
    }
}
