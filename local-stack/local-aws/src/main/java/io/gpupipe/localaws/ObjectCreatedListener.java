package io.gpupipe.localaws;

/** Told about every object written to the local S3 endpoint, like an S3 ObjectCreated:Put notification. */
@FunctionalInterface
public interface ObjectCreatedListener {
    void objectCreated(String bucket, String key, long size, String eTag);
}
