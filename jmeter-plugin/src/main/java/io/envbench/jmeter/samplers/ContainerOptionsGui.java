package io.envbench.jmeter.samplers;

import io.envbench.jmeter.EnvBenchBeanGui;
import io.envbench.jmeter.EnvBenchHelp;

/** The Container Options element's GUI: JMeter's fields for it, with right-click Help opening EnvBench's page. */
public final class ContainerOptionsGui extends EnvBenchBeanGui {
    public ContainerOptionsGui() {
        super(ContainerOptionsSampler.class, EnvBenchHelp.Topic.CONTAINER_OPTIONS);
    }
}
