package io.envbench.study.experiment;

import java.nio.file.Path;

/**
 * An experiment file is wrong. The message says where (file, line, field path) and how to fix it, e.g.
 * {@code static-web.yaml line 12: environments[1].network: 'brige' is not a network mode; use host or bridge}.
 */
public final class ExperimentException extends Exception {
    private final Path file;
    private final String fieldPath;
    private final int line;

    /**
     * @param file          the experiment file (its name starts the message)
     * @param fieldPath     e.g. {@code environments[1].network}; empty when the problem is the file as a whole
     * @param line          1-based; 0 when the problem has no line (the file cannot be read)
     * @param problemAndFix what is wrong and what to write instead
     */
    public ExperimentException(Path file, String fieldPath, int line, String problemAndFix) {
        super(describe(file, fieldPath, line, problemAndFix));
        this.file = file;
        this.fieldPath = fieldPath == null ? "" : fieldPath;
        this.line = line;
    }

    private static String describe(Path file, String fieldPath, int line, String problemAndFix) {
        Path name = file == null ? null : file.getFileName();
        StringBuilder s = new StringBuilder(name == null ? "experiment" : name.toString());
        if (line > 0) {
            s.append(" line ").append(line);
        }
        s.append(": ");
        if (fieldPath != null && !fieldPath.isEmpty()) {
            s.append(fieldPath).append(": ");
        }
        return s.append(problemAndFix).toString();
    }

    public Path file() {
        return file;
    }

    /** The field as written in the file, e.g. {@code load.http.threads} or {@code criteria[2]}; empty for the whole file. */
    public String fieldPath() {
        return fieldPath;
    }

    /** 1-based line in the file; 0 when there is none (the file cannot be read). */
    public int line() {
        return line;
    }
}
