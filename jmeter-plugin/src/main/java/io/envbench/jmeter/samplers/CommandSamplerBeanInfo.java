package io.envbench.jmeter.samplers;

import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchHelp;

/** GUI of the EnvBench Command sampler: fields, defaults and choices; labels and tooltips in the resources file. */
public class CommandSamplerBeanInfo extends FieldsBeanInfo {
    public CommandSamplerBeanInfo() {
        super(CommandSampler.class, Fields.class);
        createPropertyGroup(
                "commandGroup",
                new String[] {"environment", "client", "command", "output", "expectedSeconds", "bareMemory"});
        text("environment", "");
        choice("client", "inside", true, "inside", "host", "container");
        text("command", "./psql-latency.sh 1000 10000");
        choice("output", "psql-time", true, "psql-time", "bonnie++");
        text("expectedSeconds", "60");
        text("bareMemory", "");
    }

    /** This element's fields in JMeter's TestBeanGUI, with its Help button. */
    public static final class Fields extends BeanFieldsPanel {
        private static final long serialVersionUID = 1L;

        public Fields() {
            super(CommandSampler.class, EnvBenchHelp.Topic.COMMAND);
        }
    }
}
