package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A dockerd that is only a command line: a restart records what the configuration file and the journals held at that
 * moment (what a crash then would leave), and can be told to fail.
 */
final class FakeDaemon implements DaemonControl {
    static final String HOW = "{\"argv\":[\"dockerd\"],\"env\":[\"PATH=/usr/bin\"],\"cwd\":\"/\",\"log\":\"\"}";

    /** What one restart saw. */
    record Restart(String address, String howItRuns, Optional<String> config, String journals) {}

    private final Path config;
    private final Path journalFolder;
    /** Stands for docker0's route_localnet: a restart with the proxy off sets it to 1, as dockerd does. */
    final Path routeLocalnet;

    final List<Restart> restarts = new ArrayList<>();
    List<String> argv = List.of("dockerd");
    boolean running = true;
    String failNextRestart;
    String othersRunning;

    FakeDaemon(Path config, Path journalFolder, Path routeLocalnet) throws IOException {
        this.config = config;
        this.journalFolder = journalFolder;
        this.routeLocalnet = routeLocalnet;
        Files.writeString(routeLocalnet, "0\n");
    }

    @Override
    public List<Path> filesItChanges() {
        return List.of(routeLocalnet);
    }

    @Override
    public synchronized Optional<DockerdCommandLine> commandLine(String daemonAddress) {
        return running ? Optional.of(new DockerdCommandLine(argv)) : Optional.empty();
    }

    @Override
    public synchronized void checkRestartAllowed(String daemonAddress) throws IOException {
        if (othersRunning != null) {
            throw new IOException(othersRunning);
        }
    }

    @Override
    public synchronized Optional<String> howItRuns(String daemonAddress) {
        return running ? Optional.of(HOW) : Optional.empty();
    }

    @Override
    public synchronized void restart(String daemonAddress, String howItRuns) throws IOException {
        restarts.add(new Restart(
                daemonAddress,
                howItRuns,
                Files.exists(config) ? Optional.of(Files.readString(config)) : Optional.empty(),
                journals(journalFolder)));
        if (failNextRestart != null) {
            String why = failNextRestart;
            failNextRestart = null;
            throw new IOException(why);
        }
        running = true;
        if (Files.exists(config) && Files.readString(config).replace(" ", "").contains("\"userland-proxy\":false")) {
            Files.writeString(routeLocalnet, "1\n");
        }
    }

    /** The text of every journal in the folder, one after the other. */
    static String journals(Path folder) throws IOException {
        StringBuilder s = new StringBuilder();
        if (Files.isDirectory(folder)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.journal")) {
                for (Path f : files) {
                    s.append(Files.readString(f));
                }
            }
        }
        return s.toString();
    }
}
