package io.envbench.study.steering;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import net.jcip.annotations.Immutable;

/**
 * An IRQ of a network device, and how they are found. Immutable.
 *
 * @param irq     its number ({@code /proc/irq/N})
 * @param device  the interface it serves ({@code eth0}); empty for an IRQ chosen by number
 * @param actions the handlers' names the kernel shows ({@code virtio2-input.0}), possibly none
 */
@Immutable
public record NetworkIrq(int irq, String device, List<String> actions) {
    public NetworkIrq {
        actions = List.copyOf(actions);
    }

    /** E.g. {@code IRQ 38 (eth0: virtio2-input.0)}. */
    public String describe() {
        String handlers = String.join(", ", actions);
        String what = device.isEmpty() ? handlers : handlers.isEmpty() ? device : device + ": " + handlers;
        return "IRQ " + irq + (what.isEmpty() ? "" : " (" + what + ")");
    }

    /**
     * The IRQs of the network devices under {@code roots}, lowest first. A device is an interface in
     * {@code sys/class/net} with a {@code device} link (lo, veths and bridges have none: no IRQ of their own). Its IRQs
     * are those in the device's {@code msi_irqs} (PCI MSI/MSI-X), its {@code irq} file (a legacy line), and those whose
     * handler (a folder in {@code proc/irq/N}, as {@code /proc/interrupts} names it) is named after the interface
     * ({@code eth0}, {@code eth0-TxRx-0}) or the device ({@code virtio2-input.0}: a virtio device has no MSI folder of
     * its own). Only IRQs with a {@code proc/irq/N/smp_affinity_list} are kept.
     */
    public static List<NetworkIrq> find(HostRoots roots) throws IOException {
        Map<Integer, List<String>> actions = actions(roots.proc());
        Map<Integer, NetworkIrq> found = new TreeMap<>();
        Path net = roots.sys().resolve("class/net");
        if (!Files.isDirectory(net)) {
            return List.of();
        }
        List<Path> interfaces = new ArrayList<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(net)) {
            d.forEach(interfaces::add);
        }
        interfaces.sort(null);
        for (Path iface : interfaces) {
            Path link = iface.resolve("device");
            if (!Files.exists(link)) {
                continue;
            }
            String name = iface.getFileName().toString();
            Path device = link.toRealPath();
            String deviceName = device.getFileName().toString();
            Set<Integer> irqs = new TreeSet<>(msiIrqs(device));
            if (irqs.isEmpty()) {
                legacyIrq(device).ifPresent(irqs::add);
            }
            actions.forEach((irq, names) -> {
                if (names.stream().anyMatch(a -> namedAfter(a, name) || namedAfter(a, deviceName))) {
                    irqs.add(irq);
                }
            });
            for (int irq : irqs) {
                if (Files.exists(roots.affinityListOf(irq))) {
                    found.putIfAbsent(irq, new NetworkIrq(irq, name, actions.getOrDefault(irq, List.of())));
                }
            }
        }
        return List.copyOf(found.values());
    }

    /** {@code eth0}, {@code eth0-TxRx-0}, {@code virtio2-input.0}; not {@code eth01}. */
    private static boolean namedAfter(String action, String name) {
        return action.equals(name) || action.startsWith(name + "-");
    }

    /** IRQ number to its handlers' names: the folders in {@code proc/irq/N}. */
    static Map<Integer, List<String>> actions(Path proc) throws IOException {
        Map<Integer, List<String>> out = new TreeMap<>();
        Path irqRoot = proc.resolve("irq");
        if (!Files.isDirectory(irqRoot)) {
            return out;
        }
        try (DirectoryStream<Path> irqs = Files.newDirectoryStream(
                irqRoot, p -> p.getFileName().toString().matches("[0-9]+"))) {
            for (Path irq : irqs) {
                List<String> names = new ArrayList<>();
                try (DirectoryStream<Path> inside = Files.newDirectoryStream(irq, Files::isDirectory)) {
                    inside.forEach(p -> names.add(p.getFileName().toString()));
                } catch (IOException e) {
                    continue; // the IRQ went away while we looked
                }
                names.sort(null);
                out.put(Integer.parseInt(irq.getFileName().toString()), names);
            }
        }
        return out;
    }

    private static List<Integer> msiIrqs(Path device) {
        List<Integer> irqs = new ArrayList<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(device.resolve("msi_irqs"))) {
            for (Path p : d) {
                String n = p.getFileName().toString();
                if (n.matches("[0-9]+")) {
                    irqs.add(Integer.parseInt(n));
                }
            }
        } catch (IOException e) {
            // no MSI: a legacy line, or a device whose parent holds them (virtio)
        }
        return irqs;
    }

    private static Optional<Integer> legacyIrq(Path device) {
        try {
            int irq = Integer.parseInt(Files.readString(device.resolve("irq")).strip());
            return irq > 0 ? Optional.of(irq) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
