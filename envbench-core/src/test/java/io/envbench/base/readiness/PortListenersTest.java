package io.envbench.base.readiness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who listens on a port: on a fixture /proc, and on the real one with a real stranger. */
class PortListenersTest {
    @Test
    void findsTheListenersOfOnePortInBothTablesOnAFixture(@TempDir Path proc) throws Exception {
        Files.createDirectories(proc.resolve("net"));
        String head =
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
        // 0x46A0 = 18080: one listener on 127.0.0.1, one established connection (not a listener), another port
        Files.writeString(
                proc.resolve("net/tcp"),
                head
                        + "   0: 0100007F:46A0 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0 100 0 0 10 0\n"
                        + "   1: 0100007F:46A0 0100007F:B09C 01 00000000:00000000 02:0000051B 00000000  1000        0 222 4 0 20 4 1 17 -1\n"
                        + "   2: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 333 1 0 100 0 0 10 0\n");
        Files.writeString(
                proc.resolve("net/tcp6"),
                head
                        + "   0: 00000000000000000000000000000000:46A0 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 "
                        + "00000000  1000        0 444 1 0 100 0 0 10 0\n");
        Path fd = Files.createDirectories(proc.resolve("42/fd"));
        Files.createSymbolicLink(fd.resolve("3"), Path.of("socket:[111]"));
        Files.writeString(proc.resolve("42/comm"), "nginx\n");
        Path strangerFd = Files.createDirectories(proc.resolve("77/fd"));
        Files.createSymbolicLink(strangerFd.resolve("5"), Path.of("socket:[444]"));
        Files.writeString(proc.resolve("77/comm"), "python3\n");

        PortListeners l = PortListeners.read(proc, 18080);
        assertEquals(Set.of(111L, 444L), l.inodes());
        assertEquals(Set.of(444L), l.notHeldBy(List.of(42L)));
        Optional<String> stranger = l.strangerAmong(List.of(42L));
        assertTrue(
                stranger.orElseThrow().startsWith("port 18080 is answered by PID 77 (python3), not by the target"),
                stranger.get());
        assertEquals(Optional.empty(), PortListeners.read(proc, 18080).strangerAmong(List.of(42L, 77L)));
        assertEquals(Set.of(), PortListeners.read(proc, 9).inodes());
    }

    @Test
    void onTheRealProcASocketOfThisJvmIsOursAndAnotherProcesssIsNot() throws Exception {
        long me = ProcessHandle.current().pid();
        try (ServerSocket mine = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = mine.getLocalPort();
            PortListeners l = PortListeners.read(Path.of("/proc"), port);
            assertEquals(1, l.inodes().size(), "the listener is seen");
            assertEquals(Optional.empty(), l.strangerAmong(List.of(me)));
            Optional<String> notOurs = l.strangerAmong(List.of(1L));
            assertTrue(notOurs.orElseThrow().contains("is answered by PID " + me + " (java)"), notOurs.get());
        }
    }
}
