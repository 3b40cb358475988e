package io.posekit.store;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;

/**
 * An S3-compatible server in the test JVM: s3proxy over an in-memory blob store, with AWS signature authentication,
 * on a fixed loopback port. {@link #stop} and {@link #start} simulate an outage: while stopped, connections are
 * refused; the objects survive it (the blob store outlives the server).
 */
public final class S3Server implements AutoCloseable {

    public static final String ACCESS_KEY = "posekit-test";
    public static final String SECRET_KEY = "posekit-test-secret";

    private final BlobStore blobs = BlobStores.create("transient", new Properties());
    private final int port;
    private S3Proxy proxy;

    private S3Server(int port) {
        this.port = port;
    }

    /** A running server on a free port. */
    public static S3Server start() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        S3Server server = new S3Server(port);
        server.resume();
        return server;
    }

    /** Starts serving again on the same port. */
    public synchronized void resume() throws Exception {
        if (proxy != null) {
            return;
        }
        S3Proxy p = S3Proxy.builder().blobStore(blobs).endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        p.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!"STARTED".equals(p.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("s3proxy did not start: " + p.getState());
            }
            Thread.sleep(5);
        }
        proxy = p;
    }

    /** Stops serving (connections are refused); the objects are kept. */
    public synchronized void pause() throws Exception {
        if (proxy != null) {
            proxy.stop();
            proxy = null;
        }
    }

    /** The endpoint URL. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Settings for a store on this server: path-style, these credentials, bucket created on demand. */
    public S3AssetStore.Settings settings(String bucket, String prefix, Duration revalidate) {
        return new S3AssetStore.Settings(bucket, prefix, endpoint(), "us-east-1", true, ACCESS_KEY, SECRET_KEY, true,
                Duration.ofSeconds(5), revalidate);
    }

    @Override
    public void close() throws Exception {
        pause();
    }
}
