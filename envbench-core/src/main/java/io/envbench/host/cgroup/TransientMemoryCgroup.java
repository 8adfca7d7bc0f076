package io.envbench.host.cgroup;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.envbench.host.reaper.ReaperProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A memory cgroup made for one bare-metal command and removed after it, so a host process's page cache is capped
 * as a container's memory limit caps the container's: the same rule for every place. cgroup v1 ({@code memory/})
 * and v2 (a child of the root with {@code memory.max}). Nothing of the host's is changed: the cgroup is new, named
 * {@code envbench-<run id>-<environment>}, and {@link #close()} removes it (the kernel moves its remaining page
 * cache charges to the parent).
 */
public final class TransientMemoryCgroup implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TransientMemoryCgroup.class);

    private final Path dir;

    private TransientMemoryCgroup(Path dir) {
        this.dir = dir;
    }

    /**
     * Makes the cgroup and sets its limit.
     *
     * @param cgroupRoot usually {@code /sys/fs/cgroup}
     * @param name       a folder name, e.g. {@code envbench-1a2b-host}
     * @throws IOException naming what could not be made and why (not root, no memory controller)
     */
    public static TransientMemoryCgroup create(Path cgroupRoot, String name, long limitBytes) throws IOException {
        boolean v2 = Files.exists(cgroupRoot.resolve("cgroup.controllers"));
        Path parent = v2 ? cgroupRoot : cgroupRoot.resolve("memory");
        if (!Files.isDirectory(parent)) {
            throw new IOException("no memory cgroup at " + parent
                    + "; bareMemory needs the memory controller (remove bareMemory " + "to run without a limit)");
        }
        Path dir = parent.resolve(name);
        try {
            Files.createDirectory(dir);
        } catch (IOException e) {
            throw new IOException("cannot make the memory cgroup " + dir + " (" + e + "); bareMemory needs root", e);
        }
        TransientMemoryCgroup cg = new TransientMemoryCgroup(dir);
        // should this process die before close(), its reaper stops what runs in the cgroup and removes it
        ReaperProcess.ofThisJvm().watchHostCgroup(dir);
        try {
            Files.writeString(dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"), Long.toString(limitBytes));
        } catch (IOException e) {
            cg.close();
            throw new IOException("cannot set the memory limit of " + dir + ": " + e, e);
        }
        return cg;
    }

    public Path dir() {
        return dir;
    }

    /** The command, started so that it enters this cgroup before it runs: {@code sh -c 'echo $$ > procs; exec "$@"'}. */
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of(
                "/bin/sh",
                "-c",
                "echo $$ > \"$0\" && exec \"$@\"",
                dir.resolve("cgroup.procs").toString()));
        out.addAll(command);
        return out;
    }

    /** Removes the cgroup once its processes are gone (retried for up to 5 s while the last ones exit). */
    @Override
    public void close() {
        try {
            remove(dir, false, Duration.ofSeconds(5));
        } catch (IOException e) {
            log.warn("could not remove the memory cgroup {}: {}", dir, e.toString());
        }
    }

    /**
     * A cgroup whose owner died before {@link #close}: the processes in it (the owner's: nothing else is put in a cgroup
     * EnvBench made) are killed, and it is removed once they are gone.
     *
     * @return whether it was there
     * @throws IOException when it is still there after 10 s
     */
    public static boolean removeLeftover(Path dir) throws IOException {
        return remove(dir, true, Duration.ofSeconds(10));
    }

    private static boolean remove(Path dir, boolean killMembers, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        boolean was = Files.isDirectory(dir);
        while (Files.exists(dir)) {
            try {
                if (killMembers) {
                    for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                        if (!pid.isBlank()) {
                            ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                        }
                    }
                }
                Files.delete(dir); // rmdir: a cgroup's files are not real files; refused while a process is in it
            } catch (NoSuchFileException gone) {
                break;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while removing the cgroup " + dir);
                }
            }
        }
        return was;
    }
}
