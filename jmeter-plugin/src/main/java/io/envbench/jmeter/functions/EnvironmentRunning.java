package io.envbench.jmeter.functions;

import java.util.Collection;
import java.util.List;

import io.envbench.jmeter.JMeterEnvBench;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.functions.AbstractFunction;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__envbenchRunning(docker-bridge)}} is "true" while that environment runs (started by a
 * Target Environment sampler and not stopped; other environments may run too), else "false". For If Controllers
 * around an environment's load: when its start failed, the load does not run against nothing, whatever
 * the timing of JMeter's asynchronous Stop Test.
 */
public class EnvironmentRunning extends AbstractFunction {
    private static final String KEY = "__envbenchRunning";
    private static final List<String> DESC = List.of("Environment name, e.g. bare, docker-bridge or docker-host");

    private CompoundVariable environment;

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) {
        return Boolean.toString(
                JMeterEnvBench.environments().isRunning(environment.execute().trim()));
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
