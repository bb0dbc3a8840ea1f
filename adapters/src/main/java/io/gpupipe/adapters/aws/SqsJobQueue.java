package io.gpupipe.adapters.aws;

import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.port.QueueRejectedMessageException;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.seal.MessageSeal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * {@link JobQueue} on SQS: one queue per tier; the body is {@link JobMessage#inline} of the job, or a claim check
 * ({@link JobMessage#pointer}, payload written first) when that would not fit the queue's MaximumMessageSize. Many
 * jobs go out with SendMessageBatch, grouped by {@link SqsBatches} (10 entries, body plus attributes within the
 * queue's message size); each entry succeeds or fails on its own, so the answer is checked entry by entry. Each message carries
 * the sender's trace, when there is one: W3C {@code traceparent} as a message attribute and the same ids as the
 * {@code AWSTraceHeader} system attribute, so X-Ray links the SQS hop; and its owner as {@code MessageGroupId}
 * ({@link #messageGroupId}). With a {@link MessageSeal} (the router's, the batch function's), each message carries
 * the seal of its exact body ({@link MessageAttributes#SEAL}), the proof the worker needs to take the owner it names.
 */
public final class SqsJobQueue implements JobQueue {
    private static final Logger LOG = Logger.getLogger(SqsJobQueue.class);
    private final SqsClient sqs;
    private final Map<Tier, String> queueUrls;
    private final int maxMessageBytes;
    private final BiConsumer<String, String> payloadWriter;
    private final Supplier<Optional<TraceContext>> currentTrace;
    private final Optional<MessageSeal> seals;

    /** A queue whose messages carry no trace. */
    public SqsJobQueue(SqsClient sqs, Map<Tier, String> queueUrls, int maxMessageBytes,
                       BiConsumer<String, String> payloadWriter) {
        this(sqs, queueUrls, maxMessageBytes, payloadWriter, Optional::empty);
    }

    /**
     * {@code payloadWriter} stores a claim-check payload (key, JSON) before its pointer is sent; {@code currentTrace}
     * is the sender's span at the time of a send (the router's submit span), empty when tracing is off.
     */
    public SqsJobQueue(SqsClient sqs, Map<Tier, String> queueUrls, int maxMessageBytes,
                       BiConsumer<String, String> payloadWriter, Supplier<Optional<TraceContext>> currentTrace) {
        this(sqs, queueUrls, maxMessageBytes, payloadWriter, currentTrace, Optional.empty());
    }

    /** As above, each message sealed with {@code seals} when present (unsealed, a job is the queue owner's). */
    public SqsJobQueue(SqsClient sqs, Map<Tier, String> queueUrls, int maxMessageBytes,
                       BiConsumer<String, String> payloadWriter, Supplier<Optional<TraceContext>> currentTrace,
                       Optional<MessageSeal> seals) {
        this.seals = seals;
        this.sqs = sqs;
        this.queueUrls = Map.copyOf(queueUrls);
        this.maxMessageBytes = maxMessageBytes;
        this.payloadWriter = payloadWriter;
        this.currentTrace = currentTrace;
    }

    @Override
    public String send(InferenceJob job, Tier tier) {
        String queueUrl = queueUrl(tier);
        String message = body(job);
        Optional<TraceContext> trace = currentTrace.get();
        try {
            return sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(message).messageGroupId(messageGroupId(job))
                    .messageAttributes(attributes(job, tier, trace, message)).messageSystemAttributes(systemAttributes(trace)))
                    .messageId();
        } catch (AwsServiceException e) {
            if (AwsFailures.isClientError(e)) {
                throw new QueueRejectedMessageException("BUG or misconfiguration: the " + tier.wireName()
                        + " queue refused the message of job " + job.requestId() + " (" + JobMessage.utf8Length(
                        message) + " bytes) with a client error: " + e.getMessage(), e);
            }
            throw unavailable(job.requestId(), tier, e);
        } catch (SdkException e) {
            throw unavailable(job.requestId(), tier, e);
        }
    }

    @Override
    public Map<String, SendFailure> sendAll(Tier tier, List<InferenceJob> jobs) {
        String queueUrl = queueUrl(tier);
        Map<String, SendFailure> failures = new LinkedHashMap<>();
        List<Outgoing> outgoing = new ArrayList<>();
        for (InferenceJob job : jobs) {
            try {
                outgoing.add(new Outgoing(job.requestId(), body(job)));
            } catch (StoreUnavailableException e) {
                failures.put(job.requestId(), new SendFailure(false, e.getMessage()));
            }
        }
        Optional<TraceContext> trace = currentTrace.get();
        Map<String, InferenceJob> byId = new HashMap<>();
        jobs.forEach(job -> byId.put(job.requestId(), job));
        for (List<Outgoing> group : SqsBatches.groups(outgoing, Outgoing::bytes, maxMessageBytes)) {
            List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (Outgoing message : group) {
                InferenceJob job = byId.get(message.requestId());
                batch.add(SendMessageBatchRequestEntry.builder().id(Integer.toString(batch.size()))
                        .messageBody(message.body()).messageGroupId(messageGroupId(job))
                        .messageAttributes(attributes(job, tier, trace, message.body()))
                        .messageSystemAttributes(systemAttributes(trace)).build());
                ids.add(message.requestId());
            }
            failures.putAll(sendBatch(queueUrl, tier, batch, ids));
        }
        return failures;
    }

    /** A job's message body as it will be sent, and what it counts towards a batch's size. */
    private record Outgoing(String requestId, String body) {
        int bytes() {
            return JobMessage.utf8Length(body) + JobMessage.ATTRIBUTE_ALLOWANCE_BYTES;
        }
    }

    private Map<String, SendFailure> sendBatch(String queueUrl, Tier tier, List<SendMessageBatchRequestEntry> batch,
                                               List<String> ids) {
        Map<String, SendFailure> failures = new HashMap<>();
        try {
            SendMessageBatchResponse response = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(batch));
            for (BatchResultErrorEntry failed : response.failed()) {
                String id = ids.get(Integer.parseInt(failed.id()));
                failures.put(id, new SendFailure(Boolean.TRUE.equals(failed.senderFault()), "the " + tier.wireName()
                        + " queue refused job " + id + ": " + failed.code() + " " + failed.message()));
            }
        } catch (AwsServiceException e) {
            boolean rejected = AwsFailures.isClientError(e);
            ids.forEach(id -> failures.put(id, new SendFailure(rejected, "cannot enqueue job " + id + " to the "
                    + tier.wireName() + " queue: " + e.getMessage())));
        } catch (SdkException e) {
            ids.forEach(id -> failures.put(id, new SendFailure(false, "cannot enqueue job " + id + " to the "
                    + tier.wireName() + " queue: " + e.getMessage())));
        }
        return failures;
    }

    private String queueUrl(Tier tier) {
        String queueUrl = queueUrls.get(tier);
        if (queueUrl == null) {
            throw new IllegalStateException("no queue configured for tier " + tier.wireName());
        }
        return queueUrl;
    }

    /** The message body: the job inline, or a claim check once its payload is stored. */
    private String body(InferenceJob job) {
        String inline = JobMessage.inline(job);
        if (JobMessage.fitsInline(inline, maxMessageBytes)) {
            return inline;
        }
        payloadWriter.accept(JobLayout.payloadKey(job.requestId()), JobMessage.payload(job));
        LOG.infof("job %s is %d bytes as a message: sent as a claim check", job.requestId(),
                JobMessage.utf8Length(inline));
        return JobMessage.pointer(job);
    }

    private static QueueUnavailableException unavailable(String requestId, Tier tier, SdkException e) {
        return new QueueUnavailableException("cannot enqueue job " + requestId + " to the " + tier.wireName()
                + " queue: " + e.getMessage(), e);
    }

    /**
     * The X-Ray trace header of the sender's span as the AWSTraceHeader system attribute, the only system attribute
     * SendMessage takes (SendMessage, MessageSystemAttributes, Amazon SQS API Reference); none when tracing is off.
     */
    private static Map<MessageSystemAttributeNameForSends, MessageSystemAttributeValue> systemAttributes(
            Optional<TraceContext> trace) {
        return trace.map(t -> Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER, MessageSystemAttributeValue
                .builder().dataType("String").stringValue(t.awsTraceHeader()).build())).orElse(Map.of());
    }

    /**
     * The job's owner as its message group: on a fair queue (a standard queue whose messages carry a group), SQS
     * serves a quiet owner's messages before those of an owner holding a disproportionate share of the consumers
     * (SQS developer guide, "Amazon SQS fair queues"); one caller's backlog then no longer delays every other
     * caller's next job. A job sent without an owner is {@link Owner#QUEUE}'s. A standard queue keeps no order
     * within a group, so nothing else changes (a FIFO queue would, and the tier queues are not FIFO).
     */
    static String messageGroupId(InferenceJob job) {
        return FairQueueGroups.ofOwner(job.owner());
    }

    private Map<String, MessageAttributeValue> attributes(InferenceJob job, Tier tier, Optional<TraceContext> trace,
                                                          String body) {
        Map<String, MessageAttributeValue> attributes = new HashMap<>();
        seals.ifPresent(s -> attributes.put(MessageAttributes.SEAL, string(s.seal(body))));
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
