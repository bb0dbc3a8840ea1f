package io.gpupipe.router.aws;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobMessage;
import io.gpupipe.model.MessageAttributes;
import io.gpupipe.model.Tier;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.telemetry.Traces;
import io.opentelemetry.api.trace.Span;
import io.gpupipe.router.exception.QueueRejectedMessageException;
import io.gpupipe.router.exception.QueueUnavailableException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.jboss.logging.Logger;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * {@link JobQueue} on SQS: one queue per tier; the body is {@link JobMessage#inline} of the job, or a claim check
 * ({@link JobMessage#pointer}, payload written first) when that would not fit the queue's MaximumMessageSize.
 */
public final class SqsJobQueue implements JobQueue {
    private static final Logger LOG = Logger.getLogger(SqsJobQueue.class);
    private final SqsClient sqs;
    private final Map<Tier, String> queueUrls;
    private final int maxMessageBytes;
    private final BiConsumer<String, String> payloadWriter;

    /** {@code payloadWriter} stores a claim-check payload (key, JSON) before its pointer is sent. */
    public SqsJobQueue(SqsClient sqs, Map<Tier, String> queueUrls, int maxMessageBytes,
                       BiConsumer<String, String> payloadWriter) {
        this.sqs = sqs;
        this.queueUrls = Map.copyOf(queueUrls);
        this.maxMessageBytes = maxMessageBytes;
        this.payloadWriter = payloadWriter;
    }

    @Override
    public String send(InferenceJob job, Tier tier) {
        String queueUrl = queueUrls.get(tier);
        if (queueUrl == null) {
            throw new IllegalStateException("no queue configured for tier " + tier.wireName());
        }
        String inline = JobMessage.inline(job);
        String body = inline;
        if (!JobMessage.fitsInline(inline, maxMessageBytes)) {
            payloadWriter.accept(JobLayout.payloadKey(job.requestId()), JobMessage.payload(job));
            body = JobMessage.pointer(job.requestId());
            LOG.infof("job %s is %d bytes as a message: sent as a claim check", job.requestId(),
                    JobMessage.utf8Length(inline));
        }
        String message = body;
        Optional<TraceContext> trace = Traces.of(Span.current());
        try {
            return sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(message)
                    .messageAttributes(attributes(job, tier, trace)).messageSystemAttributes(systemAttributes(trace)))
                    .messageId();
        } catch (AwsServiceException e) {
            if (e.statusCode() >= 400 && e.statusCode() < 500 && !e.isThrottlingException()) {
                throw new QueueRejectedMessageException("BUG or misconfiguration: the " + tier.wireName()
                        + " queue refused the message of job " + job.requestId() + " (" + JobMessage.utf8Length(
                        message) + " bytes) with a client error: " + e.getMessage(), e);
            }
            throw new QueueUnavailableException("cannot enqueue job " + job.requestId() + " to the "
                    + tier.wireName() + " queue: " + e.getMessage(), e);
        } catch (SdkException e) {
            throw new QueueUnavailableException("cannot enqueue job " + job.requestId() + " to the "
                    + tier.wireName() + " queue: " + e.getMessage(), e);
        }
    }

    /**
     * The X-Ray trace header of the current span (the router's submit span) as the AWSTraceHeader system
     * attribute, the only system attribute SendMessage takes (SendMessage, MessageSystemAttributes, Amazon SQS API
     * Reference); none when tracing is off.
     */
    private static Map<MessageSystemAttributeNameForSends, MessageSystemAttributeValue> systemAttributes(
            Optional<TraceContext> trace) {
        return trace.map(t -> Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER, MessageSystemAttributeValue
                .builder().dataType("String").stringValue(t.awsTraceHeader()).build())).orElse(Map.of());
    }

    private static Map<String, MessageAttributeValue> attributes(InferenceJob job, Tier tier,
                                                                 Optional<TraceContext> trace) {
        Map<String, MessageAttributeValue> attributes = new HashMap<>();
        attributes.put(MessageAttributes.TIER, string(tier.wireName()));
        attributes.put(MessageAttributes.TASK, string(job.task().wireName()));
        if (job.priority() != null) {
            attributes.put(MessageAttributes.PRIORITY, MessageAttributeValue.builder().dataType("Number")
                    .stringValue(job.priority().toString()).build());
        }
        trace.ifPresent(t -> attributes.put(MessageAttributes.TRACEPARENT, string(t.traceparent())));
        return attributes;
    }

    private static MessageAttributeValue string(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}
