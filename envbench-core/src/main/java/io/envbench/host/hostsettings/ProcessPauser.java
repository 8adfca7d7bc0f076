package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import net.jcip.annotations.ThreadSafe;

/**
 * Pauses and resumes a host process; {@link #SIGNALS} with SIGSTOP and SIGCONT. Tests on a procfs fixture tree, whose
 * PIDs are not real processes, pass one that records instead. Implementations are thread-safe.
 */
@ThreadSafe
public interface ProcessPauser {
    void pause(long pid) throws IOException;

    void resume(long pid) throws IOException;

    /** SIGSTOP and SIGCONT, sent with {@code kill -s} (Java itself sends only SIGTERM and SIGKILL). */
    ProcessPauser SIGNALS = new ProcessPauser() {
        @Override
        public void pause(long pid) throws IOException {
            signal("STOP", pid);
        }

        @Override
        public void resume(long pid) throws IOException {
            signal("CONT", pid);
        }

        private void signal(String signal, long pid) throws IOException {
            Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            try {
                if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                    kill.destroyForcibly();
                    throw new IOException("kill -s " + signal + " " + pid + " did not return within 5 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while sending SIG" + signal + " to PID " + pid, e);
            }
            if (kill.exitValue() != 0) {
                String said = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                throw new IOException("could not send SIG" + signal + " to PID " + pid + ": " + said);
            }
        }
    };
}
