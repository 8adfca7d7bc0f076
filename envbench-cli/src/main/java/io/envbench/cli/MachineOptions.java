package io.envbench.cli;

import java.nio.file.Path;
import java.time.Duration;

import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.study.runner.ExperimentRun;
import io.envbench.study.runner.JMeterInstall;
import picocli.CommandLine.Option;

/** Where the commands that start environments find EnvBench, JMeter and Docker: the options they share. */
final class MachineOptions {
    @Option(
            names = "--root",
            paramLabel = "DIR",
            description = "the EnvBench folder (targets/, testplans/, the assembled JMeter); "
                    + "default: system property envbench.root, else the working directory")
    Path root;

    @Option(
            names = "--jmeter-home",
            paramLabel = "DIR",
            description = "JMeter with EnvBench in lib/ext (default: ROOT/jmeter-dist/target/jmeter)")
    Path jmeterHome;

    @Option(
            names = "--docker-host",
            paramLabel = "URL",
            description = "Docker daemon: unix:///var/run/docker.sock, or tcp://HOST:2376 "
                    + "with TLS (default: DOCKER_HOST, else the local socket)")
    String dockerHost;

    @Option(
            names = "--docker-tls-verify",
            paramLabel = "true|false",
            description = "TLS with client certificates to a tcp:// daemon, "
                    + "its certificate verified (default: on when DOCKER_TLS_VERIFY is set)")
    String dockerTlsVerify;

    @Option(
            names = "--docker-cert-path",
            paramLabel = "DIR",
            description =
                    "folder with ca.pem, cert.pem and key.pem for TLS " + "(default: DOCKER_CERT_PATH, else ~/.docker)")
    String dockerCertPath;

    /** The EnvBench folder: {@code --root}, else the system property envbench.root, else the working directory. */
    Path base() {
        return root != null
                ? root
                : Path.of(System.getProperty("envbench.root", "."))
                        .toAbsolutePath()
                        .normalize();
    }

    /** The Docker daemon the options (else the environment, as the docker CLI) name. */
    DockerDaemon daemon() {
        return DockerDaemon.configured(DockerDaemon.Settings.COMMAND_LINE, dockerHost, dockerTlsVerify, dockerCertPath);
    }

    /**
     * How runs are made on this machine, with EnvBench's own stop-on-exit hook off: a command tears down in its own
     * order on Ctrl-C / SIGTERM (load, then environment, then report).
     */
    ExperimentRun.Settings settings(Duration metricsInterval, RestartPermission dockerRestart) {
        return ExperimentRun.Settings.of(base())
                .withJMeter(new JMeterInstall(
                        jmeterHome != null ? jmeterHome : base().resolve("jmeter-dist/target/jmeter")))
                .withDaemon(daemon())
                .withMetricsInterval(metricsInterval)
                .withDockerRestart(dockerRestart)
                .withStopOnExit(false);
    }
}
