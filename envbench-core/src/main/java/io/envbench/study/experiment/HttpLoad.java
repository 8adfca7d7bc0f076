package io.envbench.study.experiment;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;

import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * The built-in HTTP load: {@code threads} threads GET {@code path} on the environment's loopback port. Immutable.
 * Validation errors name the field as written under {@code load.http}.
 *
 * @param path              absolute path on the target, e.g. {@code /page-4k.html}
 * @param threads           concurrent users, at least 1
 * @param requestsPerSecond fixed rate shared by all threads; 0 = closed loop, as fast as the target answers
 * @param rampUp            time to start all threads
 * @param warmup            samples that start within the first {@code warmup} of a run are left out of the figures
 * @param duration          the whole run, warm-up included
 */
@Immutable
public record HttpLoad(
        String path, int threads, double requestsPerSecond, Duration rampUp, Duration warmup, Duration duration) {
    public HttpLoad {
        if (path == null || !path.startsWith("/") || path.chars().anyMatch(Character::isWhitespace)) {
            throw new InvalidSettingException(
                    "path",
                    "'" + path + "' is not a path on the target; start it with / and leave out "
                            + "spaces, e.g. /page-4k.html");
        }
        if (threads < 1) {
            throw new InvalidSettingException(
                    "threads", threads + " is below 1; give the number of concurrent users, e.g. 8");
        }
        if (threads > MAX_THREADS) {
            throw new InvalidSettingException(
                    "threads",
                    threads + " is above " + MAX_THREADS + " (one JMeter's threads on one machine); " + "give at most "
                            + MAX_THREADS + " concurrent users, e.g. 8");
        }
        if (!(requestsPerSecond >= 0) || Double.isInfinite(requestsPerSecond)) {
            throw new InvalidSettingException(
                    "requestsPerSecond",
                    requestsPerSecond + " is not a rate; give requests per second, " + "or 0 for as fast as possible");
        }
        if (requestsPerSecond > MAX_REQUESTS_PER_SECOND) {
            throw new InvalidSettingException(
                    "requestsPerSecond",
                    BigDecimal.valueOf(requestsPerSecond).toPlainString() + " is above "
                            + (long) MAX_REQUESTS_PER_SECOND + "; give at most " + (long) MAX_REQUESTS_PER_SECOND
                            + " requests per second, or 0 for as fast as possible");
        }
        Objects.requireNonNull(rampUp, "rampUp");
        LoadPlan.checkWindow(warmup, duration);
        if (rampUp.isNegative()) {
            throw new InvalidSettingException(
                    "rampUpSeconds", LoadPlan.seconds(rampUp) + " s is negative; give 0 or more seconds, e.g. 0");
        }
        if (rampUp.compareTo(duration) > 0) {
            throw new InvalidSettingException(
                    "rampUpSeconds",
                    LoadPlan.seconds(rampUp) + " s is longer than durationSeconds (" + LoadPlan.seconds(duration)
                            + " s); make it shorter, or the run longer");
        }
    }

    /** Each thread is a Java thread with its own stack in the one JMeter: more is a typo, or a job for several engines. */
    public static final int MAX_THREADS = 10_000;
    /** Far beyond what one JMeter sends on loopback; more is a typo. */
    public static final double MAX_REQUESTS_PER_SECOND = 1_000_000;

    /** Whether the threads run as fast as the target answers (no rate). */
    public boolean closedLoop() {
        return requestsPerSecond == 0;
    }
}
