package io.envbench.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.envbench.launch.docker.DockerRequired;

/** A tmpfs of a given size mounted for a test (root only): a disk that fills up, or goes read-only, on purpose. */
final class SmallDisk {
    private SmallDisk() {}

    /** Mounts a tmpfs of {@code size} (e.g. {@code 64k}, {@code 2m}) on {@code folder}, made first. */
    static Path mount(Path folder, String size) throws Exception {
        Files.createDirectories(folder);
        sh("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", folder.toString());
        return folder;
    }

    static void readOnly(Path mount) throws Exception {
        sh("mount", "-o", "remount,ro", mount.toString());
    }

    static void unmount(Path mount) throws Exception {
        sh("umount", "-l", mount.toString());
    }

    /** Runs a mount command; not being root is said as the machine lacking what the test needs (fails under CI=true). */
    private static void sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            boolean notRoot = output.contains("permission") || output.contains("only root");
            DockerRequired.require(!notRoot, "root (to mount a small file system)", output);
            throw new AssertionError(String.join(" ", cmd) + " failed: " + output);
        }
    }
}
