package io.envbench.jmeter.samplers;

/** GUI of the EnvBench Command sampler: fields, defaults and choices; labels and tooltips in the resources file. */
public class CommandSamplerBeanInfo extends FieldsBeanInfo {
    public CommandSamplerBeanInfo() {
        super(CommandSampler.class);
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
}
