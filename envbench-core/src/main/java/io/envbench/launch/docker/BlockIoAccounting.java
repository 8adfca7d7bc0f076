package io.envbench.launch.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.github.dockerjava.api.model.BlkioRateDevice;
import com.github.dockerjava.api.model.HostConfig;

/**
 * Makes a container's block I/O counted. On cgroup v1 recent kernels (6.x) keep the per-cgroup block counters that
 * Docker's stats and EnvBench's cgroup probe read ({@code blkio.throttle.io_service_bytes}) only on a
 * device whose queue has a throttle rule, set by anyone since boot: without one, every container reads 0 B. So each
 * container gets a read and a write limit of {@link #UNLIMITED_BYTES_PER_SECOND} (1 TiB/s, far above any disk) on the
 * local block devices behind the Docker root (its layer and named volumes) and its bind sources. The rule is the
 * container's own setting: it goes with the container, nothing of the host is changed.
 * <p>
 * What it cannot fix: on cgroup v1 a buffered write is counted where the kernel's flusher writes it back (the root
 * cgroup), not in the container; reads and direct or synchronous writes are counted in the container.
 */
public final class BlockIoAccounting {
    /** 1 TiB/s: a limit no disk reaches, so it never throttles. */
    public static final long UNLIMITED_BYTES_PER_SECOND = 1L << 40;

    private BlockIoAccounting() {}

    /**
     * Adds the rules to a container's host config.
     *
     * @param folders host folders the container writes to (the Docker root, bind sources); only local block devices
     *                under /dev get a rule (a remote daemon's root is not a local folder: pass none)
     */
    public static HostConfig apply(HostConfig hc, List<Path> folders) {
        List<BlkioRateDevice> read = new ArrayList<>();
        List<BlkioRateDevice> write = new ArrayList<>();
        for (String device : devices(folders)) {
            read.add(new BlkioRateDevice().withPath(device).withRate(UNLIMITED_BYTES_PER_SECOND));
            write.add(new BlkioRateDevice().withPath(device).withRate(UNLIMITED_BYTES_PER_SECOND));
        }
        if (!read.isEmpty()) {
            hc.withBlkioDeviceReadBps(read).withBlkioDeviceWriteBps(write);
        }
        return hc;
    }

    /** The block devices (e.g. {@code /dev/vda}) holding these folders, each once. */
    static Set<String> devices(List<Path> folders) {
        Set<String> out = new LinkedHashSet<>();
        for (Path folder : folders) {
            device(folder).ifPresent(out::add);
        }
        return out;
    }

    /** The block device a folder's file system is mounted from, when it is a local one (not overlay, tmpfs, a network). */
    static Optional<String> device(Path folder) {
        try {
            String name = Files.getFileStore(folder).name();
            Path dev = Path.of(name);
            if (name.startsWith("/dev/") && Files.exists(dev) && !Files.isDirectory(dev) && !Files.isRegularFile(dev)) {
                return Optional.of(name);
            }
        } catch (IOException | RuntimeException e) {
            // not a local folder: no rule
        }
        return Optional.empty();
    }
}
