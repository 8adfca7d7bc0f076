package io.envbench.jmeter.samplers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.MemorySize;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.study.bonnie.BonnieCsv;
import io.envbench.study.bonnie.BonnieFigure;
import io.envbench.study.command.CommandInPlace;
import io.envbench.study.command.CommandOutputCheck;
import io.envbench.study.command.CommandRun;
import io.envbench.study.experiment.ClientPlace;
import io.envbench.study.experiment.CommandLoad;
import io.envbench.study.experiment.CommandOutput;
import io.envbench.study.psql.PsqlTimes;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a program once in a running environment's place, or beside it, as {@code envbench run}'s command loads do
 * (core's {@link CommandInPlace}): study 002's (docs/studies.md#study-002) psql on the host, inside PostgreSQL's
 * container, in a second container or against the published port; study 003's (docs/studies.md#study-003) bonnie++ on
 * each storage. The environment is one an EnvBench Target Environment sampler started (blank: the one this thread group
 * started). The sample's elapsed time is the program's run, its response code the exit code, its response data the
 * program's standard output; it fails when the program fails, runs out of time, or prints no result its output format
 * reads. A psql-time result adds one sub-sample per timed phase ({@code LABEL insert}: elapsed = the phase's wall-clock
 * time, as the study timed it; user and sys CPU in its message), so JMeter's Aggregate Report shows each phase per
 * environment.
 */
public class CommandSampler extends AbstractSampler implements TestBean, Interruptible {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(CommandSampler.class);
    /** Where a bare run's transient memory cgroup goes. */
    private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");

    private String environment = "";
    private String command = "";
    private String client = "inside";
    private String output = "psql-time";
    private String expectedSeconds = "60";
    private String bareMemory = "";
    private transient AtomicReference<CommandRun> running = new AtomicReference<>();

    @Override
    public SampleResult sample(Entry e) {
        SampleResult r = SampleResults.started(getName(), client + ": " + command);
        long t0 = System.currentTimeMillis();
        try {
            CommandLoad load = load(); // every field checked before anything runs
            ClientPlace place = ClientPlace.parse("client", client);
            String name = environmentName();
            r.setSamplerData(name + " (client " + client.trim() + "): " + command.trim());
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            if (vars != null) {
                vars.put(EnvBenchProperties.ENV_VARIABLE, name); // its metrics and tags go to this environment
            }
            EnvironmentRegistry envs = JMeterEnvBench.environments();
            RunningTarget target = envs.running(name)
                    .orElseThrow(() -> new InvalidSettingException(
                            "environment",
                            "'" + name
                                    + "' is not running"
                                    + envs.whyDown(name)
                                            .map(w -> " (it died: " + w + ")")
                                            .orElse("")
                                    + "; start it first with an EnvBench Target Environment sampler"));
            EnvironmentDefinition def = envs.definition(name)
                    .orElseThrow(() -> new InvalidSettingException(
                            "environment", "'" + name + "' stopped while the command started; start it again"));
            Path out = Files.createTempFile("envbench-command-", ".out");
            Path err = Files.createTempFile("envbench-command-", ".err");
            try {
                CommandRun run = new CommandRun(load, out, err);
                running().set(run);
                CommandRun.Result result;
                try {
                    result = CommandInPlace.run(
                            run,
                            def,
                            place,
                            target,
                            envs.targetsDir(),
                            envs.docker(),
                            CGROUP_ROOT,
                            line -> log.info("EnvBench command in {}: {}", name, line));
                } finally {
                    running().set(null);
                }
                fill(
                        r,
                        t0,
                        load,
                        result,
                        Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (InvalidSettingException | TargetStartException ex) {
            SampleResults.fail(r, t0, ex.getMessage());
            log.warn("EnvBench command: {}", ex.getMessage());
        } catch (IOException | RuntimeException ex) {
            log.error("EnvBench command {} in {} failed", command, environment, ex);
            SampleResults.fail(r, t0, ex.toString());
        }
        return r;
    }

    /** The result: elapsed = the program's run, code = its exit code, data = its output; sub-samples per psql phase. */
    private void fill(
            SampleResult r, long t0, CommandLoad load, CommandRun.Result result, String stdout, String stderr) {
        r.setStampAndTime(t0, result.elapsed().toMillis());
        r.setResponseCode(Integer.toString(result.exitCode()));
        r.setResponseData(
                stdout + (stderr.isBlank() ? "" : "\n--- standard error ---\n" + stderr),
                StandardCharsets.UTF_8.name());
        if (result.cancelled()) {
            failWith(r, "stopped with the test");
            return;
        }
        if (result.timedOut()) {
            failWith(
                    r,
                    "did not finish within " + load.deadline().toSeconds() + " s (expected "
                            + load.duration().toSeconds() + " s plus " + CommandLoad.GRACE.toSeconds()
                            + " s); raise Expected seconds");
            return;
        }
        if (result.exitCode() != 0) {
            failWith(r, "exited with " + result.exitCode() + (stderr.isBlank() ? "" : ": " + lastLine(stderr)));
            return;
        }
        try {
            CommandOutputCheck.check(load.output(), stdout);
        } catch (IllegalArgumentException ex) {
            failWith(r, ex.getMessage());
            return;
        }
        r.setSuccessful(true);
        r.setResponseMessage(summary(load.output(), stdout));
        if (load.output() == CommandOutput.PSQL_TIME) {
            long start = t0;
            for (PsqlTimes.Phase p : PsqlTimes.find(stdout).phases().values()) {
                SampleResult sub = SampleResults.started(
                        getName() + " " + p.name(), p.name() + ": " + p.statements() + " statements");
                long ms = Math.round(p.elapsedSeconds() * 1000);
                sub.setStampAndTime(start, ms);
                start += ms;
                sub.setResponseCodeOK();
                sub.setSuccessful(true);
                sub.setResponseMessage(phase(p));
                sub.setResponseData(phase(p), StandardCharsets.UTF_8.name());
                r.storeSubResult(sub, false); // its own label (addSubResult would rename it LABEL-0)
            }
        }
    }

    private static void failWith(SampleResult r, String message) {
        r.setSuccessful(false);
        r.setResponseMessage(message);
        log.warn("EnvBench command: {}", message);
    }

    private static String summary(CommandOutput format, String stdout) {
        return switch (format) {
            case PSQL_TIME ->
                String.join(
                        "; ",
                        PsqlTimes.find(stdout).phases().values().stream()
                                .map(CommandSampler::phase)
                                .toList());
            case BONNIE_CSV -> {
                BonnieCsv csv = BonnieCsv.find(stdout);
                StringBuilder s = new StringBuilder("bonnie++ " + csv.fileSize());
                for (BonnieFigure f : new BonnieFigure[] {
                    BonnieFigure.BLOCK_WRITE, BonnieFigure.REWRITE, BonnieFigure.BLOCK_READ, BonnieFigure.RANDOM_SEEKS
                }) {
                    s.append(", ")
                            .append(f.title())
                            .append(' ')
                            .append(csv.figure(f).stream()
                                    .mapToObj(v -> String.format(Locale.ROOT, "%.0f %s", v, f.unit()))
                                    .findFirst()
                                    .orElse(csv.unmeasured().getOrDefault(f, "-")));
                }
                yield s.toString();
            }
        };
    }

    private static String phase(PsqlTimes.Phase p) {
        return String.format(
                Locale.ROOT,
                "%s: %d statements, elapsed %.3f s, user %.3f s, sys %.3f s",
                p.name(),
                p.statements(),
                p.elapsedSeconds(),
                p.userSeconds(),
                p.sysSeconds());
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }

    /** The named environment, or this thread group's. */
    private String environmentName() {
        String n = environment == null ? "" : environment.trim();
        if (!n.isEmpty()) {
            return n;
        }
        return JMeterEnvBench.environmentOfThisThreadGroup()
                .orElseThrow(() -> new InvalidSettingException(
                        "environment",
                        "is empty " + "and this thread group started no environment; name one, e.g. same-container"));
    }

    /** The fields as a command load; each bad field named. */
    CommandLoad load() {
        long seconds;
        try {
            seconds = Long.parseLong(expectedSeconds == null ? "" : expectedSeconds.trim());
        } catch (NumberFormatException ex) {
            throw new InvalidSettingException(
                    "expectedSeconds",
                    "'" + expectedSeconds + "' is not a number of seconds; give how long one " + "run takes, e.g. 60");
        }
        if (seconds < 1 || seconds > 86_400) {
            throw new InvalidSettingException(
                    "expectedSeconds", seconds + " is outside 1 to 86400 s; give how long one run takes, e.g. 60");
        }
        OptionalLong memory = bareMemory == null || bareMemory.isBlank()
                ? OptionalLong.empty()
                : OptionalLong.of(MemorySize.parseBytes("bareMemory", bareMemory.trim()));
        List<String> words = CommandLoad.words(command);
        if (words.isEmpty()) {
            throw new InvalidSettingException(
                    "command", "is empty; give the program and its arguments, e.g. ./psql-latency.sh 1000 10000");
        }
        return new CommandLoad(words, CommandOutput.parse("output", output), memory, Duration.ofSeconds(seconds));
    }

    private AtomicReference<CommandRun> running() {
        if (running == null) { // after deserialization (JMeter clones test elements)
            running = new AtomicReference<>();
        }
        return running;
    }

    /** JMeter's Stop: ends the program's wait (the environment's stop ends a program in a container). */
    @Override
    public boolean interrupt() {
        Optional.ofNullable(running().get()).ifPresent(CommandRun::cancel);
        return true;
    }

    public String getEnvironment() {
        return environment;
    }

    public void setEnvironment(String environment) {
        this.environment = environment;
    }

    public String getCommand() {
        return command;
    }

    public void setCommand(String command) {
        this.command = command;
    }

    public String getClient() {
        return client;
    }

    public void setClient(String client) {
        this.client = client;
    }

    public String getOutput() {
        return output;
    }

    public void setOutput(String output) {
        this.output = output;
    }

    public String getExpectedSeconds() {
        return expectedSeconds;
    }

    public void setExpectedSeconds(String expectedSeconds) {
        this.expectedSeconds = expectedSeconds;
    }

    public String getBareMemory() {
        return bareMemory;
    }

    public void setBareMemory(String bareMemory) {
        this.bareMemory = bareMemory;
    }
}
