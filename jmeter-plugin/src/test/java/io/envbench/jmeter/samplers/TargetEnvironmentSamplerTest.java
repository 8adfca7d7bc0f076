package io.envbench.jmeter.samplers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.envbench.environment.EnvironmentDefinition;
import io.envbench.settings.InvalidSettingException;
import io.envbench.docker.NetworkMode;

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
        EnvironmentDefinition d = s.definition();
        assertEquals(NetworkMode.HOST, d.options().networkMode());
        assertEquals(256L << 20, d.options().memoryBytes().getAsLong());
        assertEquals(0.5, d.options().cpus().getAsDouble());
        assertEquals("0", d.options().cpuset().get().toString());
        assertEquals(18090, d.port());
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
        assertField("volumePath", s -> { s.setVolumeType("tmpfs"); s.setVolumePath("relative"); });
        assertField("cpuShares", s -> s.setCpuShares("1"));
    }

    private static void assertField(String field, java.util.function.Consumer<TargetEnvironmentSampler> change) {
        TargetEnvironmentSampler s = sampler();
        change.accept(s);
        InvalidSettingException e = assertThrows(InvalidSettingException.class, s::definition);
        assertEquals(field, e.field(), e.getMessage());
    }
}
