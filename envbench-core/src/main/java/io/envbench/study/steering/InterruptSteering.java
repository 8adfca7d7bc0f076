package io.envbench.study.steering;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.host.hostsettings.WriteRefusedException;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;

/**
 * Points IRQs (the network devices', by default) at CPUs no tenant is pinned to, rotating among them: at step
 * {@code k}, the {@code i}-th IRQ (lowest number first) goes to the {@code (i + k) mod n}-th of the {@code n} CPUs
 * given, so the IRQs are spread over those CPUs and each moves on at every step. The caller's loop calls
 * {@link #step} (every 10 s in study 004 (docs/studies.md#study-004)) with the CPUs free at that moment. Every affinity
 * is written through the {@link HostSettingsJournal}, so putting the journal back restores them.
 *
 * <p>An IRQ the kernel will not move (a managed IRQ answers EIO or EPERM) is noted once and left alone; one that is
 * gone (its device removed) is noted and dropped. irqbalance is handled as {@link IrqBalancePolicy} says when the
 * steering is made; one that starts later is paused under {@code PAUSE} and noted under {@code REFUSE}.
 *
 * <p>Thread-safe: {@link #step} holds the instance's monitor.
 */
@ThreadSafe
public final class InterruptSteering {
    private final HostSettingsJournal journal;
    private final HostRoots roots;
    private final IrqBalancePolicy policy;

    @GuardedBy("this")
    private final Map<Integer, NetworkIrq> irqs = new LinkedHashMap<>();

    private final Optional<IrqBalance> irqBalanceAtStart;

    @GuardedBy("this")
    private long steps;

    private InterruptSteering(
            HostSettingsJournal journal, HostRoots roots, List<NetworkIrq> irqs, IrqBalancePolicy policy)
            throws IOException {
        this.journal = journal;
        this.roots = roots;
        this.policy = policy;
        irqs.stream().sorted(Comparator.comparingInt(NetworkIrq::irq)).forEach(i -> this.irqs.put(i.irq(), i));
        this.irqBalanceAtStart = IrqBalance.find(roots.proc());
        if (irqBalanceAtStart.isPresent()) {
            IrqBalance b = irqBalanceAtStart.get();
            if (policy == IrqBalancePolicy.REFUSE) {
                throw new InvalidSettingException(
                        "irqbalance",
                        b.whatItDoes() + "; stop it (systemctl stop irqbalance) or let "
                                + "EnvBench pause it for the run and resume it after (irqbalance: pause)");
            }
            journal.pause(roots.proc(), b.pid(), IrqBalance.NAME);
        }
    }

    /**
     * Steering of every network device's IRQs ({@link NetworkIrq#find}); none found is no error (a host whose only
     * interfaces are virtual): its steps then move nothing and say so.
     *
     * @throws InvalidSettingException {@code irqbalance}: it runs and {@code policy} is {@link IrqBalancePolicy#REFUSE}
     */
    public static InterruptSteering ofNetworkDevices(
            HostSettingsJournal journal, HostRoots roots, IrqBalancePolicy policy) throws IOException {
        return new InterruptSteering(journal, roots, NetworkIrq.find(roots), policy);
    }

    /**
     * Steering of the IRQs given, each checked to exist before anything changes.
     *
     * @throws InvalidSettingException {@code irqs}: empty, or an IRQ that does not exist (the network IRQs are named);
     *                                 {@code irqbalance}: as for {@link #ofNetworkDevices}
     */
    public static InterruptSteering ofIrqs(
            HostSettingsJournal journal, HostRoots roots, List<Integer> irqs, IrqBalancePolicy policy)
            throws IOException {
        if (irqs.isEmpty()) {
            throw new InvalidSettingException(
                    "irqs", "is empty; give IRQ numbers from /proc/interrupts, or steer the network devices' IRQs");
        }
        Map<Integer, List<String>> actions = NetworkIrq.actions(roots.proc());
        List<NetworkIrq> chosen = new ArrayList<>();
        for (int irq : irqs) {
            if (irq < 0 || !Files.exists(roots.affinityListOf(irq))) {
                String network = NetworkIrq.find(roots).stream()
                        .map(i -> Integer.toString(i.irq()))
                        .collect(Collectors.joining(","));
                throw new InvalidSettingException(
                        "irqs",
                        "IRQ " + irq + " does not exist on this host (no " + roots.affinityListOf(irq)
                                + "); use IRQs from /proc/interrupts"
                                + (network.isEmpty() ? "" : " (network devices' IRQs here: " + network + ")"));
            }
            chosen.add(new NetworkIrq(irq, "", actions.getOrDefault(irq, List.of())));
        }
        return new InterruptSteering(journal, roots, chosen, policy);
    }

    /** The IRQs steered (those gone or refused by the kernel are dropped), lowest first. */
    public synchronized List<NetworkIrq> irqs() {
        return List.copyOf(irqs.values());
    }

    /** The irqbalance found when the steering was made (paused under {@link IrqBalancePolicy#PAUSE}). */
    public Optional<IrqBalance> irqBalanceAtStart() {
        return irqBalanceAtStart;
    }

    /**
     * Points each IRQ at one CPU of {@code freeCpus}, rotated one further than at the last step.
     *
     * @param freeCpus the CPUs no tenant is pinned to now (when every CPU is pinned there is nothing to steer to: do not call)
     * @throws InvalidSettingException {@code irqCpus}: a CPU that is not online
     * @throws IOException             when the journal cannot be written (nothing was then changed for that IRQ)
     */
    public synchronized SteeringStep step(CpuSet freeCpus) throws IOException {
        freeCpus.requireWithin("irqCpus", CpuSet.online(roots.sys()));
        List<String> notes = new ArrayList<>();
        IrqBalance.find(roots.proc()).ifPresent(b -> {
            if (policy == IrqBalancePolicy.PAUSE) {
                try {
                    journal.pause(roots.proc(), b.pid(), IrqBalance.NAME);
                } catch (IOException e) {
                    notes.add("irqbalance (PID " + b.pid() + ") could not be paused: " + e.getMessage());
                }
            } else if (irqBalanceAtStart.map(a -> a.pid() != b.pid()).orElse(true)) {
                notes.add(b.whatItDoes());
            }
        });
        List<Integer> cpus = freeCpus.cpus();
        Map<Integer, Integer> pointed = new LinkedHashMap<>();
        int i = 0;
        for (NetworkIrq irq : List.copyOf(irqs.values())) {
            int cpu = cpus.get((int) ((i + steps) % cpus.size()));
            i++;
            try {
                journal.write(roots.affinityListOf(irq.irq()), Integer.toString(cpu));
                pointed.put(irq.irq(), cpu);
            } catch (WriteRefusedException e) {
                irqs.remove(irq.irq());
                notes.add(irq.describe() + ": the kernel refused a new affinity (" + e.reason()
                        + "; a managed IRQ cannot be moved); left as it is");
            } catch (IOException e) {
                if (!(e.getCause() instanceof NoSuchFileException)) {
                    throw e;
                }
                irqs.remove(irq.irq());
                notes.add(irq.describe() + " is gone; no longer steered");
            }
        }
        if (irqs.isEmpty() && pointed.isEmpty() && notes.isEmpty()) {
            notes.add("no network device IRQ to steer on this host");
        }
        return new SteeringStep(steps++, pointed, notes);
    }
}
