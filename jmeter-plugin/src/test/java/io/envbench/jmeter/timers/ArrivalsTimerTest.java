package io.envbench.jmeter.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.apache.jorphan.util.JMeterStopThreadException;
import org.junit.jupiter.api.Test;

/**
 * The Arrivals Timer's schedule: a Poisson process at the rate asked, from the moment it is made, the same for every
 * clone JMeter makes of the element (one per thread), and made anew at each test start.
 */
class ArrivalsTimerTest {
    @Test
    void arrivalsComeAtTheRateAskedFromTheirStart() {
        ArrivalsTimer.Arrivals a = new ArrivalsTimer.Arrivals(100, 42, 1_000_000);
        long first = a.next();
        long last = first;
        int n = 20_000;
        long exactlyTogether = 0;
        long previous = first;
        for (int i = 1; i < n; i++) {
            last = a.next();
            exactlyTogether += last == previous ? 1 : 0;
            previous = last;
        }
        assertTrue(first >= 1_000_000, "nothing before the start: " + first);
        double perSecond = (n - 1) / ((last - first) / 1000.0);
        // 20,000 exponential gaps: their mean is within 3% of 10 ms (about four standard errors)
        assertEquals(100, perSecond, 3, "arrivals per second");
        // random, not evenly spaced: at 100/s whole milliseconds repeat about 1% of the time
        assertTrue(exactlyTogether > 50, "arrivals in the same millisecond: " + exactlyTogether);
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndNoRateIsRefused() {
        ArrivalsTimer.Arrivals a = new ArrivalsTimer.Arrivals(50, 7, 0);
        ArrivalsTimer.Arrivals b = new ArrivalsTimer.Arrivals(50, 7, 0);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.next(), b.next());
        }
        JMeterStopThreadException e =
                assertThrows(JMeterStopThreadException.class, () -> new ArrivalsTimer.Arrivals(-1, 0, 0));
        assertTrue(e.getMessage().contains("arrivalsPerMinute must be 0 (no pacing) or above"), e.getMessage());
    }

    @Test
    void zeroPacesNothingAndMakesNoSchedule() throws Exception {
        ArrivalsTimer timer = new ArrivalsTimer();
        timer.setArrivalsPerMinute(0);
        timer.testStarted();
        for (int i = 0; i < 3; i++) {
            assertEquals(0, timer.delay(), "a closed loop: no wait");
        }
        assertEquals(null, ((AtomicReference<?>) schedule(timer)).get(), "no schedule made");
    }

    @Test
    void aTreeDeserializedOnARemoteEngineStartsItsTest() throws Exception {
        ArrivalsTimer timer = new ArrivalsTimer();
        timer.setArrivalsPerMinute(6000);
        var bytes = new java.io.ByteArrayOutputStream();
        try (var out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(timer);
        }
        ArrivalsTimer remote;
        try (var in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            remote = (ArrivalsTimer) in.readObject();
        }
        remote.testStarted("engine-1"); // as jmeter-server does: no field initializer ran
        assertSame(schedule(remote), schedule((ArrivalsTimer) remote.clone()));
    }

    @Test
    void everyThreadsCloneSharesTheOneScheduleOfATest() throws Exception {
        ArrivalsTimer timer = new ArrivalsTimer();
        timer.setArrivalsPerMinute(6000);
        timer.testStarted();
        ArrivalsTimer one = (ArrivalsTimer) timer.clone();
        ArrivalsTimer two = (ArrivalsTimer) timer.clone();
        assertSame(schedule(one), schedule(two));
        assertSame(schedule(timer), schedule(one));
    }

    private static Object schedule(ArrivalsTimer t) throws Exception {
        var f = ArrivalsTimer.class.getDeclaredField("shared");
        f.setAccessible(true);
        return f.get(t);
    }
}
