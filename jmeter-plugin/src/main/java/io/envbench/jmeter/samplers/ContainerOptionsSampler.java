package io.envbench.jmeter.samplers;

import java.util.Locale;

import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.control.registry.ContainerUpdate;
import io.envbench.jmeter.JMeterEnvBench;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;

/**
 * Changes a running container: cpuset, CPU quota, memory limit ({@code docker update}), pause or unpause.
 * The container is an environment started by EnvBench (by name), or a container EnvBench started (by name or id);
 * any other container only when "Allow containers EnvBench did not start" is ticked.
 * Success or failure, with the reason, is the sample's result.
 */
public class ContainerOptionsSampler extends AbstractSampler implements TestBean {
    private static final long serialVersionUID = 1L;

    private String container = "";
    private String action = "update";
    private String cpuset = "";
    private String cpus = "";
    private String memory = "";
    private boolean allowUnmanagedContainers;

    @Override
    public SampleResult sample(Entry e) {
        SampleResult r = SampleResults.started(
                getName(), action + " " + container + " cpuset=" + cpuset + " cpus=" + cpus + " memory=" + memory);
        long t0 = System.currentTimeMillis();
        try {
            ContainerUpdate update = new ContainerUpdate(JMeterEnvBench.environments(), allowUnmanagedContainers);
            String done = switch (action == null ? "" : action.trim().toLowerCase(Locale.ROOT)) {
                case "update" -> update.update(container, cpuset, cpus, memory);
                case "pause" -> update.pause(container);
                case "unpause" -> update.unpause(container);
                default ->
                    throw new InvalidSettingException(
                            "action", "'" + action + "' is not an action; use update, pause or unpause");
            };
            SampleResults.ok(r, t0, done);
        } catch (InvalidSettingException | TargetStartException ex) {
            SampleResults.fail(r, t0, ex.getMessage());
        }
        return r;
    }

    public String getContainer() {
        return container;
    }

    public void setContainer(String container) {
        this.container = container;
    }

    public String getAction() {
        return action;
    }

    public void setAction(String action) {
        this.action = action;
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

    public String getMemory() {
        return memory;
    }

    public void setMemory(String memory) {
        this.memory = memory;
    }

    public boolean getAllowUnmanagedContainers() {
        return allowUnmanagedContainers;
    }

    public void setAllowUnmanagedContainers(boolean allow) {
        this.allowUnmanagedContainers = allow;
    }
}
