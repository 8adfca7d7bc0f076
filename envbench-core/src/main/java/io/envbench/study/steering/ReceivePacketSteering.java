package io.envbench.study.steering;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.host.hostsettings.HostSettingsJournal;
import net.jcip.annotations.ThreadSafe;

/**
 * Receive Packet Steering: which CPUs handle the packets an interface receives ({@code queues/rx-N/rps_cpus}, a
 * hexadecimal mask), for traffic that no device IRQ handles, such as between local containers over their veth pairs.
 * Every mask is written through the {@link HostSettingsJournal}, so putting the journal back restores it.
 * Thread-safe: {@link #steer} holds the instance's monitor.
 */
@ThreadSafe
public final class ReceivePacketSteering {
    /** Linux's interface names: at most 15 characters (IFNAMSIZ less its NUL), no slash or space. */
    private static final String INTERFACE_NAME = "[A-Za-z0-9_.:@-]{1,15}";

    private final HostSettingsJournal journal;
    private final HostRoots roots;

    public ReceivePacketSteering(HostSettingsJournal journal, HostRoots roots) {
        this.journal = journal;
        this.roots = roots;
    }

    /**
     * Sets the RPS mask of every receive queue of each interface to {@code cpus}. Every interface and CPU is checked
     * before any mask changes.
     *
     * @param interfaces interface names on the host ({@code vethab12cd}: the tenants' veth host ends)
     * @return the {@code rps_cpus} files written
     * @throws InvalidSettingException {@code interfaces}: empty, a name that is no interface here, or one without RPS;
     *                                 {@code rpsCpus}: a CPU that is not online
     */
    public synchronized List<Path> steer(List<String> interfaces, CpuSet cpus) throws IOException {
        if (interfaces.isEmpty()) {
            throw new InvalidSettingException(
                    "interfaces", "is empty; name the interfaces whose receive queues to steer, e.g. veth1a2b3c");
        }
        cpus.requireWithin("rpsCpus", CpuSet.online(roots.sys()));
        List<Path> masks = new ArrayList<>();
        for (String name : interfaces) {
            masks.addAll(rpsFiles(name));
        }
        String mask = cpus.toHexMask();
        for (Path file : masks) {
            journal.write(file, mask);
        }
        return masks;
    }

    /** The {@code rps_cpus} files of an interface's receive queues, checked. */
    private List<Path> rpsFiles(String name) throws IOException {
        if (name == null || !name.matches(INTERFACE_NAME) || name.equals(".") || name.equals("..")) {
            throw new InvalidSettingException(
                    "interfaces",
                    "'" + name + "' is not an interface name (at most 15 letters, digits, "
                            + "and _ . : @ -); see 'ip link' for this host's interfaces");
        }
        Path dev = roots.netDevice(name);
        if (!Files.isDirectory(dev)) {
            throw new InvalidSettingException(
                    "interfaces",
                    "'" + name + "' is not a network interface on this host (no " + dev
                            + "); see 'ip link' for this host's interfaces");
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> queues = Files.newDirectoryStream(dev.resolve("queues"), "rx-*")) {
            for (Path q : queues) {
                if (Files.exists(q.resolve("rps_cpus"))) {
                    files.add(q.resolve("rps_cpus"));
                }
            }
        } catch (NoSuchFileException e) {
            // no queues folder: reported below
        }
        if (files.isEmpty()) {
            throw new InvalidSettingException(
                    "interfaces",
                    "'" + name + "' has no receive queue with rps_cpus (" + dev.resolve("queues")
                            + "): this kernel was built without RPS, or the interface receives nothing itself");
        }
        files.sort(null);
        return files;
    }
}
