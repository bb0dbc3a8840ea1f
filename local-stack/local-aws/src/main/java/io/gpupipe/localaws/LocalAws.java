package io.gpupipe.localaws;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.elasticmq.NodeAddress;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import scala.concurrent.Await;
import scala.concurrent.duration.FiniteDuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The AWS endpoints gpupipe needs, in this JVM and over their real wire protocols: SQS (ElasticMQ) with the tier
 * queues, the shared DLQ and its redrive policy, and S3 (S3Proxy, which honours {@code If-None-Match: *}; on
 * CopyObject through {@link CreateOnlyCopies}) with the results bucket. Used by the local stack and by every
 * module's tests. With {@link LocalAwsOptions#latency()} a {@link LatencyProxy} per service answers on the endpoint's
 * port and passes each request on to the emulator after that delay.
 */
public final class LocalAws implements AutoCloseable {
    /** How long closing waits for ElasticMQ to stop. */
    private static final Duration SQS_STOP_LIMIT = Duration.ofSeconds(15);
    public static final String REGION = "us-east-1";
    public static final String ACCESS_KEY = "test";
    public static final String SECRET_KEY = "test";
    /** The queue of the bundled catalogue's default text tier (where a plain text job goes; tests' usual target). */
    public static final String DEFAULT_TEXT_QUEUE = queueOf(TierCatalogue.bundled().defaultTier(Task.GENERATE));
    /** The queue of the bundled catalogue's escalation tier (where long text jobs go). */
    public static final String ESCALATION_QUEUE = queueOf(TierCatalogue.bundled().escalationTier());
    public static final String DLQ = "gpupipe-dlq";
    /** The result notifier's delayed callback redeliveries. */
    public static final String CALLBACK_RETRY_QUEUE = "gpupipe-callback-retry";
    /** The batch function's steps (plan, chunks, cancel, finalize), and where those it keeps failing on go. */
    public static final String BATCH_QUEUE = "gpupipe-batch";
    public static final String BATCH_DLQ = "gpupipe-batch-dlq";
    /** Deliveries of a batch step before it is dead-lettered (the template's BatchQueue redrive). */
    public static final int BATCH_MAX_RECEIVE_COUNT = 5;
    /** Above the longest local chunk invocation, so a slow chunk is not handed out twice. */
    public static final int BATCH_VISIBILITY_SECONDS = 180;
    public static final String BUCKET = "gpupipe-results";

    private final LocalAwsOptions options;
    private final SQSRestServer sqsServer;
    private final S3Proxy s3Proxy;
    private final NotifyingBlobStore blobStore;
    private final URI sqsEndpoint;
    private final URI s3Endpoint;
    private final Map<String, String> queueUrls = new LinkedHashMap<>();
    private final List<LatencyProxy> latencyProxies;

    private static String queueOf(Tier tier) {
        return TierCatalogue.bundled().get(tier).queue();
    }

    private LocalAws(LocalAwsOptions options, SQSRestServer sqsServer, S3Proxy s3Proxy, NotifyingBlobStore store,
                     URI sqsEndpoint, URI s3Endpoint, List<LatencyProxy> latencyProxies) {
        this.options = options;
        this.sqsServer = sqsServer;
        this.s3Proxy = s3Proxy;
        this.blobStore = store;
        this.sqsEndpoint = sqsEndpoint;
        this.s3Endpoint = s3Endpoint;
        this.latencyProxies = List.copyOf(latencyProxies);
    }

    /** Starts both endpoints with in-memory storage on free ports and creates the queues and bucket. */
    public static LocalAws start() {
        return start(LocalAwsOptions.defaults());
    }

    public static LocalAws start(LocalAwsOptions options) {
        // with added latency, clients reach each emulator through a LatencyProxy on the public port
        AwsLatency latency = options.latency();
        int sqsPort = options.sqsPort() == 0 ? freePort() : options.sqsPort();
        int elasticMqPort = latency.sqs().isZero() ? sqsPort : freePort();
        SQSRestServer sqs = SQSRestServerBuilder.withInterface(options.host())
                .withPort(elasticMqPort)
                .withServerAddress(new NodeAddress("http", options.advertisedHost(), sqsPort, ""))
                .withAWSRegion(REGION)
                .start();
        sqs.waitUntilStarted();
        URI sqsEndpoint = URI.create("http://" + options.advertisedHost() + ":" + sqsPort);

        NotifyingBlobStore store = new NotifyingBlobStore(blobStore(options.dataDir()));
        int s3Port = options.s3Port() == 0 ? freePort() : options.s3Port();
        int s3ProxyPort = latency.s3().isZero() ? s3Port : freePort();
        S3Proxy s3 = S3Proxy.builder()
                .blobStore(store)
                .endpoint(URI.create("http://" + options.host() + ":" + s3ProxyPort))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        WholeBodyReads.install(s3);
        AtomicObjectWrites.install(s3);
        CreateOnlyCopies.install(s3, store);
        try {
            s3.start();
            while (!"STARTED".equals(s3.getState())) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sqs.stopAndWait();
            throw new IllegalStateException("interrupted while starting S3Proxy", e);
        } catch (Exception e) {
            sqs.stopAndWait();
            throw new IllegalStateException("S3 endpoint could not start on port " + s3ProxyPort + ": " + e.getMessage(),
                    e);
        }
        List<LatencyProxy> proxies = new ArrayList<>();
        try {
            if (!latency.sqs().isZero()) {
                proxies.add(LatencyProxy.start("sqs", options.host(), sqsPort,
                        new InetSocketAddress(options.host(), elasticMqPort), latency.sqs()));
            }
            if (!latency.s3().isZero()) {
                proxies.add(LatencyProxy.start("s3", options.host(), s3Port,
                        new InetSocketAddress(options.host(), s3.getPort()), latency.s3()));
            }
        } catch (UncheckedIOException e) {
            proxies.forEach(LatencyProxy::close);
            stopQuietly(s3);
            sqs.stopAndWait();
            throw e;
        }
        URI s3Endpoint = URI.create("http://" + options.advertisedHost() + ":"
                + (latency.s3().isZero() ? s3.getPort() : s3Port));
        LocalAws aws = new LocalAws(options, sqs, s3, store, sqsEndpoint, s3Endpoint, proxies);
        aws.createResources();
        return aws;
    }

    private static BlobStore blobStore(Path dataDir) {
        if (dataDir == null) {
            return new TransientNio2BlobStore();
        }
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + dataDir, e);
        }
        return new FilesystemNio2BlobStore(dataDir.toAbsolutePath().toString());
    }

    private void createResources() {
        try (SqsClient sqs = newSqsClient(); S3Client s3 = newS3Client()) {
            String dlqUrl = sqs.createQueue(b -> b.queueName(DLQ).attributes(Map.of(
                    QueueAttributeName.MESSAGE_RETENTION_PERIOD, "1209600"))).queueUrl();
            String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl)
                    .attributeNames(QueueAttributeName.QUEUE_ARN)).attributes().get(QueueAttributeName.QUEUE_ARN);
            String redrive = "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\""
                    + options.maxReceiveCount() + "\"}";
            for (TierDefinition tier : options.tiers().tiers()) {
                queueUrls.put(tier.queue(), createTierQueue(sqs, tier.queue(), options.visibilitySeconds(tier),
                        redrive));
            }
            queueUrls.put(DLQ, dlqUrl);
            queueUrls.put(CALLBACK_RETRY_QUEUE, sqs.createQueue(b -> b.queueName(CALLBACK_RETRY_QUEUE)).queueUrl());
            createBatchQueues(sqs);
            try {
                s3.createBucket(b -> b.bucket(BUCKET));
            } catch (BucketAlreadyOwnedByYouException e) {
                // kept from an earlier run with --data
            }
        }
    }

    private void createBatchQueues(SqsClient sqs) {
        String dlqUrl = sqs.createQueue(b -> b.queueName(BATCH_DLQ).attributes(Map.of(
                QueueAttributeName.MESSAGE_RETENTION_PERIOD, "1209600"))).queueUrl();
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        String redrive = "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\""
                + BATCH_MAX_RECEIVE_COUNT + "\"}";
        queueUrls.put(BATCH_DLQ, dlqUrl);
        queueUrls.put(BATCH_QUEUE, sqs.createQueue(b -> b.queueName(BATCH_QUEUE).attributes(Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(BATCH_VISIBILITY_SECONDS),
                QueueAttributeName.REDRIVE_POLICY, redrive))).queueUrl());
    }

    private static String createTierQueue(SqsClient sqs, String name, int visibilitySeconds, String redrive) {
        return sqs.createQueue(b -> b.queueName(name).attributes(Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(visibilitySeconds),
                QueueAttributeName.REDRIVE_POLICY, redrive))).queueUrl();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stopQuietly(S3Proxy s3) {
        try {
            s3.stop();
        } catch (Exception e) {
            // best effort: the JVM may be exiting
        }
    }

    /** Registers a listener told about every object written (local stand-in for S3 event notifications). */
    public void onObjectCreated(ObjectCreatedListener listener) {
        blobStore.addListener(listener);
    }

    public URI sqsEndpoint() {
        return sqsEndpoint;
    }

    public URI s3Endpoint() {
        return s3Endpoint;
    }

    /** The tiers this instance has a queue for. */
    public TierCatalogue tiers() {
        return options.tiers();
    }

    /** The URL of {@code tier}'s queue. */
    public String queueUrl(Tier tier) {
        return queueUrl(options.tiers().get(tier).queue());
    }

    /** The URL of a tier queue (by queue name), {@link #DLQ}, {@link #CALLBACK_RETRY_QUEUE} or a batch queue. */
    public String queueUrl(String queueName) {
        String url = queueUrls.get(queueName);
        if (url == null) {
            throw new IllegalArgumentException("no local queue named " + queueName);
        }
        return url;
    }

    public String bucket() {
        return BUCKET;
    }

    public int maxReceiveCount() {
        return options.maxReceiveCount();
    }

    public SqsClient newSqsClient() {
        return SqsClient.builder().endpointOverride(sqsEndpoint).region(Region.of(REGION))
                .credentialsProvider(credentials()).httpClient(UrlConnectionHttpClient.create()).build();
    }

    public S3Client newS3Client() {
        return newS3Client(List.of());
    }

    /** An S3 client whose calls pass {@code interceptors} (e.g. {@code ConditionalConflictStandIn}). */
    public S3Client newS3Client(List<ExecutionInterceptor> interceptors) {
        return newS3Client(c -> c.executionInterceptors(interceptors));
    }

    /** An S3 client with its own override configuration (interceptors, retry strategy). */
    public S3Client newS3Client(Consumer<ClientOverrideConfiguration.Builder> override) {
        return S3Client.builder().endpointOverride(s3Endpoint).region(Region.of(REGION)).forcePathStyle(true)
                .credentialsProvider(credentials()).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(override).build();
    }

    /** A presigner configured as Quarkus configures the functions' (endpoint override, path style, test keys). */
    public S3Presigner newS3Presigner() {
        return S3Presigner.builder().endpointOverride(s3Endpoint).region(Region.of(REGION))
                .credentialsProvider(credentials())
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
    }

    public static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    }

    /**
     * Quarkus configuration pointing the quarkus-amazon-services SQS and S3 clients here, plus {@code local-aws.*}
     * keys (queue URLs, bucket) that a module's test profile can reference, e.g.
     * {@code %test.gpupipe.router.queue-urls.<tier>=${local-aws.queue-url.<tier>}}.
     */
    public Map<String, String> quarkusConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        for (String service : new String[] {"sqs", "s3", "sns"}) {
            config.put("quarkus." + service + ".aws.region", REGION);
            config.put("quarkus." + service + ".aws.credentials.type", "static");
            config.put("quarkus." + service + ".aws.credentials.static-provider.access-key-id", ACCESS_KEY);
            config.put("quarkus." + service + ".aws.credentials.static-provider.secret-access-key", SECRET_KEY);
        }
        config.put("quarkus.sqs.endpoint-override", sqsEndpoint.toString());
        config.put("quarkus.s3.endpoint-override", s3Endpoint.toString());
        config.put("quarkus.s3.path-style-access", "true");
        config.put("local-aws.sqs-endpoint", sqsEndpoint.toString());
        config.put("local-aws.s3-endpoint", s3Endpoint.toString());
        for (TierDefinition tier : options.tiers().tiers()) {
            config.put("local-aws.queue-url." + tier.tier().wireName(), queueUrl(tier.queue()));
        }
        config.put("local-aws.queue-url.dlq", queueUrl(DLQ));
        config.put("local-aws.queue-url.callback-retry", queueUrl(CALLBACK_RETRY_QUEUE));
        config.put("local-aws.queue-url.batch", queueUrl(BATCH_QUEUE));
        config.put("local-aws.bucket", BUCKET);
        config.put("local-aws.max-receive-count", Integer.toString(options.maxReceiveCount()));
        return config;
    }

    @Override
    public void close() {
        latencyProxies.forEach(LatencyProxy::close);
        stopQuietly(s3Proxy);
        // Bounded: a long poll of a client killed mid-receive (the supervision test SIGKILLs a worker) can keep
        // ElasticMQ's shutdown waiting for a minute; the server has stopped accepting by then, and a stack that is
        // closing must not hang on it.
        try {
            Await.result(sqsServer.stopAndGetFuture().apply(),
                    FiniteDuration.apply(SQS_STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (Exception e) {
            System.err.println("local-aws: ElasticMQ did not stop within " + SQS_STOP_LIMIT.toSeconds()
                    + " s (" + e + "); going on");
        }
    }
}
