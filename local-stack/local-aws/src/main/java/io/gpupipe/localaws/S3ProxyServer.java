package io.gpupipe.localaws;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * S3Proxy in this JVM, speaking the S3 wire protocol with SigV2/V4 auth, over an in-memory or on-disk blob store
 * that reports each object written. S3 semantics the emulator lacks are installed on it: whole-body reads, atomic
 * object writes, and create-only copies ({@code If-None-Match: *} on CopyObject).
 */
final class S3ProxyServer implements AutoCloseable {
    private final S3Proxy proxy;
    private final NotifyingBlobStore store;

    private S3ProxyServer(S3Proxy proxy, NotifyingBlobStore store) {
        this.proxy = proxy;
        this.store = store;
    }

    /**
     * Starts on {@code host}:{@code port}, accepting requests signed with the given key, and waits until it is up;
     * {@code dataDir} null keeps objects in memory.
     */
    static S3ProxyServer start(String host, int port, Path dataDir, String accessKey, String secretKey) {
        NotifyingBlobStore store = new NotifyingBlobStore(blobStore(dataDir));
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(store)
                .endpoint(URI.create("http://" + host + ":" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                .build();
        WholeBodyReads.install(proxy);
        AtomicObjectWrites.install(proxy);
        CreateOnlyCopies.install(proxy, store);
        try {
            proxy.start();
            while (!"STARTED".equals(proxy.getState())) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting S3Proxy", e);
        } catch (Exception e) {
            throw new IllegalStateException("S3 endpoint could not start on port " + port + ": " + e.getMessage(), e);
        }
        return new S3ProxyServer(proxy, store);
    }

    private static BlobStore blobStore(Path dataDir) {
        if (dataDir == null) {
            return new TransientNio2BlobStore();
        }
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + dataDir, e);
        }
        return new FilesystemNio2BlobStore(dataDir.toAbsolutePath().toString());
    }

    /** Creates {@code bucket} through {@code s3}, unless an earlier run with the same data directory did. */
    static void createBucket(S3Client s3, String bucket) {
        try {
            s3.createBucket(b -> b.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException e) {
            // kept from an earlier run with --data
        }
    }

    void onObjectCreated(ObjectCreatedListener listener) {
        store.addListener(listener);
    }

    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            // best effort: the JVM may be exiting
        }
    }
}
