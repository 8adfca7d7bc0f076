package io.envbench.jmeter.modifiers;

import io.envbench.jmeter.EnvBenchBeanGui;
import io.envbench.jmeter.EnvBenchHelp;

/** The Environment Tag element's GUI: JMeter's fields for it, with right-click Help opening EnvBench's page. */
public final class EnvironmentTagGui extends EnvBenchBeanGui {
    public EnvironmentTagGui() {
        super(EnvironmentTag.class, EnvBenchHelp.Topic.ENVIRONMENT_TAG);
    }
}
