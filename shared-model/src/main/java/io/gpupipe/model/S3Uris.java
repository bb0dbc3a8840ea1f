package io.gpupipe.model;

/**
 * An object's S3 URI, {@code s3://bucket/key}: the form the AWS CLI, the SDKs' transfer managers and S3 consumers
 * read, given in result events and status answers so a reader of the bucket finds a job's objects.
 */
public final class S3Uris {
    public static final String SCHEME = "s3://";

    private S3Uris() {
    }

    public static String of(String bucket, String key) {
        return SCHEME + bucket + "/" + key;
    }
}
