package io.gpupipe.deadletter;

import io.smallrye.config.ConfigMapping;

/** Configuration of the dead-letter handler (env vars GPUPIPE_DEADLETTER_*). */
@ConfigMapping(prefix = "gpupipe.deadletter")
public interface DeadLetterConfig {
    /** The results bucket: markers under jobs/, results under results/ (GPUPIPE_DEADLETTER_BUCKET). */
    String bucket();
}
