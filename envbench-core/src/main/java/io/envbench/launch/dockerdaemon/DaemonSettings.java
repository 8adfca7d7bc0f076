package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The Docker daemon settings EnvBench may change for a run, and says in a report each row ran with: whether published
 * ports go through the user-space {@code docker-proxy} process ({@code userland-proxy}, Docker's default) or through
 * iptables NAT alone (hairpin NAT for traffic from the host); and which storage driver holds images and the containers'
 * copy-on-write layers ({@code storage-driver}). Immutable.
 *
 * @param userlandProxy dockerd's {@code userland-proxy}: true runs a {@code docker-proxy} per published port
 * @param storageDriver dockerd's {@code storage-driver} as its configuration gives it; empty when neither its command
 *     line nor its file names one, so that dockerd picks one itself (overlay2 where the kernel has it)
 */
public record DaemonSettings(boolean userlandProxy, String storageDriver) {
    /** What dockerd runs with when neither its configuration file nor its command line says otherwise. */
    public static final DaemonSettings DOCKER_DEFAULTS = new DaemonSettings(true, "");

    public DaemonSettings {
        if (storageDriver == null) {
            throw new NullPointerException("storageDriver: empty for dockerd's own choice");
        }
    }

    /** Only the proxy set; the storage driver dockerd's own choice. */
    public DaemonSettings(boolean userlandProxy) {
        this(userlandProxy, "");
    }

    /** The same with another storage driver ("" for dockerd's own choice). */
    public DaemonSettings withStorageDriver(String driver) {
        return new DaemonSettings(userlandProxy, driver);
    }

    /** For a report and a CSV cell (no comma), e.g. {@code userland-proxy=false} or {@code userland-proxy=true storage-driver=vfs}. */
    public String describe() {
        return DaemonConfigFile.USERLAND_PROXY + "=" + userlandProxy
                + (storageDriver.isEmpty() ? "" : " " + DaemonConfigFile.STORAGE_DRIVER + "=" + storageDriver);
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
        bothWays(file, DaemonConfigFile.USERLAND_PROXY, inFile.isPresent(), flag);
        Optional<String> driverInFile = file.storageDriver();
        Optional<String> driverFlag = commandLine.flag(DaemonConfigFile.STORAGE_DRIVER, false);
        bothWays(file, DaemonConfigFile.STORAGE_DRIVER, driverInFile.isPresent(), driverFlag);
        String driver = driverFlag.or(() -> driverInFile).orElse(DOCKER_DEFAULTS.storageDriver());
        if (flag.isPresent()) {
            if (!flag.get().equals("true") && !flag.get().equals("false")) {
                throw new DaemonConfigException("dockerd's command line sets --" + DaemonConfigFile.USERLAND_PROXY + "="
                        + flag.get() + ", not true or false");
            }
            return new DaemonSettings(Boolean.parseBoolean(flag.get()), driver);
        }
        return new DaemonSettings(inFile.orElse(DOCKER_DEFAULTS.userlandProxy()), driver);
    }

    private static void bothWays(DaemonConfigFile file, String key, boolean inFile, Optional<String> flag)
            throws DaemonConfigException {
        if (flag.isPresent() && inFile) {
            throw new DaemonConfigException(file.path() + " sets \"" + key + "\" and dockerd's command line sets --"
                    + key + "=" + flag.get() + ": dockerd refuses to start when a setting is given both ways; remove"
                    + " one of them");
        }
    }
}
