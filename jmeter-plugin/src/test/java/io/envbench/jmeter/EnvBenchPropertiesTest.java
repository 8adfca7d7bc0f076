package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import io.envbench.base.settings.InvalidSettingException;
import org.apache.jmeter.config.ConfigTestElement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EnvBenchPropertiesTest {
    @Test
    void aFieldThePlanHoldsIsTakenAsItIsAndADefaultMustNameAProperty() {
        ConfigTestElement element = new ConfigTestElement();
        element.setProperty("Some.field", "7");
        assertEquals("7", EnvBenchProperties.fieldAsRun(element, "Some.field", "${__P(envbench.some,1)}"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> EnvBenchProperties.fieldAsRun(element, "Other.field", "1"));
        assertTrue(e.getMessage().contains("not a property's default"), e.getMessage());
    }

    @Test
    void allOrEmptySelectsEverything() {
        assertTrue(EnvBenchProperties.selected("all", "bare"));
        assertTrue(EnvBenchProperties.selected("", "docker-host"));
    }

    @Test
    void aListSelectsOnlyItsNames() {
        assertTrue(EnvBenchProperties.selected("bare, docker-bridge", "docker-bridge"));
        assertFalse(EnvBenchProperties.selected("bare,docker-bridge", "docker-host"));
        assertFalse(EnvBenchProperties.selected("docker-bridge", "docker"));
    }

    @Test
    void readyTimeoutTakesWholeSecondsFromOneToADay() {
        assertEquals(Duration.ofSeconds(1), EnvBenchProperties.readyTimeout("1"));
        assertEquals(Duration.ofSeconds(60), EnvBenchProperties.readyTimeout(" 60 "));
        assertEquals(Duration.ofDays(1), EnvBenchProperties.readyTimeout("86400"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0",
                "-5",
                "86401",
                "sixty",
                "1.5",
                "60s",
                "",
                "99999999999999999999",
                "-99999999999999999999",
                "9223372036854775807"
            })
    void aBadReadyTimeoutNamesThePropertyTheValueAndAnExample(String bad) {
        assertNamed(
                EnvBenchProperties::readyTimeout,
                bad,
                "envbench.ready.timeout.seconds: ",
                "e.g. -Jenvbench.ready.timeout.seconds=60");
    }

    @Test
    void metricsIntervalTakesWholeMillisecondsFromOneHundredToAnHour() {
        assertEquals(Duration.ofMillis(100), EnvBenchProperties.metricsInterval("100"));
        assertEquals(Duration.ofSeconds(1), EnvBenchProperties.metricsInterval("1000"));
        assertEquals(Duration.ofHours(1), EnvBenchProperties.metricsInterval("3600000"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0",
                "-1",
                "99",
                "3600001",
                "fast",
                "0.5",
                "1000ms",
                " ",
                "99999999999999999999",
                "-9223372036854775808"
            })
    void aBadMetricsIntervalNamesTheFieldThePropertyTheValueAndAnExample(String bad) {
        assertNamed(EnvBenchProperties::metricsInterval, bad, "Interval (ms): ", "-Jenvbench.metrics.interval.ms=1000");
    }

    @Test
    void onWriteFailureIsStopByDefaultOrMarkAndAnythingElseNamesBoth() {
        assertEquals(EnvBenchProperties.OnWriteFailure.STOP, EnvBenchProperties.onWriteFailure(""));
        assertEquals(EnvBenchProperties.OnWriteFailure.STOP, EnvBenchProperties.onWriteFailure(" Stop "));
        assertEquals(EnvBenchProperties.OnWriteFailure.MARK, EnvBenchProperties.onWriteFailure("mark"));
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> EnvBenchProperties.onWriteFailure("ignore"));
        assertEquals(
                "envbench.onWriteFailure: 'ignore' is neither stop nor mark; give -Jenvbench.onWriteFailure=stop (stop"
                        + " the test when a file cannot be written) or =mark (run on, exit 1)",
                e.getMessage());
    }

    @Test
    void aRelativeMetricsFileGoesNextToTheResultsFileElseInTheWorkingDirectory() {
        Path cwd = Path.of("").toAbsolutePath();
        Optional<Path> jtl = Optional.of(Path.of("/data/run1/r.jtl"));
        assertEquals(
                Optional.of(Path.of("/data/run1/envbench-metrics.csv")),
                EnvBenchProperties.metricsFile("envbench-metrics.csv", jtl));
        assertEquals(Optional.of(Path.of("/data/m/x.csv")), EnvBenchProperties.metricsFile(" ../m/x.csv ", jtl));
        assertEquals(
                Optional.of(cwd.resolve("results/envbench-metrics.csv")),
                EnvBenchProperties.metricsFile("envbench-metrics.csv", Optional.of(Path.of("results/r.jtl"))),
                "a relative -l");
        assertEquals(
                Optional.of(cwd.resolve("envbench-metrics.csv")),
                EnvBenchProperties.metricsFile("envbench-metrics.csv", Optional.of(Path.of("r.jtl"))));
        assertEquals(
                Optional.of(cwd.resolve("envbench-metrics.csv")),
                EnvBenchProperties.metricsFile("envbench-metrics.csv", Optional.empty()));
        assertEquals(
                Optional.of(Path.of("/tmp/m.csv")),
                EnvBenchProperties.metricsFile("/tmp/m.csv", jtl),
                "an absolute name as given");
        assertEquals(Optional.empty(), EnvBenchProperties.metricsFile(" ", jtl), "no file");
    }

    private static void assertNamed(Function<String, Duration> parse, String bad, String field, String example) {
        InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> parse.apply(bad));
        String m = e.getMessage();
        assertTrue(m.startsWith(field), m);
        assertTrue(bad.isBlank() ? m.contains("is empty") : m.contains("'" + bad.trim() + "'"), m);
        assertTrue(m.contains(example), m);
        assertTrue(m.contains("whole number from "), m);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "0"})
    void noPrometheusPortIsNoEndpoint(String port) {
        assertEquals(Optional.empty(), EnvBenchProperties.prometheusEndpoint(port, "127.0.0.1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]", ""})
    void aLoopbackHostIsTaken(String host) {
        InetSocketAddress at =
                EnvBenchProperties.prometheusEndpoint("9270", host).orElseThrow();
        assertTrue(at.getAddress().isLoopbackAddress(), at.toString());
        assertEquals(9270, at.getPort());
    }

    /** An address other machines reach is refused by the property's name, whatever the port. */
    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "192.0.2.7"})
    void aHostOtherMachinesReachIsRefusedNamingTheProperty(String host) {
        var e = assertThrows(InvalidSettingException.class, () -> EnvBenchProperties.prometheusEndpoint("9270", host));
        String m = e.getMessage();
        assertTrue(m.startsWith(EnvBenchProperties.PROMETHEUS_HOST + ": '" + host + "'"), m);
        assertTrue(m.contains("is not a loopback address"), m);
        assertTrue(m.contains("-J" + EnvBenchProperties.PROMETHEUS_HOST + "=127.0.0.1"), m);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "-1", "65536", "9270.5", "99999999999"})
    void aPortThatIsNoneIsRefusedNamingTheProperty(String port) {
        var e = assertThrows(
                InvalidSettingException.class, () -> EnvBenchProperties.prometheusEndpoint(port, "127.0.0.1"));
        String m = e.getMessage();
        assertTrue(
                m.startsWith("Prometheus port (" + EnvBenchProperties.PROMETHEUS_PORT + "): '" + port
                        + "' is not a TCP port"),
                m);
        assertTrue(m.contains("1 to 65535"), m);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1:8086",
                "http://localhost:8086/",
                "http://[::1]:8086",
                "https://127.0.0.2/influx"
            })
    void anInfluxDbOnThisMachineIsTaken(String url) {
        var t = EnvBenchProperties.influxDb(url, "", "").orElseThrow();
        assertEquals("envbench", t.database());
        assertTrue(
                t.writeUri().toString().startsWith(url.endsWith("/") ? url : url + "/"),
                t.writeUri().toString());
        assertTrue(
                t.writeUri().toString().endsWith("write?db=envbench&precision=ms"),
                t.writeUri().toString());
        assertEquals(Optional.empty(), EnvBenchProperties.influxDb(" ", "x", ""));
    }

    /** Another machine's InfluxDB is refused naming the field, its property and the permission that allows it. */
    @ParameterizedTest
    @ValueSource(strings = {"http://192.0.2.7:8086", "http://0.0.0.0:8086"})
    void anInfluxDbElsewhereIsRefusedUnlessAllowed(String url) {
        var e = assertThrows(InvalidSettingException.class, () -> EnvBenchProperties.influxDb(url, "", "false"));
        String m = e.getMessage();
        assertTrue(m.startsWith("InfluxDB URL (" + EnvBenchProperties.INFLUXDB_URL + "): '" + url + "'"), m);
        assertTrue(m.contains("is not a loopback address"), m);
        assertTrue(m.contains("-J" + EnvBenchProperties.INFLUXDB_ALLOW_REMOTE + "=true"), m);
        assertTrue(m.contains("http://127.0.0.1:8086"), m);
        // allowed: taken as given (nothing is sent here)
        assertEquals(
                url + "/",
                EnvBenchProperties.influxDb(url, "db1", "true")
                        .orElseThrow()
                        .base()
                        .toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"127.0.0.1:8086", "ftp://127.0.0.1/", "http://127.0.0.1:8086/?db=x", "http//x", "http://a b"})
    void anInfluxDbUrlThatIsNoneIsRefusedNamingTheField(String url) {
        var e = assertThrows(InvalidSettingException.class, () -> EnvBenchProperties.influxDb(url, "", ""));
        String m = e.getMessage();
        assertTrue(m.startsWith("InfluxDB URL (" + EnvBenchProperties.INFLUXDB_URL + "): '" + url + "'"), m);
        assertTrue(m.contains("-J" + EnvBenchProperties.INFLUXDB_URL + "=http://127.0.0.1:8086"), m);
    }

    @Test
    void anAllowRemoteThatIsNeitherTrueNorFalseIsRefused() {
        var e = assertThrows(
                InvalidSettingException.class, () -> EnvBenchProperties.influxDb("http://127.0.0.1:8086", "", "yes"));
        assertTrue(e.getMessage().startsWith(EnvBenchProperties.INFLUXDB_ALLOW_REMOTE + ": 'yes'"), e.getMessage());
    }
}
