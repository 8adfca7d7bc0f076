package io.envbench.study.runner;

import java.io.IOException;
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
        cmd.add(java().toString());
        Path archive = classArchive();
        if (Files.isRegularFile(archive)) { // made once (JMeterClassArchive); a stale one the JVM ignores, silently
            cmd.add("-XX:SharedArchiveFile=" + archive);
            cmd.add("-Xlog:cds*=off");
        }
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

    /** The java the runner starts JMeter with: this JVM's own. */
    static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * Where JMeter's class-data sharing archive for this java and this JMeter lives ({@code bin/envbench-KEY.jsa}): the
     * key changes with the java (its home and version) and with ApacheJMeter.jar, so a new one never meets an archive
     * made for another.
     */
    public Path classArchive() {
        Path jar = home.resolve("bin/ApacheJMeter.jar");
        String jarStamp;
        try {
            jarStamp = Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis();
        } catch (IOException e) {
            jarStamp = "unreadable";
        }
        String key = System.getProperty("java.home") + "|" + System.getProperty("java.vm.version") + "|" + jarStamp;
        return home.resolve("bin/envbench-" + Integer.toHexString(key.hashCode()) + ".jsa");
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
