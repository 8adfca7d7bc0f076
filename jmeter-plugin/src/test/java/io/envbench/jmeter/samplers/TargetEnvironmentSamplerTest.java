package io.envbench.jmeter.samplers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.Seccomp;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.GuiTests;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The GUI fields become a definition; each bad field is named in the message. */
class TargetEnvironmentSamplerTest {
    private static TargetEnvironmentSampler sampler() {
        TargetEnvironmentSampler s = new TargetEnvironmentSampler();
        s.setEnvironment("docker-host");
        s.setRuntime("docker");
        s.setNetworkMode("host");
        s.setPort("18090");
        s.setTarget("nginx-static");
        return s;
    }

    @Test
    void fieldsBecomeADefinition() {
        TargetEnvironmentSampler s = sampler();
        s.setMemory("256m");
        s.setCpus("0.5");
        s.setCpuset("0");
        s.setSeccomp("unconfined");
        EnvironmentDefinition d = s.definition();
        assertEquals(NetworkMode.HOST, d.options().networkMode());
        assertEquals(Seccomp.UNCONFINED, d.options().seccomp());
        assertEquals(256L << 20, d.options().memoryBytes().getAsLong());
        assertEquals(0.5, d.options().cpus().getAsDouble());
        assertEquals("0", d.options().cpuset().get().toString());
        assertEquals(18090, d.port());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "default", " Default "})
    void anEmptyOrDefaultSeccompIsTheEnginesOwnProfile(String value) {
        TargetEnvironmentSampler s = sampler();
        s.setSeccomp(value);
        assertEquals(Seccomp.DEFAULT, s.definition().options().seccomp());
    }

    @Test
    void runtimePodmanIsAContainerOnPodmanWithTheSameOptions() {
        TargetEnvironmentSampler s = sampler();
        s.setRuntime("podman");
        s.setCpus("1.5");
        EnvironmentDefinition d = s.definition();
        assertEquals(EnvironmentDefinition.Placement.PODMAN, d.placement());
        assertEquals(NetworkMode.HOST, d.options().networkMode());
        assertEquals(1.5, d.options().cpus().getAsDouble());
        assertTrue(d.usesPodman());
    }

    @Test
    void environmentVariablesGoToTheContainer() {
        TargetEnvironmentSampler s = sampler();
        s.setContainerEnv(" DB_NAME=daytrader_tenant_1 ; DB_USER=daytrader_tenant_1;;OPTS=a=b ");
        assertEquals(
                Map.of("DB_NAME", "daytrader_tenant_1", "DB_USER", "daytrader_tenant_1", "OPTS", "a=b"),
                s.definition().options().env());
    }

    @Test
    void eachBadFieldIsNamed() {
        assertField("memory", s -> s.setMemory("12XB"));
        assertField("cpuset", s -> s.setCpuset("0-99"));
        assertField("cpus", s -> s.setCpus("many"));
        assertField("cpus", s -> s.setCpus("-1"));
        assertField("port", s -> s.setPort("99999"));
        assertField("port", s -> s.setPort("http"));
        assertField("networkMode", s -> s.setNetworkMode("overlay"));
        assertField("runtime", s -> s.setRuntime("vm"));
        assertField("environment", s -> s.setEnvironment(""));
        assertField("volumeType", s -> s.setVolumeType("nfs"));
        assertField("volumePath", s -> {
            s.setVolumeType("tmpfs");
            s.setVolumePath("relative");
        });
        assertField("cpuShares", s -> s.setCpuShares("1"));
        assertField("seccomp", s -> s.setSeccomp("off"));
        assertField("containerEnv", s -> s.setContainerEnv("DB_NAME"));
        assertField("containerEnv", s -> s.setContainerEnv("DB NAME=x"));
        assertField("containerEnv", s -> s.setContainerEnv("1DB=x"));
    }

    /** Fields at and beyond their type's limits: never wrapped round, clamped or waited on forever. */
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "port        | 4294985376          | is too large", // 2^32 + 18080: (int) would make it 18080
                "port        | 2147483648          | is too large",
                "port        | -1                  | is not a TCP port",
                "cpuShares   | 4294967808          | is too large", // 2^32 + 512
                "seccomp     | off                 | is not a seccomp setting; use default",
                "cpuset      | 0-2147483647        | largest CPU number Linux supports (8191)",
                "memory      | 99999999999999999g  | is too large",
                "readyTimeoutSeconds | Infinity    | not a finite number",
                "readyTimeoutSeconds | NaN         | not a finite number",
                "readyTimeoutSeconds | 1e300       | above a day",
                "readyTimeoutSeconds | 86401       | above a day",
                "environment | ../x                | must not name another folder",
                "volumeSource | /etc               | must not name another folder",
            })
    void limitsAreRefusedNamingTheField(String field, String value, String fragment) {
        TargetEnvironmentSampler s = sampler();
        switch (field) {
            case "port" -> s.setPort(value);
            case "cpuShares" -> s.setCpuShares(value);
            case "seccomp" -> s.setSeccomp(value);
            case "cpuset" -> s.setCpuset(value);
            case "memory" -> s.setMemory(value);
            case "readyTimeoutSeconds" -> s.setReadyTimeoutSeconds(value);
            case "environment" -> s.setEnvironment(value);
            case "volumeSource" -> {
                s.setVolumeType("named");
                s.setVolumePath("/data");
                s.setVolumeSource(value);
            }
            default -> throw new AssertionError(field);
        }
        InvalidSettingException e = assertThrows(InvalidSettingException.class, s::definition);
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }

    private static void assertField(String field, Consumer<TargetEnvironmentSampler> change) {
        TargetEnvironmentSampler s = sampler();
        change.accept(s);
        InvalidSettingException e = assertThrows(InvalidSettingException.class, s::definition);
        assertEquals(field, e.field(), e.getMessage());
    }

    /**
     * A start that fails, on a bad field or when the target cannot start, leaves no endpoint property: a request
     * written {@code ${__P(envbench.host,127.0.0.1)}} goes to loopback, never to the environment started before.
     */
    @ParameterizedTest
    @ValueSource(strings = {"switch", "start"})
    void aFailedStartLeavesNoEndpointProperties(String action) {
        GuiTests.initJMeter();
        for (Consumer<TargetEnvironmentSampler> failure : List.<Consumer<TargetEnvironmentSampler>>of(
                s -> s.setMemory("12XB"), // a bad field
                s -> {
                    s.setRuntime("bare");
                    s.setTarget("no-such-target");
                })) { // a target that cannot start
            EnvBenchProperties.publishEndpoint("earlier", "127.0.0.1", 18999);
            EnvBenchProperties.publishEndpoint("docker-host", "127.0.0.1", 18090); // a stale one of this very name
            EnvBenchProperties.publishEndpoint("earlier", "127.0.0.1", 18999);
            TargetEnvironmentSampler s = sampler();
            s.setAction(action);
            failure.accept(s);
            SampleResult r = s.sample(null);
            assertFalse(r.isSuccessful(), r.getResponseMessage());
            assertNull(JMeterUtils.getProperty(EnvBenchProperties.HOST), "envbench.host after a failed " + action);
            assertNull(JMeterUtils.getProperty(EnvBenchProperties.PORT));
            assertNull(JMeterUtils.getProperty(EnvBenchProperties.hostOf("docker-host")));
            assertNull(JMeterUtils.getProperty(EnvBenchProperties.portOf("docker-host")));
            assertTrue(
                    "18999".equals(JMeterUtils.getProperty(EnvBenchProperties.portOf("earlier"))),
                    "another environment's own endpoint stays: it still runs");
            EnvBenchProperties.forgetEndpoint("earlier");
        }
    }
}
