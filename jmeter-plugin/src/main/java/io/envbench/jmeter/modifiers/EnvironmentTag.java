package io.envbench.jmeter.modifiers;

import org.apache.jmeter.processor.PreProcessor;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import io.envbench.engines.EngineMetrics;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;

/**
 * Puts the name of the environment its samples measure into the variable {@code envbench.env} before
 * each sample in its scope, so the JTL column of that name (sample_variables) says which environment
 * every sample measured. The field Environment names it; left empty, it is the environment this thread
 * group's Target Environment sampler started (else the only one running, else "none"). Put one in each
 * thread group that loads an environment when several run at once. On a remote engine it also puts the engine's
 * name ({@code HOST:PORT} as the controlling JMeter's {@code -R} calls it) into {@code envbench.engine}; elsewhere that
 * variable is empty.
 */
public class EnvironmentTag extends AbstractTestElement implements PreProcessor, TestBean {
    private static final long serialVersionUID = 1L;

    private String environment = "";

    @Override
    public void process() {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            String named = environment == null ? "" : environment.trim();
            vars.put(EnvBenchProperties.ENV_VARIABLE, named.isEmpty() ? JMeterEnvBench.environmentOfThisThreadGroup().orElse("none") : named);
            vars.put(EngineMetrics.ENGINE_VARIABLE, EnvBenchProperties.engine());
        }
    }

    public String getEnvironment() { return environment; }
    public void setEnvironment(String environment) { this.environment = environment; }
}
