package io.envbench.jmeter;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What this JVM's JMeter command line says that JMeter does not publish as a property: the results file
 * of {@code -l FILE} ({@code -lFILE}, {@code --logfile FILE}, {@code --logfile=FILE}). Read from the
 * process's own arguments, after JMeter's launcher ({@code -jar .../ApacheJMeter.jar} or
 * {@code org.apache.jmeter.NewDriver}); a JMeter embedded in another program has none.
 */
public final class JmeterCommandLine {
    private static final String NEW_DRIVER = "org.apache.jmeter.NewDriver";

    private JmeterCommandLine() {}

    /** The {@code -l} results file of this process, as given (relative to the working directory). */
    public static Optional<Path> resultsFile() {
        return ProcessHandle.current().info().arguments().flatMap(a -> resultsFile(List.of(a)));
    }

    /** @param processArgs the JVM's arguments after the {@code java} command: JVM options, launcher, JMeter's */
    static Optional<Path> resultsFile(List<String> processArgs) {
        int i = jmeterArgsStart(processArgs);
        if (i < 0) {
            return Optional.empty();
        }
        for (; i < processArgs.size(); i++) {
            String a = processArgs.get(i);
            if ((a.equals("-l") || a.equals("--logfile")) && i + 1 < processArgs.size()) {
                return Optional.of(Path.of(processArgs.get(i + 1)));
            }
            if (a.startsWith("--logfile=") && a.length() > "--logfile=".length()) {
                return Optional.of(Path.of(a.substring("--logfile=".length())));
            }
            if (a.startsWith("-l") && !a.startsWith("--") && a.length() > 2) {
                return Optional.of(Path.of(a.substring(2)));
            }
        }
        return Optional.empty();
    }

    /** Index of JMeter's first argument, or -1 when this is not JMeter's launcher. */
    private static int jmeterArgsStart(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals(NEW_DRIVER)) {
                return i + 1;
            }
            if (a.equals("-jar") && i + 1 < args.size()) {
                String jar = Path.of(args.get(i + 1)).getFileName().toString();
                return jar.startsWith("ApacheJMeter") ? i + 2 : -1;
            }
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) {
                i++; // its value
            }
        }
        return -1;
    }
}
