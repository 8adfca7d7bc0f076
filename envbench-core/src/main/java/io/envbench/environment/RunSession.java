package io.envbench.environment;

import java.util.Map;
import java.util.UUID;

/**
 * Identity of this JVM's EnvBench run, written as labels on everything it creates in Docker and into
 * the state files of bare-metal processes, so the next run can tell leftovers of a killed run
 * (owner process gone) from resources of a run still going.
 */
public final class RunSession {
    public static final String LABEL_MANAGED = "io.envbench.managed";
    public static final String LABEL_RUN = "io.envbench.run";
    public static final String LABEL_OWNER_PID = "io.envbench.owner-pid";
    public static final String LABEL_ENV = "io.envbench.env";

    private static final String RUN_ID = UUID.randomUUID().toString().substring(0, 8);

    private RunSession() {
    }

    public static String runId() {
        return RUN_ID;
    }

    public static long ownerPid() {
        return ProcessHandle.current().pid();
    }

    /** The labels every Docker resource of this run carries. */
    public static Map<String, String> labels(String environment) {
        return Map.of(LABEL_MANAGED, "true", LABEL_RUN, RUN_ID, LABEL_OWNER_PID, Long.toString(ownerPid()),
                LABEL_ENV, environment);
    }

    /** True when the labels belong to a run whose JVM is gone (killed or ended without cleaning up). */
    public static boolean isLeftover(Map<String, String> labels) {
        if (labels == null || !"true".equals(labels.get(LABEL_MANAGED))) {
            return false; // never touch what EnvBench did not create
        }
        if (RUN_ID.equals(labels.get(LABEL_RUN))) {
            return false;
        }
        try {
            long pid = Long.parseLong(labels.getOrDefault(LABEL_OWNER_PID, "-1"));
            return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return true;
        }
    }
}
