package io.envbench.host.reaper;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import io.envbench.base.process.OwnSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's side of the reaper: one reaper process ({@link #MAIN_CLASS}) per owner JVM, started at the first place the
 * owner registers, fed one line per place. Nothing is ever sent to say "I am gone": the reaper learns it from
 * the pipe's end of file, which the kernel delivers however the owner ends (normal exit, exception, SIGKILL,
 * out of memory).
 *
 * <p>Switched off with the system property {@value #SWITCH} {@code =off} or the environment variable
 * {@value #SWITCH_ENV} {@code =off} (then leftovers are removed at the next start, as before); the reaper
 * process itself runs with it off. When the reaper cannot be started, the owner logs why once and goes on:
 * the sweep at the next start still removes what a killed run left.
 */
public final class ReaperProcess {
    /** System property that switches the reaper off ({@code off}). */
    public static final String SWITCH = "envbench.reaper";
    /** Environment variable that switches the reaper off ({@code off}), for CI jobs that may not start processes. */
    public static final String SWITCH_ENV = "ENVBENCH_REAPER";

    /**
     * The reaper's main class: started by name because it sits on the floor above (it sweeps with the launchers,
     * which use this handle); a test checks that the name is the class's.
     */
    public static final String MAIN_CLASS = "io.envbench.control.reaper.Reaper";
    /** The kinds of place a line to the reaper names, as its first field. */
    public static final String DOCKER = "docker";

    public static final String BARE = "bare";
    public static final String CGROUP = "cgroup";
    public static final String HOST_SETTINGS = "hostsettings";

    private static final Logger log = LoggerFactory.getLogger(ReaperProcess.class);
    private static final ReaperProcess OF_THIS_JVM = new ReaperProcess();

    /** Environment variables by which CI servers find a job's processes to kill (Jenkins' cookies): not the reaper's. */
    private static final List<String> JOB_COOKIES = List.of("JENKINS_NODE_COOKIE", "JENKINS_SERVER_COOKIE", "BUILD_ID");

    private final Set<String> registered = new LinkedHashSet<>();
    /** The reaper's own PID (it is no child of this process), -1 before it started. */
    private long reaperPid = -1;

    private OutputStream toReaper;
    private boolean failed;

    private ReaperProcess() {}

    /** The reaper of this JVM: there is one per owner process, as there is one owner identity per process. */
    public static ReaperProcess ofThisJvm() {
        return OF_THIS_JVM;
    }

    /** Containers, networks and volumes this process creates on this daemon (reached as this process reaches it, TLS included). */
    public void watchDockerDaemon(String address, Optional<Path> tlsCertFolder) {
        watch(DOCKER + "\t" + address + "\t" + tlsCertFolder.map(Path::toString).orElse(""));
    }

    /** Host processes this process starts, whose state files are in {@code stateDir} (see BareMetalLauncher). */
    public void watchBareMetal(Path stateDir) {
        watch(BARE + "\t" + stateDir.toAbsolutePath());
    }

    /**
     * A cgroup this process made on the host (a folder under {@code /sys/fs/cgroup}): if it is still there when this
     * process dies, the reaper kills the processes in it and removes it.
     */
    public void watchHostCgroup(Path cgroup) {
        watch(CGROUP + "\t" + cgroup.toAbsolutePath());
    }

    /** Host settings this process changes, written down in journals in {@code folder}: put back if it dies. */
    public void watchHostSettings(Path folder) {
        watch(HOST_SETTINGS + "\t" + folder.toAbsolutePath());
    }

    /** The reaper's PID while it runs. */
    public synchronized OptionalLong pid() {
        return alive() ? OptionalLong.of(reaperPid) : OptionalLong.empty();
    }

    private boolean alive() {
        return reaperPid > 0
                && ProcessHandle.of(reaperPid).map(ProcessHandle::isAlive).orElse(false);
    }

    private synchronized void watch(String line) {
        if (switchedOff() || failed || !registered.add(line)) {
            return;
        }
        try {
            if (!alive()) {
                start();
                // a reaper that died (killed by someone) is replaced; it must learn every place again
                for (String earlier : registered) {
                    if (!earlier.equals(line)) {
                        send(earlier);
                    }
                }
            }
            send(line);
        } catch (IOException | RuntimeException e) {
            failed = true;
            log.warn(
                    "could not start EnvBench's reaper ({}); leftovers of a killed run are removed at the next start instead",
                    e.toString());
        }
    }

    private void send(String line) throws IOException {
        toReaper.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toReaper.flush();
    }

    /** How long a reaper may take to start and connect back before the owner goes on without one. */
    private static final long CONNECT_TIMEOUT_MS = 20_000;

    private void start() throws IOException {
        ProcessHandle self = ProcessHandle.current();
        Path logFile = logFile(self.pid());
        Files.createDirectories(logFile.getParent());
        // the reaper is no child of this process, so the JDK's pipes to a child cannot carry the line: a socket of
        // this owner's does, and its end of file tells the reaper the owner is gone, however it ended
        Path socket = logFile.resolveSibling("reaper-" + self.pid() + ".sock");
        Files.deleteIfExists(socket);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(List.of(
                    "-Xmx32m",
                    "-Xss512k",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-Xshare:auto",
                    "-D" + SWITCH + "=off",
                    "-cp",
                    classPath(),
                    MAIN_CLASS,
                    Long.toString(self.pid()),
                    logFile.toString(),
                    socket.toString()));
            // its own session, and no child of this process: neither the terminal's Ctrl-C and hang-up nor a CI job's
            // cancel that kills the process group or walks the tree of children reaches it; it leaves the job's
            // cgroup itself (Reaper), and Jenkins' cookies are not passed on
            ProcessBuilder pb = new ProcessBuilder(OwnSession.detached(cmd))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            JOB_COOKIES.forEach(pb.environment()::remove);
            pb.start();
            server.configureBlocking(false);
            SocketChannel conn;
            try (Selector waiting = Selector.open()) {
                server.register(waiting, SelectionKey.OP_ACCEPT);
                if (waiting.select(CONNECT_TIMEOUT_MS) == 0 || (conn = server.accept()) == null) {
                    throw new IOException("the reaper did not connect within " + CONNECT_TIMEOUT_MS / 1000
                            + " s; its log: " + logFile);
                }
            }
            conn.configureBlocking(true);
            // its first line is its PID; then only this owner writes
            // read once, not closed: closing the reader would close the connection
            String line = Objects.requireNonNullElse(
                            new BufferedReader(new InputStreamReader(
                                            Channels.newInputStream(conn), StandardCharsets.UTF_8))
                                    .readLine(),
                            "")
                    .strip();
            if (!line.startsWith("pid ")) {
                conn.close();
                throw new IOException("the reaper did not start (it said '" + line + "'; its log: " + logFile + ")");
            }
            reaperPid = Long.parseLong(line.substring(4));
            toReaper = Channels.newOutputStream(conn);
        } finally {
            Files.deleteIfExists(socket); // the connection stays; nobody else may connect
        }
        log.debug("EnvBench reaper started, PID {}, log {}", reaperPid, logFile);
    }

    /** Where the reaper of owner {@code ownerPid} writes what it removed. */
    public static Path logFile(long ownerPid) {
        return Path.of(System.getProperty("java.io.tmpdir"), "envbench", "reaper-" + ownerPid + ".log");
    }

    private static boolean switchedOff() {
        return "off".equalsIgnoreCase(System.getProperty(SWITCH, ""))
                || "off".equalsIgnoreCase(System.getenv().getOrDefault(SWITCH_ENV, ""));
    }

    /**
     * The class path this JVM loaded EnvBench from: every URL of the class loaders from EnvBench's up (JMeter
     * loads plugins from {@code lib/ext} through a URL class loader that also holds {@code lib/}), then
     * {@code java.class.path}.
     */
    public static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (ClassLoader l = ReaperProcess.class.getClassLoader(); l != null; l = l.getParent()) {
            if (l instanceof URLClassLoader u) {
                for (URL url : u.getURLs()) {
                    try {
                        if ("file".equals(url.getProtocol())) {
                            entries.add(Path.of(url.toURI()).toString());
                        }
                    } catch (URISyntaxException | IllegalArgumentException e) {
                        // not a file: not on a command line either
                    }
                }
            }
        }
        var own = ReaperProcess.class.getProtectionDomain().getCodeSource();
        if (own != null) {
            try {
                entries.add(Path.of(own.getLocation().toURI()).toString());
            } catch (URISyntaxException | IllegalArgumentException e) {
                // keep what the loaders said
            }
        }
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                entries.add(e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
