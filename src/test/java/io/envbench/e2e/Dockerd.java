package io.envbench.e2e;

import java.io.File;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real Docker daemon of this machine, for fault tests: frozen (SIGSTOP) and thawed, stopped (SIGTERM) and
 * started again the way {@code ./envbench setup} starts it ({@code nohup dockerd}, in a session of its own, its log
 * appended to {@code ENVBENCH_DOCKERD_LOG} or {@code /var/log/envbench-dockerd.log}), with the same arguments it had.
 * {@link #restore()} (call it in a finally block) leaves it running and answering whatever the test did: other tests
 * depend on it.
 */
final class Dockerd {
    static final Path PID_FILE = Path.of("/var/run/docker.pid");

    private final long pid;
    private final List<String> argv;
    private boolean frozen;
    private boolean terminated;

    private Dockerd(long pid, List<String> argv) {
        this.pid = pid;
        this.argv = argv;
    }

    /** The daemon running now, from {@code /var/run/docker.pid}. */
    static Dockerd running() throws IOException {
        long pid = Long.parseLong(Files.readString(PID_FILE).strip());
        String cmdline = Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.UTF_8);
        List<String> argv = new ArrayList<>(Arrays.asList(cmdline.split("\0")));
        argv.removeIf(String::isEmpty);
        if (argv.isEmpty() || !argv.get(0).endsWith("dockerd")) {
            throw new IOException(PID_FILE + " names PID " + pid + ", which is not dockerd: " + argv);
        }
        return new Dockerd(pid, argv);
    }

    long pid() {
        return pid;
    }

    void freeze() throws Exception {
        signal("STOP");
        frozen = true;
    }

    void thaw() throws Exception {
        signal("CONT");
        frozen = false;
    }

    /** SIGTERM, as a service manager stops it; does not wait. */
    void terminate() throws Exception {
        terminated = true;
        signal("TERM");
    }

    /** Waits for the process to be gone; false when it is still there after {@code seconds}. */
    boolean awaitExit(long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                Thread.sleep(50);
            } else {
                return true;
            }
        }
        return false;
    }

    /** Starts the daemon again as {@code ./envbench setup} does, and waits until it answers; the time it took, ms. */
    long startAgain() throws Exception {
        terminated = false;
        long t0 = System.nanoTime();
        String logFile = System.getenv().getOrDefault("ENVBENCH_DOCKERD_LOG", "/var/log/envbench-dockerd.log");
        List<String> cmd = new ArrayList<>(List.of("setsid", "nohup"));
        cmd.addAll(argv);
        // Java closes every descriptor above 2 in the child: it inherits no lock of ours
        new ProcessBuilder(cmd)
                .redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(new File(logFile)))
                .redirectErrorStream(true)
                .start();
        awaitAnswer(60);
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Leaves the daemon running and answering: thawed when frozen, started again when gone (after a stop finished). */
    void restore() throws Exception {
        if (frozen) {
            thaw();
        }
        if (terminated) { // a daemon on its way out may still answer a ping: wait for its end
            awaitExit(60);
        } else if (answers()) {
            return;
        }
        awaitExit(60); // a stop in progress ends first: two daemons cannot share the pid file
        if (!answers()) {
            startAgain();
        }
    }

    /**
     * Whether the daemon answers a ping within 2 s, asked over a fresh connection of its own (raw HTTP on the socket),
     * so no cached client of the library under test decides it.
     */
    static boolean answers() {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of("/var/run/docker.sock"))) {
            ch.write(
                    ByteBuffer.wrap("GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            ch.configureBlocking(false);
            ByteBuffer in = ByteBuffer.allocate(512);
            try (Selector sel = Selector.open()) {
                ch.register(sel, SelectionKey.OP_READ);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (System.nanoTime() < deadline && in.position() < 12) {
                    sel.select(200);
                    if (ch.read(in) < 0) {
                        break;
                    }
                }
            }
            String head = new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII);
            return head.startsWith("HTTP/1.0 200") || head.startsWith("HTTP/1.1 200");
        } catch (IOException e) {
            return false;
        }
    }

    static void awaitAnswer(long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!answers()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "the Docker daemon did not answer within " + seconds + " s; start it with ./envbench setup");
            }
            Thread.sleep(200);
        }
    }

    private void signal(String name) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                .inheritIO()
                .start();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + pid + " failed");
        }
    }
}
