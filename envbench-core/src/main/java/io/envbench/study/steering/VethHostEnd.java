package io.envbench.study.steering;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the host end of a container's veth pair: the interface on the host whose receive queues handle what the
 * container sends (the one to give an RPS mask, {@link ReceivePacketSteering}). A container's {@code eth0} names its
 * peer's interface index in {@code iflink}; it is read through the container's own sysfs, as its main process sees it
 * ({@code proc/PID/root/sys/class/net/eth0/iflink}, needs root), and matched to the {@code ifindex} of an interface
 * in the host's {@code sys/class/net}.
 */
public final class VethHostEnd {
    private VethHostEnd() {}

    /**
     * The host end of {@code pid}'s {@code eth0}; empty when it has none (a container on the host's network, where
     * {@code eth0} is its own peer; one with no network; a process that ended).
     *
     * @param pid the container's main process on the host (docker inspect .State.Pid)
     */
    public static Optional<String> of(HostRoots roots, long pid) throws IOException {
        return of(roots, pid, "eth0");
    }

    /** As {@link #of(HostRoots, long)}, for the container's interface {@code inside}. */
    public static Optional<String> of(HostRoots roots, long pid, String inside) throws IOException {
        Path ifaceInside = roots.proc()
                .resolve(Long.toString(pid))
                .resolve("root/sys/class/net")
                .resolve(inside);
        int peer;
        int own;
        try {
            peer = Integer.parseInt(
                    Files.readString(ifaceInside.resolve("iflink")).strip());
            own = Integer.parseInt(
                    Files.readString(ifaceInside.resolve("ifindex")).strip());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (NumberFormatException e) {
            throw new IOException(ifaceInside + ": iflink or ifindex is no number: " + e.getMessage());
        }
        if (peer == own) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> host = Files.newDirectoryStream(roots.sys().resolve("class/net"))) {
            for (Path iface : host) {
                try {
                    if (Integer.parseInt(
                                    Files.readString(iface.resolve("ifindex")).strip())
                            == peer) {
                        return Optional.of(iface.getFileName().toString());
                    }
                } catch (IOException | NumberFormatException e) {
                    // an interface that went away while we looked, or no ifindex
                }
            }
        }
        return Optional.empty();
    }
}
