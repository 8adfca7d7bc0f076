package io.envbench.jmeter.samplers;

import java.beans.PropertyDescriptor;

import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchBeanInfo;
import org.apache.jmeter.testbeans.TestBean;

/** What the EnvBench samplers' GUIs share: a text field and a choice, each with its default and never undefined. */
abstract class FieldsBeanInfo extends EnvBenchBeanInfo {
    FieldsBeanInfo(Class<? extends TestBean> beanClass, Class<? extends BeanFieldsPanel> fields) {
        super(beanClass, fields);
    }

    final void text(String name, String dflt) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, dflt);
    }

    /** @param allowExpressions whether something other than the tags may be typed ({@code ${__P(...)}}) */
    final void choice(String name, String dflt, boolean allowExpressions, String... tags) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, dflt);
        p.setValue(TAGS, tags);
        p.setValue(NOT_OTHER, !allowExpressions);
    }
}
