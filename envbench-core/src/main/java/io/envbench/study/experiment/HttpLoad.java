package io.envbench.study.experiment;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * The built-in HTTP load: {@code threads} threads GET {@code path} on the environment's loopback port. Immutable.
 * Validation errors name the field as written under {@code load.http}.
 *
 * @param path              absolute path on the target, e.g. {@code /page-4k.html}
 * @param threads           concurrent users, at least 1
 * @param requestsPerSecond fixed rate shared by all threads; 0 = closed loop, as fast as the target answers; NaN while
 *                          it is a share of a capacity not searched yet
 * @param share             the rate as a share of an environment's capacity ({@code 80% of capacity(bare)}), if the
 *                          file wrote it so; the runner searches that capacity first and sets the rate
 * @param rampUp            time to start all threads
 * @param warmup            samples that start within the first {@code warmup} of a run are left out of the figures
 * @param duration          the whole run, warm-up included
 */
@Immutable
public record HttpLoad(
        String path,
        int threads,
        double requestsPerSecond,
        Duration rampUp,
        Duration warmup,
        Duration duration,
        Optional<RateShare> share) {
    /**
     * A rate written relative to a capacity: {@code percent}% of what {@code environment} keeps
     * ({@code ./envbench capacity}).
     */
    public record RateShare(double percent, String environment) {
        private static final Pattern FORM =
                Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*%\\s*of\\s*capacity\\(\\s*([A-Za-z0-9._-]+)\\s*\\)\\s*");

        public RateShare {
            if (!(percent > 0 && percent <= 100)) {
                throw new InvalidSettingException(
                        "requestsPerSecond",
                        percent + "% of a capacity is no load below it; give a share from 1 to 100, e.g. 80% of"
                                + " capacity(" + environment + ")");
            }
        }

        /** {@code 80% of capacity(bare)}, if the text is one. */
        public static Optional<RateShare> parse(String text) {
            Matcher m = FORM.matcher(text == null ? "" : text);
            return m.matches()
                    ? Optional.of(new RateShare(Double.parseDouble(m.group(1)), m.group(2)))
                    : Optional.empty();
        }

        /** As written: {@code 80% of capacity(bare)}. */
        public String text() {
            String p = percent == Math.rint(percent) ? Long.toString((long) percent) : Double.toString(percent);
            return p + "% of capacity(" + environment + ")";
        }
    }

    /** A load whose rate is a number (or 0, closed loop). */
    public HttpLoad(
            String path, int threads, double requestsPerSecond, Duration rampUp, Duration warmup, Duration duration) {
        this(path, threads, requestsPerSecond, rampUp, warmup, duration, Optional.empty());
    }

    public HttpLoad {
        share = share == null ? Optional.empty() : share;
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
        boolean unresolved = share.isPresent() && Double.isNaN(requestsPerSecond);
        if (!unresolved && (!(requestsPerSecond >= 0) || Double.isInfinite(requestsPerSecond))) {
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

    /** Whether the rate is a share of a capacity not searched yet. */
    public boolean awaitsCapacity() {
        return share.isPresent() && Double.isNaN(requestsPerSecond);
    }

    /** The same load at the rate its share of a capacity came to. */
    public HttpLoad withRate(double perSecond) {
        return new HttpLoad(path, threads, perSecond, rampUp, warmup, duration, share);
    }

    /** The same load shortened, its rate as it is. */
    HttpLoad window(Duration newRampUp, Duration newWarmup, Duration newDuration) {
        return new HttpLoad(path, threads, requestsPerSecond, newRampUp, newWarmup, newDuration, share);
    }
}
