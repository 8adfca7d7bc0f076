package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The -l results file, found the ways JMeter's command line takes it, and only on JMeter's command line. */
class JmeterCommandLineTest {
    private static Optional<Path> of(String... args) {
        return JmeterCommandLine.resultsFile(List.of(args));
    }

    private static List<String> jmeter(String... jmeterArgs) {
        List<String> all = new ArrayList<>(List.of("-Xmx1g", "-Dx=-l", "-jar", "/opt/jmeter/bin/ApacheJMeter.jar"));
        all.addAll(List.of(jmeterArgs));
        return all;
    }

    @Test
    void everySpellingOfMinusL() {
        Optional<Path> r = Optional.of(Path.of("out/r.jtl"));
        assertEquals(r, JmeterCommandLine.resultsFile(jmeter("-n", "-t", "p.jmx", "-l", "out/r.jtl", "-j", "j.log")));
        assertEquals(r, JmeterCommandLine.resultsFile(jmeter("-n", "-lout/r.jtl")));
        assertEquals(r, JmeterCommandLine.resultsFile(jmeter("-n", "--logfile", "out/r.jtl")));
        assertEquals(r, JmeterCommandLine.resultsFile(jmeter("-n", "--logfile=out/r.jtl")));
        assertEquals(r, of("-cp", "lib/*", "org.apache.jmeter.NewDriver", "-n", "-l", "out/r.jtl"));
    }

    @Test
    void noResultsFile() {
        assertEquals(
                Optional.empty(),
                JmeterCommandLine.resultsFile(jmeter("-n", "-t", "p.jmx", "-j", "j.log", "-Lio.envbench=DEBUG")));
        assertEquals(Optional.empty(), JmeterCommandLine.resultsFile(jmeter("-n", "-l")));
        assertEquals(Optional.empty(), JmeterCommandLine.resultsFile(jmeter()));
    }

    @Test
    void onlyOnJmetersCommandLine() {
        assertEquals(Optional.empty(), of("-jar", "other-app.jar", "-l", "x.jtl"), "another program's -l");
        assertEquals(Optional.empty(), of("-cp", "-l", "com.example.Main", "-l", "x.jtl"));
        assertEquals(Optional.empty(), of("-l", "x.jtl"));
    }

    @Test
    void thisProcessIsNoJmeter() {
        assertEquals(Optional.empty(), JmeterCommandLine.resultsFile());
    }
}
