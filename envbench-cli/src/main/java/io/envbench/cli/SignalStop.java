package io.envbench.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.envbench.study.runner.ExperimentRun;

/**
 * A command's answer to Ctrl-C or SIGTERM while its run goes on: the run is cancelled (the load stopped, the
 * environment torn down, what was recorded kept), given {@link #WIND_DOWN_SECONDS} to wind down, closed if it did
 * not, and the JVM ends with {@link RunCommand#INTERRUPTED} whichever signal it was. Closing it ends the run and
 * takes the hook away.
 */
final class SignalStop implements AutoCloseable {
    static final long WIND_DOWN_SECONDS = 90;

    private final ExperimentRun run;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    SignalStop(ExperimentRun run, PrintStream out, PrintStream err) {
        this.run = run;
        this.hook = new Thread(
                () -> {
                    run.cancel();
                    try {
                        if (!finished.await(WIND_DOWN_SECONDS, TimeUnit.SECONDS)) {
                            run.close(); // the run did not wind down in time: at least nothing stays running
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    err.flush();
                    out.flush();
                    // the JVM would exit with 128 + the signal; CI should see "interrupted" whichever signal it was
                    Runtime.getRuntime().halt(RunCommand.INTERRUPTED);
                },
                "envbench-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void close() {
        run.close();
        finished.countDown();
        if (!run.cancelled()) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down already: the hook ends it
            }
        }
    }
}
