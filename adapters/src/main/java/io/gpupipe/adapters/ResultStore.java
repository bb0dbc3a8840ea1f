package io.gpupipe.adapters;

import java.util.Optional;

/** Reads the object an S3 event names (a job's result, a batch's terminal record), in the event's bucket. */
public interface ResultStore {
    /**
     * The object's text, or empty when it does not exist.
     *
     * @throws io.gpupipe.jobs.port.StoreUnavailableException when S3 could not be read
     */
    Optional<String> read(String bucket, String key);
}
