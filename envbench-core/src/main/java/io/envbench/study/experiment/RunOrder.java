package io.envbench.study.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.envbench.base.settings.InvalidSettingException;

/**
 * In which order the runs of an experiment take place. Both run every environment once per round, so a drift
 * of the machine (heat, a background job) spreads over all environments instead of landing on one.
 */
public enum RunOrder {
    /** Every round runs the environments in the file's order: bare, docker, bare, docker, ... */
    INTERLEAVED,
    /**
     * Randomized blocks: every round runs each environment once, in an order shuffled from the experiment's
     * {@code seed}, so a periodic disturbance cannot line up with one environment.
     */
    RANDOMIZED;

    public static RunOrder parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "interleaved" -> INTERLEAVED;
            case "randomized", "randomised" -> RANDOMIZED;
            default ->
                throw new InvalidSettingException(
                        field, "'" + text + "' is not a run order; use interleaved or randomized");
        };
    }

    /** As written in an experiment file. */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The runs, round by round: {@code repetitions} rounds, each holding every environment once. The same seed
     * gives the same order on every JVM ({@link Random}'s algorithm is specified).
     */
    public List<List<String>> rounds(List<String> environments, int repetitions, long seed) {
        Random random = new Random(seed);
        List<List<String>> rounds = new ArrayList<>(repetitions);
        for (int r = 0; r < repetitions; r++) {
            List<String> round = new ArrayList<>(environments);
            if (this == RANDOMIZED) {
                Collections.shuffle(round, random);
            }
            rounds.add(List.copyOf(round));
        }
        return List.copyOf(rounds);
    }
}
