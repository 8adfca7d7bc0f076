package io.envbench.docker;

import io.envbench.environment.TargetStartException;
import io.envbench.reaper.ReaperProcess;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;

/**
 * One docker-java client per daemon address, checked with a ping when first made. No API version is
 * forced: requests go unversioned, so the daemon answers with its own (negotiated) API.
 */
public final class DockerConnection {
    private static final Map<String, DockerClient> CLIENTS = new ConcurrentHashMap<>();

    private DockerConnection() {
    }

    /** The daemon address: the given one, else DOCKER_HOST, else the local socket. */
    public static String resolveHost(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        String env = System.getenv("DOCKER_HOST");
        return env != null && !env.isBlank() ? env : "unix:///var/run/docker.sock";
    }

    /** The client already connected to this daemon, without connecting (nor waiting for a daemon that is down). */
    public static java.util.Optional<DockerClient> connected(String host) {
        return java.util.Optional.ofNullable(CLIENTS.get(resolveHost(host)));
    }

    /**
     * The first connection to a daemon removes the leftovers of killed runs there ({@link DockerReaper#sweep}:
     * containers, networks, volumes), and tells this process's reaper ({@link ReaperProcess}) to sweep the
     * daemon when this process dies.
     *
     * @param host daemon address or blank for the default
     * @throws TargetStartException naming the address and what to do, when the daemon does not answer
     */
    public static DockerClient connect(String host) throws TargetStartException {
        String address = resolveHost(host);
        DockerClient cached = CLIENTS.get(address);
        if (cached != null) {
            return cached;
        }
        DockerClient client;
        try {
            DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(address).build();
            ApacheDockerHttpClient http = new ApacheDockerHttpClient.Builder()
                    .dockerHost(config.getDockerHost())
                    .sslConfig(config.getSSLConfig())
                    // each running container holds one connection for its death watch (events) and, for a remote
                    // daemon, one for its stats stream: 32 would stall the 16th container's streams
                    .maxConnections(256)
                    .connectionTimeout(Duration.ofSeconds(3))
                    .responseTimeout(Duration.ofSeconds(120))
                    .build();
            client = DockerClientImpl.getInstance(config, http);
            client.pingCmd().exec();
        } catch (RuntimeException e) {
            throw new TargetStartException("Docker daemon not reachable at " + address + " (" + rootCause(e)
                    + "); start it with './envbench setup' (or dockerd), or set envbench.docker.host", e);
        }
        DockerClient raced = CLIENTS.putIfAbsent(address, client);
        if (raced == null) {
            ReaperProcess.ofThisJvm().watchDockerDaemon(address);
            new DockerReaper(client).reapLeftovers();
            return client;
        }
        return raced;
    }

    static String rootCause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String m = c.getMessage();
        return c.getClass().getSimpleName() + (m == null ? "" : ": " + m.strip());
    }
}
