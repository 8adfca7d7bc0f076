package io.envbench.jmeter.samplers;

import java.nio.charset.StandardCharsets;

import org.apache.jmeter.samplers.SampleResult;

/** How EnvBench's samplers fill a result: one way for success, one for failure. */
final class SampleResults {
    /** Response code of a failure EnvBench itself reports (bad setting, start failed). */
    static final String FAILURE_CODE = "EnvBench";

    private SampleResults() {}

    static SampleResult started(String label, String samplerData) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(label);
        r.setDataType(SampleResult.TEXT);
        r.setSamplerData(samplerData);
        return r;
    }

    /** Success with elapsed = now - t0. */
    static void ok(SampleResult r, long t0, String message) {
        okWithElapsed(r, t0, System.currentTimeMillis() - t0, message, message);
    }

    static void okWithElapsed(SampleResult r, long t0, long elapsedMs, String message, String body) {
        r.setStampAndTime(t0, elapsedMs);
        r.setResponseCodeOK();
        r.setResponseMessage(message);
        r.setResponseData(body, StandardCharsets.UTF_8.name());
        r.setSuccessful(true);
    }

    static void fail(SampleResult r, long t0, String message) {
        if (r.getEndTime() == 0) {
            r.setStampAndTime(t0, System.currentTimeMillis() - t0);
        }
        r.setSuccessful(false);
        r.setResponseCode(FAILURE_CODE);
        r.setResponseMessage(message);
        r.setResponseData(message, StandardCharsets.UTF_8.name());
    }
}
