package io.gpupipe.localstack.console;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.apigateway.HttpApiFacade;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.TierDefinition;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The web console of the local stack (never deployed): a page at {@code /console} on the API port that shows a
 * job's whole life across API, queue, worker and notifier, the queues, workers and DLQ, and the scaling metric.
 * Everything it shows comes from what a user could call too (the HTTP API, S3, SQS, the CloudWatch stand-in, the
 * workers' readiness endpoints) or from the launcher's own supervision and event delivery; it writes only through
 * the public API (the page submits jobs there) and SQS's API (the DLQ redrive).
 */
public final class WebConsole implements AutoCloseable {
    /** A kept DLQ message is received again at most this long after the DLQ's visibility timeout. */
    private static final Duration RECEIVE_SLACK = Duration.ofSeconds(15);

    private final URI uri;
    private final S3Client s3;
    private final SqsClient sqs;

    private WebConsole(URI uri, S3Client s3, SqsClient sqs) {
        this.uri = uri;
        this.s3 = s3;
        this.sqs = sqs;
    }

    /** Starts following the stack's jobs, queues and workers, and serves the page on {@code api}'s port. */
    public static WebConsole start(ConsoleSources sources, HttpApiFacade api, Console console) {
        LocalAws aws = sources.aws();
        S3Client s3 = aws.newS3Client();
        SqsClient sqs = aws.newSqsClient();
        Clock clock = Clock.systemUTC();
        String bucket = aws.bucket();
        Function<String, Optional<byte[]>> objects = key -> read(s3, bucket, key);

        RecentJobs jobs = new RecentJobs(bucket, objects, clock, aws.ownerIds());
        aws.onObjectCreated(jobs);
        api.observe(jobs);

        List<QueueWatch.QueueRef> queues = new ArrayList<>();
        for (TierDefinition tier : aws.tiers().tiers()) {
            String url = aws.queueUrl(tier.tier());
            queues.add(new QueueWatch.QueueRef(tier.queue(), url, arn(sqs, url), tier.tier().wireName()));
        }
        String dlqUrl = aws.queueUrl(LocalAws.DLQ);
        Map<QueueAttributeName, String> dlq = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(
                QueueAttributeName.QUEUE_ARN, QueueAttributeName.VISIBILITY_TIMEOUT)).attributes();
        queues.add(new QueueWatch.QueueRef(LocalAws.DLQ, dlqUrl, dlq.get(QueueAttributeName.QUEUE_ARN), null));
        QueueWatch queueWatch = new QueueWatch(sqs, queues);

        Duration dlqVisibility = Duration.ofSeconds(Long.parseLong(dlq.get(QueueAttributeName.VISIBILITY_TIMEOUT)));
        DeadLetters deadLetters = new DeadLetters(clock, dlqVisibility.plus(RECEIVE_SLACK),
                Optional.of(aws.messageSeal()));
        sources.dlqEvents().ifPresent(source -> source.observe(deadLetters));
        Optional<Redrive> redrive = Optional.of(new Redrive(sqs, dlq.get(QueueAttributeName.QUEUE_ARN)));

        ConsoleApi consoleApi = new ConsoleApi(aws.tiers(), jobs, objects, sources.traceFile(), queueWatch,
                sources.workers(), deadLetters, redrive, sources.cloudWatch().map(ScalingWatch::new),
                new UsageWatch(prefix -> keys(s3, bucket, prefix), aws.tiers(), clock, aws.ownerIds()), clock);
        URI s3Origin = URI.create(aws.s3Endpoint().getScheme() + "://" + aws.s3Endpoint().getAuthority());
        api.mount(ConsoleHandler.BASE, new ConsoleHandler(consoleApi, new ConsoleWrites(queueWatch, redrive),
                new ConsoleAccess(api.port(), sources.callers(), aws.ownerIds()), s3Origin, console));
        return new WebConsole(api.baseUri().resolve(ConsoleHandler.BASE), s3, sqs);
    }

    /** Where the page is, e.g. http://localhost:8080/console. */
    public URI uri() {
        return uri;
    }

    private static Optional<byte[]> read(S3Client s3, String bucket, String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray());
        } catch (SdkException e) {
            // NoSuchKeyException (not written, or taken back) and any failure alike: nothing to show
            return Optional.empty();
        }
    }

    private static List<String> keys(S3Client s3, String bucket, String prefix) {
        try {
            return s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
                    .map(S3Object::key).toList();
        } catch (SdkException e) {
            return List.of();
        }
    }

    private static String arn(SqsClient sqs, String url) {
        return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN)).attributes()
                .get(QueueAttributeName.QUEUE_ARN);
    }

    @Override
    public void close() {
        s3.close();
        sqs.close();
    }
}
