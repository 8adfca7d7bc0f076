package io.envbench.study.steering;

/** What {@link InterruptSteering} does when irqbalance runs. */
public enum IrqBalancePolicy {
    /**
     * Refuse to steer, saying so: the user stops irqbalance (e.g. {@code systemctl stop irqbalance}) or chooses
     * {@link #PAUSE}. The default: EnvBench does not touch a system daemon unless asked.
     */
    REFUSE,
    /**
     * Pause irqbalance (SIGSTOP) for the run, written down in the journal first, and resume it (SIGCONT) when the
     * journal is put back: at the end, on cancel, or by the reaper after a crash. Its process and configuration stay
     * as they were; only its rebalancing waits.
     */
    PAUSE
}
