package io.envbench.measure.metrics;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import net.jcip.annotations.ThreadSafe;

/**
 * Files kept open per process between ticks (see {@link PseudoFile}), closed when the process is no
 * longer watched or a read fails. Thread-safe.
 *
 * @param <T> what is kept for one process
 */
@ThreadSafe
final class OpenPerProcess<T extends Closeable> {
    interface Opener<T> {
        T open(long pid) throws IOException;
    }

    private final Map<Long, T> open = new ConcurrentHashMap<>();
    private final Opener<T> opener;

    OpenPerProcess(Opener<T> opener) {
        this.opener = opener;
    }

    T get(long pid) throws IOException {
        T t = open.get(pid);
        if (t == null) {
            t = opener.open(pid);
            T raced = open.putIfAbsent(pid, t);
            if (raced != null) {
                close(t);
                t = raced;
            }
        }
        return t;
    }

    /** Closes what is kept for processes not in {@code pids}. */
    void retain(Set<Long> pids) {
        for (Long pid : List.copyOf(open.keySet())) {
            if (!pids.contains(pid)) {
                forget(pid);
            }
        }
    }

    void forget(long pid) {
        T t = open.remove(pid);
        if (t != null) {
            close(t);
        }
    }

    private static void close(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing a pseudo-file: nothing to do
        }
    }
}
