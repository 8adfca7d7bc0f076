package io.envbench.docker;

import io.envbench.environment.TargetStartException;
import io.envbench.settings.InvalidSettingException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.SSLContext;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.LocalDirectorySSLConfig;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.core.SSLConfig;

/**
 * One docker-java client per daemon (address and TLS folder), checked with a ping when first made. No API version
 * is forced: requests go unversioned, so the daemon answers with its own (negotiated) API. Thread-safe.
 */
public final class DockerConnection {
    private static final Logger log = LoggerFactory.getLogger(DockerConnection.class);
    /** What makes two daemons the same client: not the names the settings came from. */
    private record Key(String address, Optional<Path> tlsCertFolder) {
    }

    private static final Map<Key, DockerClient> CLIENTS = new ConcurrentHashMap<>();

    private DockerConnection() {
    }

    /** The client already connected to this daemon, without connecting (nor waiting for a daemon that is down). */
    public static Optional<DockerClient> connected(DockerDaemon daemon) {
        return Optional.ofNullable(CLIENTS.get(key(daemon)));
    }

    /**
     * The first connection to a daemon removes the leftovers of killed runs there ({@link DockerReaper#sweep}:
     * containers, networks, volumes). (The reaper hears of a daemon
     * when something is created there: {@link DockerLauncher#start}.)
     *
     * @throws InvalidSettingException naming the setting and the fix, when the settings are wrong before any
     *                                 connection ({@link DockerDaemon#check()})
     * @throws TargetStartException    naming the address, the setting and what to do, when the daemon does not answer,
     *                                 or TLS fails (no TLS on one side, an unknown CA, a refused client certificate)
     */
    public static DockerClient connect(DockerDaemon daemon) throws TargetStartException {
        Key key = key(daemon);
        DockerClient cached = CLIENTS.get(key);
        if (cached != null) {
            return cached;
        }
        DockerClient client = open(daemon);
        DockerClient raced = CLIENTS.putIfAbsent(key, client);
        if (raced == null) {
            new DockerReaper(client).reapLeftovers();
            return client;
        }
        return raced;
    }

    /**
     * A new client for the daemon, pinged, neither cached nor sweeping: what {@link #connect} makes once per daemon
     * (and what a measurement of the connection's cost makes each time). The caller closes it.
     */
    static DockerClient open(DockerDaemon daemon) throws TargetStartException {
        daemon.check();
        if (!daemon.isLocalSocket() && !daemon.usesTls()) {
            log.warn("Docker daemon {} is reached WITHOUT TLS: allowed only because it is a loopback address; turn TLS on "
                    + "for anything else", daemon.address());
        }
        DockerClient client;
        try {
            DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                    .withDockerHost(daemon.address())
                    .withDockerTlsVerify(false) // TLS comes from the daemon's settings below, never from the process's environment
                    .withCustomSslConfig(daemon.tlsCertFolder().map(RequiredTls::new).orElse(null))
                    .build();
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
        } catch (RuntimeException e) { // the transport makes its TLS context here
            throw new TargetStartException(daemon.usesTls() ? ConnectionFailure.unreadableCertificates(daemon, e)
                    : ConnectionFailure.explain(daemon, e), e);
        }
        try {
            client.pingCmd().exec();
        } catch (RuntimeException e) {
            try {
                client.close();
            } catch (java.io.IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw new TargetStartException(ConnectionFailure.explain(daemon, e), e);
        }
        return client;
    }

    private static Key key(DockerDaemon daemon) {
        return new Key(daemon.address(), daemon.tlsCertFolder());
    }

    static String rootCause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String m = c.getMessage();
        return c.getClass().getSimpleName() + (m == null ? "" : ": " + m.strip());
    }

    /**
     * docker-java's certificate folder, which never falls back to plain HTTP: docker-java's own returns no context
     * when a file is missing, and its transport then speaks plain HTTP to a tcp:// address.
     */
    private record RequiredTls(Path folder) implements SSLConfig {
        @Override
        public SSLContext getSSLContext() throws java.security.KeyStoreException {
            SSLContext context = new LocalDirectorySSLConfig(folder.toString()).getSSLContext();
            if (context == null) {
                throw new java.security.KeyStoreException(folder + " lacks one of " + DockerDaemon.TLS_FILES);
            }
            return context;
        }
    }
}
