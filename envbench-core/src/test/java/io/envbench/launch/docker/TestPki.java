package io.envbench.launch.docker;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made in a test (BouncyCastle, which docker-java already brings to read PEM keys), and the
 * server and client certificates it signs, written as PEM files the way dockerd and the docker CLI read them. RSA 2048,
 * valid one day.
 */
public final class TestPki {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private final String name;
    private final KeyPair key;
    private final X509Certificate certificate;

    private TestPki(String name, KeyPair key, X509Certificate certificate) {
        this.name = name;
        this.key = key;
        this.certificate = certificate;
    }

    /** A new self-signed CA. */
    public static TestPki authority(String name) {
        KeyPair key = rsa();
        X500Name subject = new X500Name("CN=" + name);
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = builder(subject, subject, key)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(
                            Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(key.getPublic()));
            return new TestPki(name, key, sign(b, key));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code ca.pem}, {@code cert.pem} and {@code key.pem} of a server certificate for these IP addresses. */
    public void writeServer(Path folder, String... ipAddresses) {
        GeneralName[] names = new GeneralName[ipAddresses.length];
        for (int i = 0; i < ipAddresses.length; i++) {
            names[i] = new GeneralName(GeneralName.iPAddress, ipAddresses[i]);
        }
        issue(folder, "CN=envbench test daemon", KeyPurposeId.id_kp_serverAuth, new GeneralNames(names));
    }

    /** Writes {@code ca.pem}, {@code cert.pem} and {@code key.pem} of a client certificate, as DOCKER_CERT_PATH holds them. */
    public void writeClient(Path folder) {
        issue(folder, "CN=envbench test client", KeyPurposeId.id_kp_clientAuth, null);
    }

    /** Writes only this CA as {@code ca.pem}. */
    public void writeAuthority(Path folder) {
        write(folder.resolve("ca.pem"), certificate);
    }

    private void issue(Path folder, String subject, KeyPurposeId purpose, GeneralNames altNames) {
        KeyPair subjectKey = rsa();
        try {
            X509v3CertificateBuilder b = builder(new X500Name("CN=" + name), new X500Name(subject), subjectKey)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(
                            Extension.keyUsage,
                            true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            if (altNames != null) {
                b.addExtension(Extension.subjectAlternativeName, false, altNames);
            }
            X509Certificate cert = sign(b, key);
            Files.createDirectories(folder);
            writeAuthority(folder);
            write(folder.resolve("cert.pem"), cert);
            write(folder.resolve("key.pem"), subjectKey.getPrivate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair subjectKey) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                issuer,
                BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(Duration.ofDays(1))),
                subject,
                subjectKey.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuerKey) throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(Path file, Object pemObject) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(text)) {
            w.writeObject(pemObject);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
