package io.envbench.jmeter.modifiers;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** The Environment Tag has no fields; this gives it its name and description in the GUI. */
public class EnvironmentTagBeanInfo extends BeanInfoSupport {
    public EnvironmentTagBeanInfo() {
        super(EnvironmentTag.class);
    }
}
