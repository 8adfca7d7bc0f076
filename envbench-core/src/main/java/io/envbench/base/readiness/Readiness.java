package io.envbench.base.readiness;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * When a started target counts as ready: a {@link ReadinessCheck} and how long to wait for it. Immutable.
 *
 * @param check   what is checked
 * @param timeout how long to wait before the start fails
 */
@Immutable
public record Readiness(ReadinessCheck check, Duration timeout) {
    public Readiness {
        Objects.requireNonNull(check, "check");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidSettingException("readyTimeoutSeconds", "must be a positive number of seconds, e.g. 60");
        }
    }

    public static Readiness tcp(Duration timeout) {
        return new Readiness(new TcpCheck(), timeout);
    }

    public static Readiness http(String path, Duration timeout) {
        return new Readiness(new HttpCheck(path), timeout);
    }

    public static Readiness logLine(String text, Duration timeout) {
        return new Readiness(new LogLineCheck(text), timeout);
    }

    public static Readiness command(List<String> command, Duration timeout) {
        return new Readiness(new CommandCheck(command), timeout);
    }

    public static Readiness exitCode(int expected, Duration timeout) {
        return new Readiness(new ExitCodeCheck(expected), timeout);
    }

    public Readiness withTimeout(Duration t) {
        return new Readiness(check, t);
    }

    /**
     * Polls the check until it passes, the target dies or time runs out.
     *
     * @throws TargetStartException saying which check failed, the last reason and the target's last output
     */
    public void await(ReadinessContext target) throws TargetStartException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastProblem = "not checked yet";
        while (true) {
            if (!check.expectsExit()) {
                Optional<String> gone = target.whyGone();
                if (gone.isPresent()) {
                    throw new TargetStartException(
                            "target stopped before it was ready: " + gone.get() + lastLines(target));
                }
            }
            try {
                if (check.passes(target)) {
                    if (check.needsPort()) {
                        Optional<String> stranger = target.strangerOnPort();
                        if (stranger.isPresent()) {
                            throw new TargetStartException(
                                    "the readiness check was answered, but " + stranger.get() + lastLines(target));
                        }
                    }
                    return;
                }
                lastProblem = "check not passed yet";
            } catch (ExitCodeCheck.ExitedWithOtherCode e) {
                throw new TargetStartException("target " + e.getMessage() + lastLines(target));
            } catch (IOException e) {
                lastProblem = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetStartException("interrupted while waiting for readiness");
            }
            if (System.nanoTime() > deadline) {
                throw new TargetStartException("target not ready: no " + this
                        + target.endpoint().map(e -> " at " + e).orElse("") + " (last check: " + lastProblem
                        + "); raise readyTimeoutSeconds if it is only slow" + lastLines(target));
            }
            try {
                Thread.sleep(check.pollInterval().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetStartException("interrupted while waiting for readiness");
            }
        }
    }

    private static String lastLines(ReadinessContext target) {
        String l;
        try {
            l = target.logs(20).strip();
        } catch (RuntimeException e) {
            l = "";
        }
        return l.isEmpty() ? "" : "; last output:\n" + l;
    }

    @Override
    public String toString() {
        return check.describe() + " within " + timeout.toSeconds() + " s";
    }
}
