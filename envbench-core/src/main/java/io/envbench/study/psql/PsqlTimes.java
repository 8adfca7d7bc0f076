package io.envbench.study.psql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import net.jcip.annotations.Immutable;

/**
 * One run of {@code targets/postgres/psql-latency.sh}: per phase (insert, select) the statements psql sent and the
 * time bash's {@code time} gave for it, as the study timed psql: elapsed (wall clock), user and system CPU of psql,
 * in seconds. Read from lines such as {@code psql insert statements=1000 elapsed_s=1.234 user_s=0.012 sys_s=0.034}.
 * Immutable.
 */
@Immutable
public record PsqlTimes(Map<String, Phase> phases) {
    /** What bash's {@code time} says of one psql run; seconds with millisecond resolution. */
    public record Phase(String name, long statements, double elapsedSeconds, double userSeconds, double sysSeconds) {
        /** One of the three times by {@link Time}. */
        public double seconds(Time t) {
            return switch (t) {
                case ELAPSED -> elapsedSeconds;
                case USER -> userSeconds;
                case SYS -> sysSeconds;
            };
        }
    }

    /** The three times bash's {@code time} prints: real (elapsed), user and sys. */
    public enum Time {
        ELAPSED("elapsed"),
        USER("user"),
        SYS("sys");

        private final String title;

        Time(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    private static final Pattern LINE = Pattern.compile(
            "^psql (\\w+) statements=(\\d+) elapsed_s=(\\d+(?:\\.\\d+)?) "
                    + "user_s=(\\d+(?:\\.\\d+)?) sys_s=(\\d+(?:\\.\\d+)?)\\s*$",
            Pattern.MULTILINE);

    public PsqlTimes {
        phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
    }

    /**
     * The phases in the output, in order.
     *
     * @throws IllegalArgumentException when it has no such line (what psql-latency.sh prints)
     */
    public static PsqlTimes find(String output) {
        Map<String, Phase> phases = new LinkedHashMap<>();
        Matcher m = LINE.matcher(output);
        while (m.find()) {
            phases.put(
                    m.group(1),
                    new Phase(
                            m.group(1),
                            Long.parseLong(m.group(2)),
                            Double.parseDouble(m.group(3)),
                            Double.parseDouble(m.group(4)),
                            Double.parseDouble(m.group(5))));
        }
        if (phases.isEmpty()) {
            throw new IllegalArgumentException(
                    "no timed psql phase in the output (a line 'psql PHASE statements=N elapsed_s=S "
                            + "user_s=S sys_s=S', as targets/postgres/psql-latency.sh prints)");
        }
        return new PsqlTimes(phases);
    }

    public Optional<Phase> phase(String name) {
        return Optional.ofNullable(phases.get(name));
    }

    /** The phase names of several runs, in first-seen order. */
    public static List<String> phaseNames(List<PsqlTimes> runs) {
        List<String> names = new ArrayList<>();
        runs.forEach(t ->
                t.phases().keySet().stream().filter(n -> !names.contains(n)).forEach(names::add));
        return names;
    }
}
