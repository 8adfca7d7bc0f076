package io.envbench.study.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.envbench.base.settings.InvalidSettingException;

/** An installed JMeter (the assembled one in jmeter-dist/target/jmeter, or the user's) the runner starts headless. */
public record JMeterInstall(Path home) {
    public JMeterInstall {
        if (home == null || !Files.isRegularFile(home.resolve("bin/ApacheJMeter.jar"))) {
            throw new InvalidSettingException(
                    "jmeter.home",
                    "'" + home + "' has no bin/ApacheJMeter.jar; run ./envbench setup, "
                            + "or point it at a JMeter 5.6.3 with EnvBench in lib/ext");
        }
    }

    /** {@code java -jar ApacheJMeter.jar -n -t PLAN -l JTL -j LOG -Jk=v...} with this JVM's java. */
    public List<String> headless(
            Path plan, Path jtl, Path log, Map<String, String> properties, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                "-jar",
                home.resolve("bin/ApacheJMeter.jar").toString(),
                "-n",
                "-t",
                plan.toString(),
                "-l",
                jtl.toString(),
                "-j",
                log.toString()));
        properties.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
        return cmd;
    }

    /**
     * The controlling JMeter of remote engines: {@code java -jar ApacheJMeter.jar -n -t PLAN -R HOST:PORT,... -l JTL -j LOG
     * -Jk=v... -Gk=v...}. {@code -J} properties are the controlling JMeter's own (RMI, summariser); {@code -G} ones
     * reach every engine before the test starts (the plan's {@code __P} reads them there). The engines are left running.
     */
    public List<String> remote(
            Path plan,
            Path jtl,
            Path log,
            String remoteHosts,
            Map<String, String> ownProperties,
            Map<String, String> engineProperties,
            List<String> jvmOptions) {
        List<String> cmd = headless(plan, jtl, log, ownProperties, jvmOptions);
        cmd.addAll(List.of("-R", remoteHosts));
        engineProperties.forEach((k, v) -> cmd.add("-G" + k + "=" + v));
        return cmd;
    }
}
