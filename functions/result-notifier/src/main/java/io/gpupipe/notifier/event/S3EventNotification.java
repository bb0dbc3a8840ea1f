package io.gpupipe.notifier.event;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The S3 event notification Lambda receives (event version 2.x), reduced to the fields used. Our own records
 * rather than aws-lambda-java-events' S3Event, whose Joda-time fields need that library's serialization mixins.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record S3EventNotification(@JsonProperty("Records") List<Record> records) {

    public S3EventNotification {
        records = records == null ? List.of() : List.copyOf(records);
    }

    /**
     * One record: one object event, or (eventSource {@code aws:sqs}) one callback redelivery from the retry queue,
     * whose {@code body} is a {@link io.gpupipe.notifier.domain.CallbackRedelivery.Message}.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Record(String eventSource, String eventName, String eventTime, S3 s3, String body) {
        public static final String SQS_SOURCE = "aws:sqs";

        /** True for a record of the callback retry queue. */
        public boolean isRedelivery() {
            return SQS_SOURCE.equals(eventSource);
        }

        /** The bucket name, or null when the record lacks it. */
        public String bucket() {
            return s3 == null || s3.bucket() == null ? null : s3.bucket().name();
        }

        /** The key exactly as S3 sent it (URL-encoded), or null. */
        public String encodedKey() {
            return s3 == null || s3.object() == null ? null : s3.object().key();
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record S3(Bucket bucket, S3Object object) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Bucket(String name, String arn) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record S3Object(String key, Long size, String eTag, String sequencer) {
    }
}
