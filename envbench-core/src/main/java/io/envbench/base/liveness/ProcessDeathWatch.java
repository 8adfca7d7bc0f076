package io.envbench.base.liveness;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A host process's death, from {@link Process#onExit()} of the process EnvBench launched: the JDK's process
 * reaper already waits for every child in {@code waitpid}, so this adds no polling and no thread while it
 * runs, and hears of the exit at once (a poll could not do better than its interval).
 * Reason: {@code process exited with code N}, with the signal named when the code says one killed it.
 */
public final class ProcessDeathWatch implements DeathWatch {
    private final CompletableFuture<Void> told;

    private ProcessDeathWatch(CompletableFuture<Void> told) {
        this.told = told;
    }

    /** @param onDeath called once, on a thread of its own (not the JDK's reaper), with the reason, unless closed first */
    public static ProcessDeathWatch start(Process process, Consumer<String> onDeath) {
        return new ProcessDeathWatch(process.onExit()
                .thenAcceptAsync(p -> onDeath.accept(reason(p.exitValue())), task -> {
                    Thread t = new Thread(task, "envbench-death-" + process.pid());
                    t.setDaemon(true);
                    t.start();
                }));
    }

    /** {@code process exited with code 137 (killed by signal 9, SIGKILL)}. */
    public static String reason(int exitCode) {
        return "process exited with code " + exitCode + signalOf(exitCode);
    }

    /** A shell's and Java's way to say a signal ended a process: 128 + the signal's number. */
    public static String signalOf(int exitCode) {
        return switch (exitCode) {
            case 137 -> " (killed by signal 9, SIGKILL)";
            case 143 -> " (killed by signal 15, SIGTERM)";
            case 134 -> " (killed by signal 6, SIGABRT)";
            case 139 -> " (killed by signal 11, SIGSEGV)";
            default -> "";
        };
    }

    @Override
    public void close() {
        told.cancel(false); // a dependent stage cancelled before the exit never runs its action
    }
}
