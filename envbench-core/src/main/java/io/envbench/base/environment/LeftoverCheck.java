package io.envbench.base.environment;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import net.jcip.annotations.Immutable;

/**
 * Decides whether a labelled resource is a leftover to remove: only when its owner is provably gone.
 * That takes the same host (host name and machine id), the same PID namespace, and either no process
 * with the owner's PID or one that started at another time (the PID was reused); a reboot of the same
 * host since the owner started also proves it gone. A resource of another host, or of a PID namespace
 * this process cannot see, is kept: on a shared daemon one load generator never removes another's.
 * Labels older than owner identity (only {@code owner-pid}) keep the older rule: removed when no
 * process has that PID. Immutable and thread-safe; the process table is asked, nothing is cached.
 */
@Immutable
public final class LeftoverCheck {
    /**
     * The decision and the reason a user reads in the log.
     *
     * @param ownerUnseen kept because its owner cannot be seen from here (another host or PID namespace, a
     *                    start time that cannot be compared): worth a line in the log, unlike a live owner
     */
    public record Verdict(boolean reap, boolean ownerUnseen, String why) {
        static Verdict reap(String why) {
            return new Verdict(true, false, why);
        }

        static Verdict keep(String why) {
            return new Verdict(false, false, why);
        }

        static Verdict keepUnseen(String why) {
            return new Verdict(false, true, why);
        }
    }

    /** A process as the process table shows it; -1 for what cannot be read. */
    public record ProcessStart(long startTicks, long startedEpochMs) {}

    /** The processes this process can see, by PID. */
    @FunctionalInterface
    public interface ProcessTable {
        /** @return the start of the live process with this PID; empty when there is none */
        Optional<ProcessStart> find(long pid);

        /** This machine's processes, as seen from this process's PID namespace; a zombie (exited, not yet collected) is not one. */
        static ProcessTable local() {
            return pid -> ProcessHandle.of(pid)
                    .filter(p -> p.isAlive() && !OwnerIdentity.isZombie(pid))
                    .map(p -> new ProcessStart(
                            OwnerIdentity.startTicks(pid).orElse(-1L),
                            p.info().startInstant().map(Instant::toEpochMilli).orElse(-1L)));
        }
    }

    /** Off Linux start instants are compared; they can differ by this much for one process between readers. */
    static final long START_INSTANT_TOLERANCE_MS = 1000;

    private final OwnerIdentity self;
    private final String selfRunId;
    private final ProcessTable processes;

    public LeftoverCheck(OwnerIdentity self, String selfRunId, ProcessTable processes) {
        this.self = Objects.requireNonNull(self);
        this.selfRunId = Objects.requireNonNull(selfRunId);
        this.processes = Objects.requireNonNull(processes);
    }

    /** The check as this process makes it, against this machine's process table. */
    public static LeftoverCheck forThisProcess() {
        return new LeftoverCheck(OwnerIdentity.current(), RunSession.runId(), ProcessTable.local());
    }

    public Verdict judge(Map<String, String> labels) {
        if (labels == null || !"true".equals(labels.get(RunSession.LABEL_MANAGED))) {
            return Verdict.keep("not labelled " + RunSession.LABEL_MANAGED + "=true: EnvBench did not create it");
        }
        if (selfRunId.equals(labels.get(RunSession.LABEL_RUN))) {
            return Verdict.keep("it belongs to this process's own run");
        }
        Optional<OwnerIdentity> named = OwnerIdentity.fromLabels(labels);
        if (named.isEmpty()) {
            return judgeByPidOnly(labels.get(RunSession.LABEL_OWNER_PID));
        }
        OwnerIdentity owner = named.get();
        if (self.hostname().isEmpty()
                || "unknown".equals(self.hostname())
                || !self.hostname().equals(owner.hostname())) {
            return Verdict.keepUnseen("its owner runs on host '" + owner.hostname() + "', not this one ('"
                    + self.hostname() + "'): a process elsewhere cannot be seen from here");
        }
        if (!self.machineId().equals(owner.machineId())) {
            return Verdict.keepUnseen("its owner's machine id '" + owner.machineId() + "' is not this host's ('"
                    + self.machineId() + "'): another machine");
        }
        if (!owner.bootId().isEmpty()
                && !self.bootId().isEmpty()
                && !owner.bootId().equals(self.bootId())) {
            return Verdict.reap("this host has rebooted since its owner (PID " + owner.pid() + ") started");
        }
        if (!self.pidNamespace().equals(owner.pidNamespace())) {
            return Verdict.keepUnseen("its owner (PID " + owner.pid() + ") runs in PID namespace "
                    + show(owner.pidNamespace()) + ", not this process's (" + show(self.pidNamespace())
                    + "), whose PIDs cannot be seen from here");
        }
        Optional<ProcessStart> found = processes.find(owner.pid());
        if (found.isEmpty()) {
            return Verdict.reap("its owner, PID " + owner.pid() + " on this host, is gone");
        }
        ProcessStart now = found.get();
        if (owner.startTicks() >= 0 && now.startTicks() >= 0) {
            return owner.startTicks() == now.startTicks()
                    ? Verdict.keep("its owner, PID " + owner.pid() + ", is alive")
                    : Verdict.reap("PID " + owner.pid() + " was reused: that process started at tick "
                            + now.startTicks() + " since boot, its owner at tick " + owner.startTicks());
        }
        if (owner.startedEpochMs() >= 0 && now.startedEpochMs() >= 0) {
            return Math.abs(owner.startedEpochMs() - now.startedEpochMs()) <= START_INSTANT_TOLERANCE_MS
                    ? Verdict.keep("its owner, PID " + owner.pid() + ", is alive")
                    : Verdict.reap("PID " + owner.pid() + " was reused: that process started at "
                            + Instant.ofEpochMilli(now.startedEpochMs()) + ", its owner at "
                            + Instant.ofEpochMilli(owner.startedEpochMs()));
        }
        return Verdict.keepUnseen(
                "PID " + owner.pid() + " is alive and its start time cannot be compared with the owner's");
    }

    /** Labels of EnvBench before owner identity: the PID alone, as it was judged then. */
    private Verdict judgeByPidOnly(String ownerPid) {
        long pid;
        try {
            pid = Long.parseLong(ownerPid == null ? "-1" : ownerPid);
        } catch (NumberFormatException e) {
            return Verdict.reap("it has no readable owner PID (" + ownerPid + ")");
        }
        return processes.find(pid).isEmpty()
                ? Verdict.reap("its owner PID " + pid + " is gone (older labels: PID only)")
                : Verdict.keep("a process with its owner PID " + pid
                        + " is alive (older labels without start time: the PID is trusted)");
    }

    private static String show(String namespace) {
        return namespace.isEmpty() ? "unknown" : namespace;
    }
}
