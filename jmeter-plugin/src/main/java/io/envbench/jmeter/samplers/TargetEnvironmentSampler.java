package io.envbench.jmeter.samplers;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.Seccomp;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.base.units.MemorySize;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.launch.docker.PodmanEngine;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts, stops or switches to a named environment: the same target as a host process or a container.
 * A start's elapsed time is start-to-ready. On success the endpoint is published as the JMeter
 * properties {@code envbench.host} / {@code envbench.port}, for HTTP samplers to use with {@code ${__P(envbench.host,127.0.0.1)}} and {@code ${__P(envbench.port,18080)}}.
 * When the test ends, every environment it started is stopped. An environment that died during the test
 * (OOM killer, crash, removed from outside) loses its endpoint properties at once, JMeter's log says
 * why, and the next stop of it fails with the reason.
 */
public class TargetEnvironmentSampler extends AbstractSampler implements TestBean, TestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(TargetEnvironmentSampler.class);

    public static final String ACTION_START = "start";
    public static final String ACTION_STOP = "stop";
    public static final String ACTION_SWITCH = "switch";

    private String action = ACTION_SWITCH;
    private String environment = "";
    private String target = "nginx-static";
    private String runtime = "docker";
    private String port = "18080";
    private String networkMode = "bridge";
    private String volumeType = "none";
    private String volumeSource = "";
    private String volumePath = "";
    private String cpuset = "";
    private String cpus = "";
    private String cpuShares = "";
    private String memory = "";
    private String seccomp = "";
    private String containerEnv = "";
    private String readyTimeoutSeconds = "";

    @Override
    public SampleResult sample(Entry e) {
        SampleResult r = SampleResults.started(getName(), action + " " + environment);
        String act = action == null ? "" : action.trim().toLowerCase(Locale.ROOT);
        long t0 = System.currentTimeMillis();
        try {
            switch (act) {
                case ACTION_START, ACTION_SWITCH -> {
                    // until it is up, and if it fails (even on a bad field), no request may go to an old address
                    EnvBenchProperties.forgetLatestEndpoint();
                    if (!blank(environment)) {
                        EnvBenchProperties.forgetEndpoint(environment.trim());
                    }
                    EnvironmentDefinition def = definition();
                    tagThread(def.name());
                    if (def.usesPodman()) { // Podman missing or its service down: said in this element's words
                        PodmanEngine.checkAvailable("runtime");
                    }
                    EnvironmentRegistry envs = JMeterEnvBench.environments();
                    RunningTarget t = act.equals(ACTION_START) ? envs.start(def) : envs.switchTo(def);
                    t.endpoint().ifPresent(ep -> EnvBenchProperties.publishEndpoint(def.name(), ep.host(), ep.port()));
                    JMeterEnvBench.startedByThisThreadGroup(def.name());
                    // elapsed is start-to-ready of the target, not our bookkeeping around it
                    SampleResults.okWithElapsed(
                            r,
                            t0,
                            t.startToReady().toMillis(),
                            t.describe(),
                            "environment " + def + "\n" + t.describe() + "\nstart-to-ready "
                                    + t.startToReady().toMillis() + " ms\n");
                }
                case ACTION_STOP -> {
                    String name = requiredName();
                    tagThread(name);
                    EnvironmentRegistry envs = JMeterEnvBench.environments();
                    boolean was = envs.stop(name); // its endpoint is forgotten when it stops
                    var died = was ? Optional.<String>empty() : JMeterEnvBench.death(name);
                    if (died.isPresent()) { // the load it carried failed: this sample says why
                        fail(r, t0, died.get());
                    } else {
                        SampleResults.ok(r, t0, was ? "stopped " + name : name + " was not running");
                    }
                }
                default ->
                    throw new InvalidSettingException(
                            "action", "'" + action + "' is not an action; use start, stop or switch");
            }
        } catch (InvalidSettingException | TargetStartException ex) {
            fail(r, t0, ex.getMessage());
        } catch (RuntimeException ex) {
            log.error("EnvBench {} {} failed", action, environment, ex);
            fail(r, t0, ex.toString());
        }
        return r;
    }

    private static void fail(SampleResult r, long t0, String message) {
        SampleResults.fail(r, t0, message);
        log.warn("EnvBench: {}", message);
    }

    /** This thread's own sample carries the environment it acted on. */
    private static void tagThread(String name) {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            vars.put(EnvBenchProperties.ENV_VARIABLE, name);
        }
    }

    private String requiredName() {
        String n = environment == null ? "" : environment.trim();
        if (n.isEmpty()) {
            throw new InvalidSettingException("environment", "is empty; name the environment, e.g. docker-bridge");
        }
        return n;
    }

    /** The environment these fields describe; every field is checked, with a message naming it. */
    EnvironmentDefinition definition() {
        EnvironmentDefinition.Placement rt = EnvironmentDefinition.Placement.parse("runtime", runtime);
        ContainerOptions.Builder o =
                ContainerOptions.builder().networkMode(NetworkMode.parse("networkMode", networkMode));
        VolumeMount.Kind vk = VolumeMount.parseKind("volumeType", volumeType);
        o.volume(vk == VolumeMount.Kind.NONE ? VolumeMount.NONE : new VolumeMount(vk, volumeSource, volumePath));
        if (!blank(cpuset)) {
            o.cpuset(CpuSet.parseForHost("cpuset", cpuset));
        }
        if (!blank(cpus)) {
            o.cpus(parseDouble("cpus", cpus, "a number of cores, e.g. 0.5"));
        }
        if (!blank(cpuShares)) {
            o.cpuShares(parseInt("cpuShares", cpuShares, "a relative weight, e.g. 512"));
        }
        if (!blank(memory)) {
            o.memoryBytes(MemorySize.parseContainerLimit("memory", memory));
        }
        o.seccomp(Seccomp.parse("seccomp", seccomp));
        containerEnvironment(containerEnv).forEach(o::env);
        Duration timeout = blank(readyTimeoutSeconds)
                ? EnvBenchProperties.defaultReadyTimeout()
                : seconds("readyTimeoutSeconds", readyTimeoutSeconds, "seconds, e.g. 60");
        int p = parseInt("port", port, "a TCP port on 127.0.0.1, e.g. 18080");
        return new EnvironmentDefinition(
                requiredName(), target == null ? "" : target.trim(), rt, o.build(), p, timeout);
    }

    /** A variable name as a shell takes it: a letter or underscore first, then letters, digits and underscores. */
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * The field "Environment variables": {@code NAME=VALUE} pairs separated by {@code ;} (e.g.
     * {@code DB_NAME=daytrader_tenant_1;DB_USER=daytrader_tenant_1}), set in the container; in order, a later one of a
     * name wins. A value may hold {@code =} but not {@code ;}.
     */
    static Map<String, String> containerEnvironment(String text) {
        Map<String, String> env = new LinkedHashMap<>();
        if (blank(text)) {
            return env;
        }
        for (String pair : text.split(";")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair.trim() : pair.substring(0, eq).trim();
            if (eq < 0 || !ENV_NAME.matcher(name).matches()) {
                throw new InvalidSettingException(
                        "containerEnv",
                        "'" + pair.trim() + "' is not NAME=VALUE"
                                + (eq < 0 ? "" : " with a name of " + "letters, digits and _")
                                + "; give pairs separated by ;, e.g. DB_NAME=daytrader_tenant_1;DB_USER=daytrader_tenant_1");
            }
            env.put(name, pair.substring(eq + 1).trim());
        }
        return env;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** A whole number that fits an int: beyond it is refused, never wrapped round ((int) 4294985376L is 18080). */
    private static int parseInt(String field, String text, String expected) {
        String t = text == null ? "" : text.trim();
        try {
            return Integer.parseInt(t);
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(
                    field,
                    "'" + text + "' is " + (t.matches("[+-]?\\d+") ? "too large" : "not a whole number") + "; give "
                            + expected);
        }
    }

    private static double parseDouble(String field, String text, String expected) {
        double v;
        try {
            v = Double.parseDouble(text.trim());
        } catch (RuntimeException e) {
            throw new InvalidSettingException(field, "'" + text + "' is not a number; give " + expected);
        }
        if (!Double.isFinite(v)) {
            throw new InvalidSettingException(field, "'" + text + "' is not a finite number; give " + expected);
        }
        return v;
    }

    /** Seconds as a Duration; the definition refuses a zero, negative or over-long one with its own message. */
    private static Duration seconds(String field, String text, String expected) {
        double s = parseDouble(field, text, expected);
        if (Math.abs(s) > EnvironmentDefinition.MAX_READY_TIMEOUT.toSeconds()) {
            throw new InvalidSettingException(
                    field,
                    "'" + text.trim() + "' is above a day (" + EnvironmentDefinition.MAX_READY_TIMEOUT.toSeconds()
                            + " s); give " + expected);
        }
        return Duration.ofMillis(Math.round(1000 * s));
    }

    @Override
    public void testStarted() {
        // nothing: environments start when the sampler runs
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        JMeterEnvBench.testEnded();
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    // bean properties (TestBean): one getter/setter pair per GUI field
    public String getAction() {
        return action;
    }

    public void setAction(String action) {
        this.action = action;
    }

    public String getEnvironment() {
        return environment;
    }

    public void setEnvironment(String environment) {
        this.environment = environment;
    }

    public String getTarget() {
        return target;
    }

    public void setTarget(String target) {
        this.target = target;
    }

    public String getRuntime() {
        return runtime;
    }

    public void setRuntime(String runtime) {
        this.runtime = runtime;
    }

    public String getPort() {
        return port;
    }

    public void setPort(String port) {
        this.port = port;
    }

    public String getNetworkMode() {
        return networkMode;
    }

    public void setNetworkMode(String networkMode) {
        this.networkMode = networkMode;
    }

    public String getVolumeType() {
        return volumeType;
    }

    public void setVolumeType(String volumeType) {
        this.volumeType = volumeType;
    }

    public String getVolumeSource() {
        return volumeSource;
    }

    public void setVolumeSource(String volumeSource) {
        this.volumeSource = volumeSource;
    }

    public String getVolumePath() {
        return volumePath;
    }

    public void setVolumePath(String volumePath) {
        this.volumePath = volumePath;
    }

    public String getCpuset() {
        return cpuset;
    }

    public void setCpuset(String cpuset) {
        this.cpuset = cpuset;
    }

    public String getCpus() {
        return cpus;
    }

    public void setCpus(String cpus) {
        this.cpus = cpus;
    }

    public String getCpuShares() {
        return cpuShares;
    }

    public void setCpuShares(String cpuShares) {
        this.cpuShares = cpuShares;
    }

    public String getMemory() {
        return memory;
    }

    public void setMemory(String memory) {
        this.memory = memory;
    }

    public String getSeccomp() {
        return seccomp;
    }

    public void setSeccomp(String seccomp) {
        this.seccomp = seccomp;
    }

    public String getContainerEnv() {
        return containerEnv;
    }

    public void setContainerEnv(String containerEnv) {
        this.containerEnv = containerEnv;
    }

    public String getReadyTimeoutSeconds() {
        return readyTimeoutSeconds;
    }

    public void setReadyTimeoutSeconds(String readyTimeoutSeconds) {
        this.readyTimeoutSeconds = readyTimeoutSeconds;
    }
}
