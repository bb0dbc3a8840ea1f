package io.gpupipe.localstack.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobJson;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** The events AWS delivers to our functions, in AWS's exact shape: S3 ObjectCreated and EventBridge schedules. */
public final class AwsEvents {
    public static final String ACCOUNT_ID = "000000000000";

    private AwsEvents() {
    }

    /**
     * An S3 event notification (event version 2.1) with one {@code ObjectCreated:Put} record. The key is URL-encoded
     * as S3 does (spaces as {@code +}, slashes kept); the eTag has no quotes.
     */
    public static ObjectNode objectCreated(String bucket, String key, long size, String eTag, String sequencer,
                                           Instant time) {
        ObjectNode root = JobJson.mapper().createObjectNode();
        ObjectNode record = root.putArray("Records").addObject();
        record.put("eventVersion", "2.1");
        record.put("eventSource", "aws:s3");
        record.put("awsRegion", LocalAws.REGION);
        record.put("eventTime", time.truncatedTo(ChronoUnit.MILLIS).toString());
        record.put("eventName", "ObjectCreated:Put");
        record.putObject("userIdentity").put("principalId", "AWS:" + ACCOUNT_ID + ":local-stack");
        record.putObject("requestParameters").put("sourceIPAddress", "127.0.0.1");
        ObjectNode response = record.putObject("responseElements");
        response.put("x-amz-request-id", sequencer);
        response.put("x-amz-id-2", UUID.randomUUID().toString());
        ObjectNode s3 = record.putObject("s3");
        s3.put("s3SchemaVersion", "1.0");
        s3.put("configurationId", "gpupipe-results-written");
        ObjectNode b = s3.putObject("bucket");
        b.put("name", bucket);
        b.putObject("ownerIdentity").put("principalId", ACCOUNT_ID);
        b.put("arn", "arn:aws:s3:::" + bucket);
        ObjectNode object = s3.putObject("object");
        object.put("key", encodeKey(key));
        object.put("size", size);
        object.put("eTag", eTag == null ? "" : eTag.replace("\"", ""));
        object.put("sequencer", sequencer);
        return root;
    }

    static String encodeKey(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8).replace("%2F", "/");
    }

    /** An EventBridge Scheduled Event from the rule {@code ruleName}. */
    public static ObjectNode scheduled(String ruleName, Instant time) {
        ObjectNode event = JobJson.mapper().createObjectNode();
        event.put("version", "0");
        event.put("id", UUID.randomUUID().toString());
        event.put("detail-type", "Scheduled Event");
        event.put("source", "aws.events");
        event.put("account", ACCOUNT_ID);
        event.put("time", time.truncatedTo(ChronoUnit.SECONDS).toString());
        event.put("region", LocalAws.REGION);
        event.putArray("resources").add("arn:aws:events:" + LocalAws.REGION + ":" + ACCOUNT_ID + ":rule/" + ruleName);
        event.putObject("detail");
        return event;
    }
}
