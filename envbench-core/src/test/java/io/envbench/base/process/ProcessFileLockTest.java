package io.envbench.base.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessFileLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondLockInThisProcessIsRefusedUntilTheFirstIsClosed() throws Exception {
        Path file = dir.resolve("a.lock");
        ProcessFileLock.Attempt first = ProcessFileLock.tryLock(file);
        assertTrue(first.lock().isPresent(), first.toString());
        ProcessFileLock.Attempt second = ProcessFileLock.tryLock(dir.resolve("./a.lock"));
        assertEquals(Optional.of(ProcessFileLock.Busy.IN_THIS_PROCESS), second.busy());
        first.lock().get().close();
        first.lock().get().close(); // twice: nothing more
        try (ProcessFileLock again = ProcessFileLock.tryLock(file).lock().orElseThrow()) {
            assertEquals(file.toAbsolutePath().normalize(), again.file());
        }
    }

    @Test
    void aLockHeldByAnotherProcessIsRefusedNamingWhatTheHolderWrote() throws Exception {
        Path file = dir.resolve("b.lock");
        Path holder = dir.resolve("Holder.java");
        Files.writeString(holder, """
                import java.nio.channels.FileChannel;
                import java.nio.file.*;
                public class Holder {
                    public static void main(String[] a) throws Exception {
                        FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        ch.lock();
                        ch.write(java.nio.ByteBuffer.wrap("pid of the holder".getBytes()));
                        System.out.println("locked");
                        System.in.read();
                    }
                }
                """);
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        holder.toString(),
                        file.toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine());
            ProcessFileLock.Attempt a = ProcessFileLock.tryLock(file);
            assertEquals(Optional.of(ProcessFileLock.Busy.BY_ANOTHER_PROCESS), a.busy());
            assertEquals("pid of the holder", a.holder());
            p.getOutputStream().close(); // the holder ends: the kernel lets its lock go
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            try (ProcessFileLock mine = ProcessFileLock.tryLock(file).lock().orElseThrow()) {
                mine.describeHolder("me");
                assertEquals("me", Files.readString(file));
            }
        } finally {
            p.destroyForcibly();
        }
    }
}
