package io.gpupipe.telemetry;

import io.opentelemetry.api.common.AttributeKey;

/** The attributes gpupipe's spans carry, named once: a trace file or a collector query finds a job by them. */
public final class SpanAttributes {
    public static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("gpupipe.request_id");
    public static final AttributeKey<String> TIER = AttributeKey.stringKey("gpupipe.tier");
    /** What became of the step: accepted, duplicate, succeeded, failed, requeued, ... */
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("gpupipe.outcome");
    /** A model call's number within its delivery (1 = first call). */
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("gpupipe.attempt");
    /** SQS's ApproximateReceiveCount of the delivery. */
    public static final AttributeKey<Long> RECEIVE_COUNT = AttributeKey.longKey("gpupipe.receive_count");
    /** An error code from shared-model ErrorCodes. */
    public static final AttributeKey<String> ERROR_CODE = AttributeKey.stringKey("gpupipe.error_code");

    private SpanAttributes() {
    }
}
