package io.gpupipe.notifier;

import java.util.Optional;

/** Reads result objects. */
public interface ResultStore {
    /**
     * The object's text, or empty when it does not exist.
     *
     * @throws io.gpupipe.notifier.exception.NotifierAwsException when S3 could not be read
     */
    Optional<String> read(String bucket, String key);
}
