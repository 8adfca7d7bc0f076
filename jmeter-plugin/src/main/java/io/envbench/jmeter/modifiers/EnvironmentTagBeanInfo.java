package io.envbench.jmeter.modifiers;

import java.beans.PropertyDescriptor;

import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchBeanInfo;
import io.envbench.jmeter.EnvBenchHelp;

/** GUI of the Environment Tag: one field, the environment; labels and tooltips in the resources file. */
public class EnvironmentTagBeanInfo extends EnvBenchBeanInfo {
    public EnvironmentTagBeanInfo() {
        super(EnvironmentTag.class, Fields.class);
        createPropertyGroup("tagGroup", new String[] {"environment"});
        PropertyDescriptor p = property("environment");
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "");
    }

    /** This element's fields in JMeter's TestBeanGUI, with its Help button. */
    public static final class Fields extends BeanFieldsPanel {
        private static final long serialVersionUID = 1L;

        public Fields() {
            super(EnvironmentTag.class, EnvBenchHelp.Topic.ENVIRONMENT_TAG);
        }
    }
}
