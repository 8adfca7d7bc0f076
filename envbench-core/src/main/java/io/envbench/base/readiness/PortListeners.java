package io.envbench.base.readiness;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import net.jcip.annotations.Immutable;

/**
 * The TCP sockets listening on one port, as Linux lists them in {@code /proc/net/tcp} and {@code tcp6}, and which
 * processes hold them. A readiness check that connects to a port cannot tell who answered: this can, so a start
 * whose port is answered by another process (one that took it after EnvBench found it free) fails instead of
 * measuring that process. Takes the {@code /proc} root, so tests run it on a fixture tree. Immutable.
 */
@Immutable
public final class PortListeners {
    private static final String LISTEN = "0A";

    private final Path proc;
    private final int port;
    private final Set<Long> inodes;

    private PortListeners(Path proc, int port, Set<Long> inodes) {
        this.proc = proc;
        this.port = port;
        this.inodes = Set.copyOf(inodes);
    }

    /** The listeners on {@code port} in this network namespace, read from {@code proc}/net/tcp and tcp6. */
    public static PortListeners read(Path proc, int port) {
        Set<Long> inodes = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(proc.resolve("net").resolve(table));
            } catch (IOException e) {
                continue; // no IPv6 on this host
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !f[3].equals(LISTEN)) {
                    continue;
                }
                int colon = f[1].lastIndexOf(':');
                try {
                    if (colon > 0 && Integer.parseInt(f[1].substring(colon + 1), 16) == port) {
                        inodes.add(Long.parseLong(f[9]));
                    }
                } catch (NumberFormatException e) {
                    // a line this reader does not know: not a listener it can judge
                }
            }
        }
        return new PortListeners(proc, port, inodes);
    }

    /** Socket inodes listening on the port; empty when nothing listens (or this namespace cannot see it). */
    public Set<Long> inodes() {
        return inodes;
    }

    /** The listeners none of {@code pids} holds (an open file descriptor {@code socket:[inode]}). */
    public Set<Long> notHeldBy(Collection<Long> pids) {
        Set<Long> others = new HashSet<>(inodes);
        for (long pid : pids) {
            others.removeAll(socketsOf(proc.resolve(Long.toString(pid))));
        }
        return others;
    }

    /**
     * Who holds one of {@code sockets}, as "PID 123 (python3)", as far as this user may look into other processes; or
     * "another process" when that is hidden (another user's).
     */
    public String describeHolder(Set<Long> sockets) {
        return holdersOf(sockets).stream()
                .findFirst()
                .map(pid -> "PID " + pid
                        + commandOf(proc.resolve(Long.toString(pid)))
                                .map(c -> " (" + c + ")")
                                .orElse(""))
                .orElse("another process");
    }

    /** The processes that hold a listener on the port, as far as this user may look into them; in PID order. */
    public List<Long> holders() {
        return holdersOf(inodes);
    }

    private List<Long> holdersOf(Set<Long> sockets) {
        List<Long> pids = new ArrayList<>();
        if (sockets.isEmpty()) {
            return pids;
        }
        try (Stream<Path> s = Files.list(proc)) {
            for (Path p :
                    (Iterable<Path>) s.filter(d -> d.getFileName().toString().matches("\\d+"))::iterator) {
                Set<Long> held = socketsOf(p);
                held.retainAll(sockets);
                if (!held.isEmpty()) {
                    pids.add(Long.parseLong(p.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            // fall through: the holders stay unnamed
        }
        pids.sort(null);
        return pids;
    }

    /** "port 18080 is answered by PID 123 (python3), not by the target", or empty when every listener is the target's. */
    public Optional<String> strangerAmong(Collection<Long> targetPids) {
        Set<Long> others = notHeldBy(targetPids);
        if (others.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("port " + port + " is answered by " + describeHolder(others)
                + ", not by the target (it started listening "
                + "there after EnvBench found the port free); stop it (ss -ltnp 'sport = :" + port
                + "') or choose another port");
    }

    private static Set<Long> socketsOf(Path processDir) {
        Set<Long> sockets = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(processDir.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[") && link.endsWith("]")) {
                        sockets.add(Long.parseLong(link.substring(8, link.length() - 1)));
                    }
                } catch (IOException | NumberFormatException | UnsupportedOperationException e) {
                    // closed meanwhile, or not a link: not a socket of ours
                }
            }
        } catch (IOException e) {
            // gone, or another user's: holds nothing we can see
        }
        return sockets;
    }

    private static Optional<String> commandOf(Path processDir) {
        try {
            return Optional.of(Files.readString(processDir.resolve("comm")).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
