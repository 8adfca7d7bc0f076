package io.envbench.study.runner;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.envbench.base.process.OwnSession;
import io.envbench.launch.bare.BareMetalLauncher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A headless JMeter the runner started, and the one way it is stopped early: JMeter's own {@code StopTestNow}
 * message (what its {@code stoptest.sh} sends) on a UDP port of its own on loopback, so JMeter stops its threads,
 * tells its remote engines to stop theirs, closes its JTL and exits. It runs in a session of its own
 * ({@link OwnSession}): a Ctrl-C reaches the runner, which stops it this way, rather than killing the controlling
 * JMeter and leaving remote engines loading until their test's end. If JMeter has not exited {@link #STOP_GRACE}
 * after the message, it gets SIGTERM, and SIGKILL {@link #KILL_AFTER} later. One started ahead of its run waits at its
 * {@link JMeterStartGate}: {@link #open} starts its test, {@link #abandon} ends it without one.
 */
final class RunningJMeter {
    private static final Logger log = LoggerFactory.getLogger(RunningJMeter.class);
    /** How long JMeter may take to stop its test (and its engines') after {@code StopTestNow}. */
    static final Duration STOP_GRACE = Duration.ofSeconds(15);
    /** After SIGTERM, how long until SIGKILL. */
    static final Duration KILL_AFTER = Duration.ofSeconds(10);
    /** JMeter's properties of the port its non-GUI mode listens on for Shutdown / StopTestNow. */
    static final String PORT_PROPERTY = "jmeterengine.nongui.port";

    static final String MAX_PORT_PROPERTY = "jmeterengine.nongui.maxport";

    private final Process process;
    private final int stopPort;
    private volatile boolean stopAsked;

    private RunningJMeter(Process process, int stopPort) {
        this.process = process;
        this.stopPort = stopPort;
    }

    /** Starts {@code command} (a JMeter command line, {@link JMeterInstall}) from {@code folder}, its output merged. */
    static RunningJMeter start(List<String> command, Path folder) throws IOException {
        int port = freeLoopbackUdpPort();
        List<String> cmd = new ArrayList<>(command);
        cmd.add("-J" + PORT_PROPERTY + "=" + port);
        cmd.add("-J" + MAX_PORT_PROPERTY + "=" + port);
        Process p = new ProcessBuilder(OwnSession.command(cmd))
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .start();
        // in a session of its own, no signal of a killed runner reaches it: the reaper stops it instead
        new BareMetalLauncher().watch("jmeter", p);
        return new RunningJMeter(p, port);
    }

    Process process() {
        return process;
    }

    /**
     * Opens the start gate of a JMeter started ahead: {@code properties} become JMeter properties (as {@code -J} would
     * have made them) and its thread groups start.
     *
     * @throws IOException JMeter is gone (it could not start; its log says why)
     */
    void open(Map<String, String> properties) throws IOException {
        try (Writer w = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
            JMeterStartGate.open(w, properties);
        }
    }

    /** A JMeter whose run will not happen: its start gate closed, so it exits without a test; ended if it lingers. */
    void abandon() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            log.debug("JMeter's standard input: {}", e.toString());
        }
        stopAsked = true;
        killIfAlive(STOP_GRACE);
    }

    /** The UDP port on loopback JMeter listens on for {@code StopTestNow}. */
    int stopPort() {
        return stopPort;
    }

    /** Whether {@link #stop} was called. */
    boolean stopAsked() {
        return stopAsked;
    }

    /**
     * Asks JMeter to stop its test now and returns at once; SIGTERM follows {@link #STOP_GRACE} later if it still
     * runs, SIGKILL {@link #KILL_AFTER} after that. Safe to call twice and after JMeter ended.
     */
    void stop(String why) {
        if (!process.isAlive() || stopAsked) {
            return;
        }
        stopAsked = true;
        log.info("stopping JMeter (PID {}): {}", process.pid(), why);
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            byte[] m = "StopTestNow".getBytes(StandardCharsets.US_ASCII);
            s.send(new DatagramPacket(m, m.length, InetAddress.getLoopbackAddress(), stopPort));
        } catch (IOException e) {
            log.warn(
                    "could not send StopTestNow to JMeter on 127.0.0.1:{}: {}; terminating it", stopPort, e.toString());
            process.destroy();
        }
        CompletableFuture.runAsync(
                        () -> {
                            if (process.isAlive()) {
                                log.warn(
                                        "JMeter did not stop its test within {} s of StopTestNow; terminating it",
                                        STOP_GRACE.toSeconds());
                                process.destroy();
                            }
                        },
                        CompletableFuture.delayedExecutor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS))
                .thenRun(() -> killIfAlive(KILL_AFTER));
    }

    /** SIGKILL {@code after} from now, if it still runs then. */
    private void killIfAlive(Duration after) {
        CompletableFuture.runAsync(
                () -> {
                    if (process.isAlive()) {
                        process.destroyForcibly();
                    }
                },
                CompletableFuture.delayedExecutor(after.toMillis(), TimeUnit.MILLISECONDS));
    }

    private static int freeLoopbackUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
