package io.envbench.jmeter.samplers;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.measure.engines.EngineMetrics;
import io.envbench.measure.metrics.MetricsCollector;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * EnvBench Engine Metrics: sends this JMeter's metrics (its host, and its own JVM as {@code process.jmeter.*}) to
 * whoever receives its samples, one sample per metrics tick: on a remote engine ({@code jmeter-server}), that is the
 * controlling JMeter, whose JTL then holds every engine's metrics, tagged with the engine ({@code envbench.engine}), with
 * no shared folder. Each sample waits for the engine's next tick and carries it as its response message
 * ({@link EngineMetrics}); readers of results leave these samples out of the load. It joins the JVM's metrics collector
 * (the Resource Monitor's, when the plan has one; else its own, without a file). Put it alone in a thread group of
 * {@code ${__P(envbench.engine.metrics.threads,0)}} threads lasting as long as the load: {@code envbench run} sets 1 on
 * engines; a local JMeter runs none (the runner measures it from outside).
 */
public class EngineMetricsSampler extends AbstractSampler implements TestBean, ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;
    /** Ticks not yet sent; a sampler that falls this far behind drops the newest (it never does: a sample is instant). */
    private static final int BACKLOG = 64;

    private String interval = "${__P(envbench.metrics.interval.ms,1000)}";

    private transient MetricsCollector collector;
    private transient BlockingQueue<MetricsCollector.Tick> ticks;
    private transient Consumer<MetricsCollector.Tick> onTick;
    private transient Duration every;
    private transient volatile Thread sampling;

    @Override
    public SampleResult sample(Entry e) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(EngineMetrics.LABEL);
        r.setDataType(SampleResult.TEXT);
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            vars.put(EngineMetrics.ENGINE_VARIABLE, EnvBenchProperties.engine());
        }
        sampling = Thread.currentThread();
        try {
            if (collector == null) {
                join();
            }
            MetricsCollector.Tick t = ticks.poll(every.toMillis() * 2 + 1000, TimeUnit.MILLISECONDS);
            if (t == null) {
                return failed(r, "no metrics reading within " + (every.toMillis() * 2 + 1000) + " ms; see jmeter.log");
            }
            r.setStampAndTime(t.epochMs(), 0);
            r.setResponseMessage(EngineMetrics.encode(t.values()));
            r.setResponseCodeOK();
            r.setSuccessful(true);
            return r;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return failed(r, "stopped while waiting for a metrics reading");
        } catch (IOException | RuntimeException ex) { // a bad interval (InvalidSettingException) names the field
            return failed(r, "EnvBench Engine Metrics: " + ex.getMessage());
        } finally {
            sampling = null;
        }
    }

    private void join() throws IOException {
        every = EnvBenchProperties.metricsInterval(getInterval());
        ticks = new ArrayBlockingQueue<>(BACKLOG);
        onTick = ticks::offer;
        collector = JMeterEnvBench.joinCollector(every, null, c -> {});
        collector.addListener(onTick);
    }

    private static SampleResult failed(SampleResult r, String why) {
        if (r.getStartTime() == 0) {
            r.sampleStart();
            r.sampleEnd();
        }
        r.setSuccessful(false);
        r.setResponseCode("500");
        r.setResponseMessage(why);
        return r;
    }

    @Override
    public void threadStarted() {
        // the collector is joined at the first sample, where a failure becomes a failed sample
    }

    @Override
    public void threadFinished() {
        if (collector != null) {
            collector.removeListener(onTick);
            collector = null;
            JMeterEnvBench.leaveCollector();
        }
    }

    /** A stop of the test does not wait for the next tick. */
    @Override
    public boolean interrupt() {
        Thread t = sampling;
        if (t != null) {
            t.interrupt();
        }
        return t != null;
    }

    public String getInterval() {
        return interval;
    }

    public void setInterval(String interval) {
        this.interval = interval;
    }
}
