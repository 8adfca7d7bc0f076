package io.envbench.jmeter.functions;

import java.util.Collection;
import java.util.List;

import io.envbench.jmeter.EnvBenchProperties;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.functions.AbstractFunction;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__envbenchSelected(docker-bridge)}} is "true" when the run selects that environment
 * ({@code -Jenvbench.env=all}, the default, or a comma-separated list naming it), else "false".
 * Meant for If Controllers ("Interpret Condition as Variable Expression") around an environment's thread groups.
 */
public class EnvironmentSelected extends AbstractFunction {
    private static final String KEY = "__envbenchSelected";
    private static final List<String> DESC = List.of("Environment name, e.g. bare, docker-bridge or docker-host");

    private CompoundVariable environment;

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) {
        return Boolean.toString(
                EnvBenchProperties.selected(environment.execute().trim()));
    }

    @Override
    public void setParameters(Collection<CompoundVariable> parameters) throws InvalidVariableException {
        checkParameterCount(parameters, 1);
        environment = parameters.iterator().next();
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }

    @Override
    public List<String> getArgumentDesc() {
        return DESC;
    }
}
