package io.envbench.jmeter.modifiers;

import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.measure.engines.EngineMetrics;
import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.processor.PreProcessor;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * Puts the name of the environment its samples measure into the variable {@code envbench.env} before
 * each sample in its scope, so the JTL column of that name (sample_variables) says which environment
 * every sample measured. The field Environment names it; left empty, it is the environment this thread
 * group's Target Environment sampler started (else the only one running, else "none"). Put one in each
 * thread group that loads an environment when several run at once. On a remote engine it also puts the engine's
 * name ({@code HOST:PORT} as the controlling JMeter's {@code -R} calls it) into {@code envbench.engine}; elsewhere that
 * variable is empty.
 *
 * <p>After each sample in its scope it looks again: a sample that failed while its environment was down (it died during
 * the test: killed by the out-of-memory killer, crashed, removed from outside) gets the reason at the end of its response
 * message, {@code (EnvBench: environment docker died during the test: killed: out of memory, limit 6m)}, so the JTL, the
 * View Results Tree and the reports' errors point to the death and not only to a refused connection. It is therefore
 * both a pre-processor and a post-processor (JMeter lists it under both); one in scope is enough.
 */
public class EnvironmentTag extends AbstractTestElement implements PreProcessor, PostProcessor, TestBean {
    private static final long serialVersionUID = 1L;

    private String environment = "";
    /**
     * JMeter calls {@link #process()} before the sample (as a pre-processor) and after it (as a post-processor), on this
     * thread's own clone. Before: the previous result as it was then; after, JMeter has replaced it with the new one.
     */
    private transient boolean sampling;

    private transient SampleResult resultBefore;
    /** What this thread's samples were tagged with last: a load thread group that did not start its environment keeps it when it dies. */
    private transient String lastTagged;

    @Override
    public void process() {
        JMeterContext ctx = JMeterContextService.getContext();
        SampleResult now = ctx.getPreviousResult();
        if (sampling && now != null && now != resultBefore) {
            sampling = false;
            resultBefore = null;
            markIfItsEnvironmentDied(now, ctx.getVariables());
            return;
        }
        // before a sample (also when the last one was never taken: the thread stopped between)
        sampling = true;
        resultBefore = now;
        JMeterVariables vars = ctx.getVariables();
        if (vars != null) {
            String named = environment == null ? "" : environment.trim();
            String env = named.isEmpty()
                    ? JMeterEnvBench.environmentOfThisThreadGroup().orElse(null)
                    : named;
            if (env == null) { // none running: one that died during the test is still what these samples were meant for
                env = lastTagged != null && JMeterEnvBench.whyDown(lastTagged).isPresent() ? lastTagged : "none";
            }
            lastTagged = env;
            vars.put(EnvBenchProperties.ENV_VARIABLE, env);
            vars.put(EngineMetrics.ENGINE_VARIABLE, EnvBenchProperties.engine());
        }
    }

    /** A failed sample of an environment that died: its message ends with the reason. */
    private static void markIfItsEnvironmentDied(SampleResult result, JMeterVariables vars) {
        String env = vars == null ? null : vars.get(EnvBenchProperties.ENV_VARIABLE);
        if (result.isSuccessful() || env == null || env.isEmpty() || "none".equals(env)) {
            return;
        }
        JMeterEnvBench.death(env).ifPresent(death -> {
            String before = result.getResponseMessage() == null ? "" : result.getResponseMessage();
            result.setResponseMessage((before.isEmpty() ? "" : before + " ") + "(EnvBench: " + death + ")");
        });
    }

    public String getEnvironment() {
        return environment;
    }

    public void setEnvironment(String environment) {
        this.environment = environment;
    }
}
