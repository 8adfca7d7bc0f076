package io.envbench.study.command;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.host.cgroup.TransientMemoryCgroup;
import io.envbench.study.experiment.ClientPlace;
import io.envbench.study.experiment.CommandLoad;

/**
 * Runs a {@link CommandLoad} once in a started environment's place: inside its container ({@code docker exec}, so
 * the container's layer, volume, memory limit and cgroup counters apply), or on the host from the recipe's folder
 * with its {@code bare.env} (in a {@link TransientMemoryCgroup} when the load sets {@code bareMemory}). Standard
 * output goes to one file (the result), standard error to another. One run per instance; {@link #cancel()} from
 * another thread ends the wait (the environment's stop then ends a command in a container).
 */
public final class CommandRun {
    /** How a run ended. */
    public record Result(int exitCode, boolean timedOut, boolean cancelled, Duration elapsed) {
        public boolean ok() {
            return exitCode == 0 && !timedOut && !cancelled;
        }
    }

    /** Set for the command to the environment's name (bonnie.sh writes it into bonnie++'s CSV as the machine name). */
    public static final String ENVIRONMENT_VARIABLE = "ENVBENCH_ENVIRONMENT";
    /** Set, when the target has a port, to where the command reaches it from its place ({@link ClientPlace}). */
    public static final String TARGET_HOST_VARIABLE = "ENVBENCH_TARGET_HOST";
    /** The port at {@link #TARGET_HOST_VARIABLE}. */
    public static final String TARGET_PORT_VARIABLE = "ENVBENCH_TARGET_PORT";

    private final CommandLoad load;
    private final Path stdout;
    private final Path stderr;
    private volatile boolean cancelled;
    private final AtomicReference<Process> process = new AtomicReference<>();
    private final AtomicReference<ResultCallback.Adapter<Frame>> exec = new AtomicReference<>();

    public CommandRun(CommandLoad load, Path stdout, Path stderr) {
        this.load = load;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public void cancel() {
        cancelled = true;
        Process p = process.get();
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        ResultCallback.Adapter<Frame> e = exec.get();
        if (e != null) {
            try {
                e.close();
            } catch (IOException ignored) {
                // the stream is gone either way
            }
        }
    }

    /**
     * In the container {@code target} runs in.
     *
     * @param docker a client of the daemon that runs it
     */
    public Result inContainer(DockerClient docker, RunningTarget target) throws IOException {
        String id = target.containerId()
                .orElseThrow(() -> new IllegalArgumentException(target.environment() + " is not a container"));
        return inContainer(docker, id, target.environment(), Map.of());
    }

    /**
     * In a running container (the target's, or a {@link ClientContainer}), with these variables besides
     * {@link #ENVIRONMENT_VARIABLE}.
     */
    public Result inContainer(DockerClient docker, String id, String environment, Map<String, String> variables)
            throws IOException {
        long t0 = System.nanoTime();
        List<String> env = new ArrayList<>(List.of(ENVIRONMENT_VARIABLE + "=" + environment));
        variables.forEach((k, v) -> env.add(k + "=" + v));
        String execId = docker.execCreateCmd(id)
                .withCmd(load.command().toArray(new String[0]))
                .withEnv(env)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        boolean finished;
        try (OutputStream out = Files.newOutputStream(stdout);
                OutputStream err = Files.newOutputStream(stderr)) {
            ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
                @Override
                public void onNext(Frame f) {
                    try {
                        (f.getStreamType() == StreamType.STDERR ? err : out).write(f.getPayload());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            exec.set(callback);
            if (cancelled) {
                return new Result(-1, false, true, elapsed(t0));
            }
            docker.execStartCmd(execId).exec(callback);
            try {
                finished = callback.awaitCompletion(load.deadline().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result(-1, false, true, elapsed(t0));
            } finally {
                exec.set(null);
            }
        }
        if (cancelled) {
            return new Result(-1, false, true, elapsed(t0));
        }
        if (!finished) {
            return new Result(
                    -1,
                    true,
                    false,
                    elapsed(t0)); // the environment's stop removes the container and the command with it
        }
        Long code = docker.inspectExecCmd(execId).exec().getExitCodeLong();
        return new Result(code == null ? -1 : code.intValue(), false, false, elapsed(t0));
    }

    /**
     * On the host, as the recipe's bare-metal command runs: from its folder, with its environment variables.
     *
     * @param recipe     the environment's resolved bare-metal target (folder and {@code bare.env})
     * @param cgroupRoot where the transient memory cgroup goes (usually {@code /sys/fs/cgroup})
     */
    public Result onHost(BareMetalTarget recipe, String environment, Path cgroupRoot) throws IOException {
        return onHost(recipe, environment, Map.of(), cgroupRoot);
    }

    /** On the host, as {@link #onHost(BareMetalTarget, String, Path)}, with these variables besides the recipe's. */
    public Result onHost(BareMetalTarget recipe, String environment, Map<String, String> variables, Path cgroupRoot)
            throws IOException {
        long t0 = System.nanoTime();
        OptionalLong memory = load.bareMemoryBytes();
        TransientMemoryCgroup cgroup = memory.isPresent()
                ? TransientMemoryCgroup.create(
                        cgroupRoot, "envbench-" + RunSession.runId() + "-" + environment, memory.getAsLong())
                : null;
        try {
            List<String> command = cgroup == null ? load.command() : cgroup.wrap(load.command());
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(recipe.workDir().toFile())
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            pb.environment().putAll(recipe.env());
            pb.environment().putAll(variables);
            pb.environment().put(ENVIRONMENT_VARIABLE, environment);
            if (cancelled) {
                return new Result(-1, false, true, elapsed(t0));
            }
            Process p = pb.start();
            process.set(p);
            if (cancelled) {
                cancel();
            }
            boolean ended;
            try {
                ended = p.waitFor(load.deadline().toMillis(), TimeUnit.MILLISECONDS);
                if (!ended) {
                    stop(p);
                    return new Result(-1, true, false, elapsed(t0));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop(p);
                return new Result(-1, false, true, elapsed(t0));
            } finally {
                process.set(null);
            }
            return new Result(p.exitValue(), false, cancelled, elapsed(t0));
        } finally {
            if (cgroup != null) {
                cgroup.close();
            }
        }
    }

    /** SIGTERM to the command and its children (its own cleanup runs), SIGKILL after 10 s. */
    private static void stop(Process p) throws IOException {
        List<ProcessHandle> tree = p.descendants().toList();
        tree.forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                tree.forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tree.forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private static Duration elapsed(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
