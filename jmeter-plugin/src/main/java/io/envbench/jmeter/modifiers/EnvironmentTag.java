package io.envbench.jmeter.modifiers;

import org.apache.jmeter.processor.PreProcessor;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.environment.Environments;

/**
 * Puts the name of the environment now running into the variable {@code envbench.env} before each
 * sample in its scope (put it at the Test Plan level for all), so the JTL column of that name
 * (sample_variables) says which environment every sample measured. "none" when none runs.
 */
public class EnvironmentTag extends AbstractTestElement implements PreProcessor, TestBean {
    private static final long serialVersionUID = 1L;

    @Override
    public void process() {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            String current = Environments.get().current();
            vars.put(EnvBenchProperties.ENV_VARIABLE, current.isEmpty() ? "none" : current);
        }
    }
}
