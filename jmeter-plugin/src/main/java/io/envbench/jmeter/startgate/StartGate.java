package io.envbench.jmeter.startgate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import io.envbench.study.runner.JMeterStartGate;
import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.engine.util.NoConfigMerge;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EnvBench Start Gate: with it in a plan, {@code envbench run} starts each run's JMeter ahead, while the run before
 * it ends, and the JMeter waits here (its plan loaded, its engine started, no thread group yet) until its run's
 * environment is ready; so a run does not wait for a JVM to start. The runner's side and the exchange on standard
 * input are core's {@link JMeterStartGate}. Anywhere else (the GUI, {@code jmeter -n} by hand, a remote engine) it
 * does nothing: it waits only when {@link JMeterStartGate#ENABLED_PROPERTY} is true, and sets it false once opened, so
 * a second gate in the plan does not wait again.
 */
public class StartGate extends ConfigTestElement implements TestBean, TestStateListener, NoConfigMerge {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(StartGate.class);

    @Override
    public void testStarted() {
        testStarted("");
    }

    @Override
    public void testStarted(String host) {
        if (!JMeterUtils.getPropDefault(JMeterStartGate.ENABLED_PROPERTY, false)) {
            return;
        }
        log.info(JMeterStartGate.WAITING);
        System.out.println(JMeterStartGate.WAITING);
        System.out.flush();
        Optional<Map<String, String>> opened;
        try {
            opened =
                    JMeterStartGate.await(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            log.error("{}", e.getMessage());
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (opened.isEmpty()) {
            log.info("EnvBench Start Gate: standard input ended before the run started; exiting without a sample");
            System.exit(0);
            return;
        }
        opened.get().forEach(JMeterUtils::setProperty);
        JMeterUtils.setProperty(JMeterStartGate.ENABLED_PROPERTY, "false");
        log.info("EnvBench Start Gate opened with {}", opened.get());
    }

    @Override
    public void testEnded() {}

    @Override
    public void testEnded(String host) {}
}
