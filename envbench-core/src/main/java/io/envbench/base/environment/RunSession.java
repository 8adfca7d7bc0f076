package io.envbench.base.environment;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Identity of this JVM's EnvBench run, written as labels on everything it creates in Docker and into
 * the state files of bare-metal processes: the run, and its owner process ({@link OwnerIdentity}: host,
 * PID namespace, PID and start time), so a later start can tell leftovers of a killed run (owner
 * provably gone) from resources of a run still going, here or on another host sharing the daemon.
 */
public final class RunSession {
    public static final String LABEL_MANAGED = "io.envbench.managed";
    public static final String LABEL_RUN = "io.envbench.run";
    public static final String LABEL_OWNER_PID = "io.envbench.owner-pid";
    public static final String LABEL_ENV = "io.envbench.env";

    private RunSession() {}

    /** This process's run: {@link OwnerIdentity#runId()}. */
    public static String runId() {
        return OwnerIdentity.current().runId();
    }

    public static long ownerPid() {
        return ProcessHandle.current().pid();
    }

    /** The labels every Docker resource of this run carries. */
    public static Map<String, String> labels(String environment) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_MANAGED, "true");
        labels.put(LABEL_RUN, runId());
        labels.put(LABEL_ENV, environment);
        labels.putAll(OwnerIdentity.current().labels()); // owner-pid and what tells that process from any other
        return Map.copyOf(labels);
    }

    /**
     * True when the labels belong to a run whose owner is provably gone (killed or ended without cleaning
     * up); see {@link LeftoverCheck} for the rule and {@link #judge} for the reason.
     */
    public static boolean isLeftover(Map<String, String> labels) {
        return judge(labels).reap();
    }

    /** Whether to remove a resource with these labels, and why, as this process sees it. */
    public static LeftoverCheck.Verdict judge(Map<String, String> labels) {
        return LeftoverCheck.forThisProcess().judge(labels);
    }
}
