package io.envbench.base.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The processes that hold a unix socket's listening end, as {@code /proc} shows them: its listening inode in
 * {@code /proc/net/unix}, then every process with that inode among its open files (a service manager that passes the
 * socket on holds it too). Reads a procfs tree given as a folder, so a fixture tree stands for the real one.
 */
public final class SocketListeners {
    /** {@code __SO_ACCEPTCON} in {@code /proc/net/unix}'s Flags column: the socket listens. */
    private static final String LISTENING = "00010000";

    private SocketListeners() {}

    /** The PIDs holding the listening end of {@code socket} in the procfs tree {@code procRoot}, in no order. */
    public static List<Long> of(Path procRoot, Path socket) throws IOException {
        Set<String> inodes = listeningInodes(procRoot, socket);
        List<Long> pids = new ArrayList<>();
        if (inodes.isEmpty()) {
            return pids;
        }
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(
                procRoot, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path process : processes) {
                if (holdsAny(process, inodes)) {
                    pids.add(Long.parseLong(process.getFileName().toString()));
                }
            }
        }
        return pids;
    }

    private static Set<String> listeningInodes(Path procRoot, Path socket) throws IOException {
        Set<String> names = new HashSet<>(List.of(socket.toString()));
        try {
            names.add(socket.toRealPath().toString()); // /var/run is often a link to /run
        } catch (IOException e) {
            // no such socket: none listens
        }
        Set<String> inodes = new HashSet<>();
        List<String> lines = List.of(read(procRoot.resolve("net/unix")).split("\n"));
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.strip().split("\\s+");
            // Num RefCount Protocol Flags Type St Inode Path
            if (f.length >= 8 && LISTENING.equals(f[3]) && names.contains(f[7])) {
                inodes.add(f[6]);
            }
        }
        return inodes;
    }

    private static boolean holdsAny(Path process, Set<String> inodes) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[") && inodes.contains(target.substring(8, target.length() - 1))) {
                        return true;
                    }
                } catch (IOException e) {
                    // closed while we looked
                }
            }
        } catch (IOException e) {
            return false; // gone, or not ours to read
        }
        return false;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
