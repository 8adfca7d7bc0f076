package io.envbench.control.reaper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.envbench.base.units.CpuSet;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import io.envbench.study.steering.HostRoots;
import io.envbench.study.steering.InterruptSteering;
import io.envbench.study.steering.IrqBalancePolicy;
import io.envbench.study.steering.ReceivePacketSteering;

/**
 * The owner {@link ReaperHostSettingsTest} kills: in its own JVM it opens a journal in the folder given as the first
 * argument (which starts its reaper), sets lo's RPS mask to the CPUs online and points the network IRQs at the last
 * CPU, prints one line per IRQ moved ({@code irq N}), its reaper's PID and "ready", then waits to be killed.
 */
public final class OwnerThatChangesHostSettings {
    private OwnerThatChangesHostSettings() {}

    public static void main(String[] args) throws Exception {
        HostSettingsJournal journal = HostSettingsJournal.open(Path.of(args[0]), DaemonRestart.onThisHost());
        HostRoots real = HostRoots.real();
        new ReceivePacketSteering(journal, real).steer(List.of("lo"), CpuSet.online());
        List<Integer> cpus = CpuSet.online().cpus();
        var step = InterruptSteering.ofNetworkDevices(journal, real, IrqBalancePolicy.PAUSE)
                .step(CpuSet.parseList("irqCpus", Integer.toString(cpus.get(cpus.size() - 1))));
        step.cpuOfIrq().keySet().forEach(irq -> System.out.println("irq " + irq));
        System.out.println("journal " + journal.file());
        System.out.println("reaper " + ReaperProcess.ofThisJvm().pid().orElse(-1));
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}
