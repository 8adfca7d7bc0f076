package io.envbench.study.steering;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A procfs and sysfs tree laid out as this kind of host's (a VM with virtio-net and a PCI NIC), in a folder: four CPUs
 * online; {@code eth0} a virtio device (its IRQs 37-39 named {@code virtio2-*}, its MSI folder on the PCI parent);
 * {@code eth1} a PCI NIC with {@code msi_irqs} 50 and 51 ({@code eth1-TxRx-*}); {@code lo} and a veth with one receive
 * queue each; IRQ 36 of a disk ({@code virtio1-req.0}) and 24 without a handler; every affinity {@code 0-3}.
 */
public final class HostFixture {
    public final Path proc;
    public final Path sys;

    public HostFixture(Path root) throws IOException {
        proc = root.resolve("proc");
        sys = root.resolve("sys");
        write(sys.resolve("devices/system/cpu/online"), "0-3");
        Path pci3 = sys.resolve("devices/pci0000:00/0000:00:03.0");
        Path virtio2 = pci3.resolve("virtio2");
        netDevice("eth0", "../../devices/pci0000:00/0000:00:03.0/virtio2/net/eth0", "../../../virtio2");
        for (int irq : new int[] {37, 38, 39}) {
            write(pci3.resolve("msi_irqs/" + irq), "msix");
        }
        Files.createDirectories(virtio2);
        Path pci4 = sys.resolve("devices/pci0000:00/0000:00:04.0");
        netDevice("eth1", "../../devices/pci0000:00/0000:00:04.0/net/eth1", "../../../0000:00:04.0");
        write(pci4.resolve("msi_irqs/50"), "msix");
        write(pci4.resolve("msi_irqs/51"), "msix");
        netDevice("lo", "../../devices/virtual/net/lo", null);
        netDevice("vethab12cd", "../../devices/virtual/net/vethab12cd", null);
        irq(24, null);
        irq(36, "virtio1-req.0");
        irq(37, "virtio2-config");
        irq(38, "virtio2-input.0");
        irq(39, "virtio2-output.0");
        irq(50, "eth1-TxRx-0");
        irq(51, "eth1-TxRx-1");
    }

    /** {@code sys/class/net/NAME} as a link into {@code devices}, with one receive queue, and its {@code device} link. */
    private void netDevice(String name, String target, String deviceLink) throws IOException {
        Path classNet = sys.resolve("class/net");
        Files.createDirectories(classNet);
        Path real = classNet.resolve(target).normalize();
        write(real.resolve("queues/rx-0/rps_cpus"), "0");
        write(real.resolve("queues/tx-0/xps_cpus"), "0");
        if (deviceLink != null) {
            Files.createSymbolicLink(real.resolve("device"), Path.of(deviceLink));
        }
        Files.createSymbolicLink(classNet.resolve(name), Path.of(target));
    }

    private void irq(int irq, String handler) throws IOException {
        Path dir = proc.resolve("irq/" + irq);
        write(dir.resolve("smp_affinity_list"), "0-3");
        write(dir.resolve("smp_affinity"), "f");
        if (handler != null) {
            Files.createDirectories(dir.resolve(handler));
        }
    }

    /** A process in the procfs tree: {@code PID/comm} and a {@code PID/stat} whose start tick (field 22) is {@code startTicks}. */
    public void process(long pid, String comm, long startTicks) throws IOException {
        write(proc.resolve(pid + "/comm"), comm);
        StringBuilder stat = new StringBuilder(pid + " (" + comm + ") S 1");
        for (int field = 5; field <= 21; field++) {
            stat.append(" 0");
        }
        stat.append(' ').append(startTicks).append(" 0 0\n");
        Files.writeString(proc.resolve(pid + "/stat"), stat);
    }

    public HostRoots roots() {
        return new HostRoots(proc, sys);
    }

    public String affinity(int irq) throws IOException {
        return Files.readString(proc.resolve("irq/" + irq + "/smp_affinity_list"))
                .strip();
    }

    public String rps(String iface) throws IOException {
        return Files.readString(sys.resolve("class/net/" + iface + "/queues/rx-0/rps_cpus"))
                .strip();
    }

    static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text + "\n");
    }
}
