package io.envbench.jmeter.timers;

import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.timers.Timer;
import org.apache.jorphan.util.JMeterStopThreadException;

/**
 * An open-model load: arrivals at random times (a Poisson process) at {@code arrivalsPerMinute}, shared by every thread
 * of its thread group, each thread taking the next arrival when it is free; 0 paces nothing (a closed loop). Two things JMeter's Precise Throughput
 * Timer does not do: the schedule starts when the group's first thread asks for an arrival, not at test start (JMeter's
 * own start-up is not fired afterwards as a burst), and each sample's intended start goes into the thread's variable
 * {@value #INTENDED} (epoch ms), which {@code sample_variables} writes into the JTL. A sample that waited for a free
 * thread, because the target answered slowly, then shows that wait: its response time counted from the intended start
 * is the coordinated-omission correction wrk2 and HdrHistogram apply.
 */
public class ArrivalsTimer extends AbstractTestElement implements Timer, TestBean, TestStateListener, SampleListener {
    private static final long serialVersionUID = 1L;

    /** The JTL column (by {@code sample_variables}) of each sample's intended start, epoch ms. */
    public static final String INTENDED = "envbench.intended";

    private double arrivalsPerMinute;
    private long seed;

    /**
     * The one schedule of a test, made at test start on the element in the tree and shared by the clones each thread
     * gets after it (JMeter copies no field on its own): no static state. Made there, not by an initializer: a remote
     * engine gets the tree deserialized, which runs none.
     */
    private transient AtomicReference<Arrivals> shared;

    @Override
    public Object clone() {
        ArrivalsTimer copy = (ArrivalsTimer) super.clone();
        copy.shared = shared;
        return copy;
    }

    @Override
    public void testStarted() {
        shared = new AtomicReference<>();
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {}

    @Override
    public void testEnded(String host) {}

    @Override
    public long delay() {
        if (arrivalsPerMinute == 0) { // no pacing: one plan serves a closed loop and, with a rate, an open model
            return 0;
        }
        long now = System.currentTimeMillis();
        if (shared == null) { // a clone made without a test start (JMeter always starts a test before its threads)
            shared = new AtomicReference<>();
        }
        Arrivals a = shared.updateAndGet(s -> s != null ? s : new Arrivals(arrivalsPerMinute / 60, seed, now));
        long intended = a.next();
        JMeterContext context = getThreadContext();
        context.getVariables().put(INTENDED, Long.toString(intended));
        long delay = Math.max(0, intended - now);
        long end = context.getThread().getEndTime();
        if (end > 0 && now + delay > end) {
            // JMeter does not interrupt a thread sleeping in a timer: it would overrun the run's end
            throw new JMeterStopThreadException("the next arrival, in " + delay + " ms, is after this thread's end");
        }
        return delay;
    }

    /**
     * After each sample in scope (its JTL line already holds the variable): gone, so that a later sampler of the thread
     * outside this timer's scope carries no arrival that was not its own.
     */
    @Override
    public void sampleOccurred(SampleEvent e) {
        getThreadContext().getVariables().remove(INTENDED);
    }

    @Override
    public void sampleStarted(SampleEvent e) {}

    @Override
    public void sampleStopped(SampleEvent e) {}

    public double getArrivalsPerMinute() {
        return arrivalsPerMinute;
    }

    public void setArrivalsPerMinute(double arrivalsPerMinute) {
        this.arrivalsPerMinute = arrivalsPerMinute;
    }

    public long getSeed() {
        return seed;
    }

    public void setSeed(long seed) {
        this.seed = seed;
    }

    /** A Poisson process from {@code startMs}: exponential gaps at {@code perSecond}; thread-safe. */
    static final class Arrivals {
        private final double perSecond;
        private final Random random;
        private double nextMs;

        /** @param seed 0: a different schedule each test */
        Arrivals(double perSecond, long seed, long startMs) {
            if (!(perSecond > 0)) {
                throw new JMeterStopThreadException(
                        "EnvBench Arrivals Timer: arrivalsPerMinute must be 0 (no pacing) or above, not "
                                + perSecond * 60);
            }
            this.perSecond = perSecond;
            this.random = seed == 0 ? new Random() : new Random(seed);
            this.nextMs = startMs;
        }

        /** The next arrival's time, epoch ms. */
        synchronized long next() {
            nextMs += -Math.log(1 - random.nextDouble()) / perSecond * 1000;
            return Math.round(nextMs);
        }
    }
}
