package io.envbench.jmeter.modifiers;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI of the Environment Tag: one field, the environment; labels and tooltips in the resources file. */
public class EnvironmentTagBeanInfo extends BeanInfoSupport {
    public EnvironmentTagBeanInfo() {
        super(EnvironmentTag.class);
        createPropertyGroup("tagGroup", new String[] {"environment"});
        PropertyDescriptor p = property("environment");
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "");
    }
}
