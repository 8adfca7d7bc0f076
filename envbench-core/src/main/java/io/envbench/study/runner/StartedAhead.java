package io.envbench.study.runner;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * At most one JMeter started ahead of the run or capacity step {@code K} it is for, waiting at its
 * {@link JMeterStartGate} while the one before it ends: its JVM start overlaps the other JMeter's exit (and, between
 * runs, the environments' stop and start). It is started on the ending JMeter's output thread and taken on the
 * runner's, so every method is synchronized. One whose run or step does not come is abandoned: it exits without a
 * sample and what its start wrote goes.
 *
 * @param <K> what a JMeter is started for (a planned run, a step's index)
 */
final class StartedAhead<K> {
    /** Starts a JMeter waiting at its gate; null when this run or step cannot start ahead. */
    interface Start {
        RunningJMeter start() throws IOException;
    }

    /** Removes what a JMeter's start wrote (its log); may fail on the disk. */
    interface Files {
        void clear() throws IOException;
    }

    private K key;
    private RunningJMeter jmeter;
    private Files files;
    /** The run or step last taken (started or not): a start for it that comes late is refused. */
    private K taken;

    private boolean closed;

    /**
     * Starts {@code next}'s JMeter, unless one waits already, {@code next} was taken, or this is closed.
     *
     * @param cannot told why, when the start failed (the run or step then starts its JMeter itself and says what fails)
     */
    synchronized void start(K next, Start start, Files written, Consumer<String> cannot) {
        if (closed || next == null || jmeter != null || next.equals(taken)) {
            return;
        }
        try {
            RunningJMeter j = start.start();
            if (j != null) {
                key = next;
                jmeter = j;
                files = written;
            }
        } catch (IOException | RuntimeException ex) {
            cannot.accept(ex.getMessage());
        }
    }

    /** The JMeter started for {@code k}, or null; one started for another, or one that died, is abandoned. */
    synchronized RunningJMeter take(K k) {
        taken = k;
        if (jmeter == null) {
            return null;
        }
        if (!Objects.equals(key, k) || !jmeter.process().isAlive()) {
            abandon();
            return null;
        }
        RunningJMeter j = jmeter;
        jmeter = null;
        key = null;
        return j;
    }

    /** Ends the JMeter waiting, if any: its run or step will not come. */
    synchronized void abandon() {
        if (jmeter != null) {
            discard(jmeter, files);
            jmeter = null;
            key = null;
        }
    }

    /** Abandons the JMeter waiting and refuses any later start (a start on an output thread may come late). */
    synchronized void close() {
        closed = true;
        abandon();
    }

    /** Ends a JMeter that will not load (killed if it lingers), then removes what its start wrote. */
    static void discard(RunningJMeter j, Files written) {
        j.abandon();
        try {
            if (!j.process().waitFor(RunningJMeter.STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                j.process().destroyForcibly(); // gone before its files are: a live one could write its log again
                j.process().waitFor(RunningJMeter.KILL_AFTER.toSeconds(), TimeUnit.SECONDS);
            }
            written.clear();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (IOException ex) {
            // a log left behind is replaced when its run starts
        }
    }
}
