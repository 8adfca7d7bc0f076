package io.envbench.jmeter.samplers;

import io.envbench.jmeter.EnvBenchBeanGui;
import io.envbench.jmeter.EnvBenchHelp;

/** The Command element's GUI: JMeter's fields for it, with right-click Help opening EnvBench's page. */
public final class CommandGui extends EnvBenchBeanGui {
    public CommandGui() {
        super(CommandSampler.class, EnvBenchHelp.Topic.COMMAND);
    }
}
