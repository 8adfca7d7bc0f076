package io.envbench.study.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import io.envbench.base.process.ProcessFileLock;
import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One runner per run directory: a second is refused at once, naming the folder and the holder; a let-go lock is free. */
class RunDirectoryLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondRunIntoTheSameFolderIsRefusedUntilTheFirstLetsGo() throws Exception {
        RunDirectory run = new RunDirectory(dir.resolve("run"));
        run.create();
        try (ProcessFileLock first = run.lock()) {
            String holder = Files.readString(first.file());
            assertTrue(
                    holder.startsWith(
                            "envbench run PID " + ProcessHandle.current().pid() + " since "),
                    holder);
            InvalidSettingException second = assertThrows(InvalidSettingException.class, run::lock);
            assertEquals("run directory", second.field());
            assertTrue(
                    second.getMessage().contains(dir.resolve("run") + " is in use by another run"),
                    second.getMessage());
            assertTrue(second.getMessage().contains("give another run directory (-o)"), second.getMessage());
        }
        try (ProcessFileLock again = run.lock()) {
            assertTrue(Files.isRegularFile(again.file()), "free again once the first let go");
        }
    }
}
