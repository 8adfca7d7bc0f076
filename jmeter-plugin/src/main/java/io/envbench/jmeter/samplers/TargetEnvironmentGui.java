package io.envbench.jmeter.samplers;

import io.envbench.jmeter.EnvBenchBeanGui;
import io.envbench.jmeter.EnvBenchHelp;

/** The Target Environment element's GUI: JMeter's fields for it, with right-click Help opening EnvBench's page. */
public final class TargetEnvironmentGui extends EnvBenchBeanGui {
    public TargetEnvironmentGui() {
        super(TargetEnvironmentSampler.class, EnvBenchHelp.Topic.TARGET_ENVIRONMENT);
    }
}
