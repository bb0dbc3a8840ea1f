package io.gpupipe.localaws;

import java.nio.file.Path;

/**
 * How to start {@link LocalAws}. Port 0 picks a free port; {@code dataDir} null keeps S3 objects in memory.
 * Visibility timeouts default to the real deployment's (300 s small, 900 s large); tests shorten them.
 */
public record LocalAwsOptions(String host, String advertisedHost, int sqsPort, int s3Port, Path dataDir,
                              int maxReceiveCount, int smallVisibilitySeconds, int largeVisibilitySeconds) {

    public static LocalAwsOptions defaults() {
        return new LocalAwsOptions("127.0.0.1", "localhost", 0, 0, null, 3, 300, 900);
    }

    public LocalAwsOptions withPorts(int sqs, int s3) {
        return new LocalAwsOptions(host, advertisedHost, sqs, s3, dataDir, maxReceiveCount, smallVisibilitySeconds,
                largeVisibilitySeconds);
    }

    public LocalAwsOptions withDataDir(Path dir) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dir, maxReceiveCount,
                smallVisibilitySeconds, largeVisibilitySeconds);
    }

    public LocalAwsOptions withVisibilityTimeouts(int smallSeconds, int largeSeconds) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dataDir, maxReceiveCount, smallSeconds,
                largeSeconds);
    }

    public LocalAwsOptions withMaxReceiveCount(int count) {
        return new LocalAwsOptions(host, advertisedHost, sqsPort, s3Port, dataDir, count, smallVisibilitySeconds,
                largeVisibilitySeconds);
    }
}
