package io.gpupipe.localaws;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.seal.MessageSeal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * The AWS endpoints gpupipe needs, in this JVM and over their real wire protocols: SQS (ElasticMQ) with the tier
 * queues, the shared DLQ and its redrive policy, and S3 (S3Proxy, which honours {@code If-None-Match: *}; on
 * CopyObject through {@link CreateOnlyCopies}) with the results bucket. Used by the local stack and by every
 * module's tests. With {@link LocalAwsOptions#latency()} a {@link LatencyProxy} per service answers on the endpoint's
 * port and passes each request on to the emulator after that delay. This class assembles the parts
 * ({@link ElasticMqServer}, {@link S3ProxyServer}, {@link LatencyProxies}, {@link LocalQueues}) and hands out
 * clients, queue URLs and the Quarkus configuration that point at them.
 */
public final class LocalAws implements AutoCloseable {
    public static final String REGION = "us-east-1";
    public static final String ACCESS_KEY = "test";
    public static final String SECRET_KEY = "test";
    /** The queue of the bundled catalogue's default text tier (where a plain text job goes; tests' usual target). */
    public static final String DEFAULT_TEXT_QUEUE = queueOf(TierCatalogue.bundled().defaultTier(Task.GENERATE));
    /** The queue of the bundled catalogue's escalation tier (where long text jobs go). */
    public static final String ESCALATION_QUEUE = queueOf(TierCatalogue.bundled().escalationTier());
    // the queue names and batch redrive settings, as LocalQueues creates them
    public static final String DLQ = LocalQueues.DLQ;
    public static final String CALLBACK_RETRY_QUEUE = LocalQueues.CALLBACK_RETRY_QUEUE;
    public static final String BATCH_QUEUE = LocalQueues.BATCH_QUEUE;
    public static final String BATCH_DLQ = LocalQueues.BATCH_DLQ;
    public static final int BATCH_MAX_RECEIVE_COUNT = LocalQueues.BATCH_MAX_RECEIVE_COUNT;
    public static final int BATCH_VISIBILITY_SECONDS = LocalQueues.BATCH_VISIBILITY_SECONDS;
    public static final String BUCKET = "gpupipe-results";

    private final LocalAwsOptions options;
    private final ElasticMqServer sqsServer;
    private final S3ProxyServer s3Server;
    private final LatencyProxies latencyProxies;
    private final URI s3Endpoint;
    private final LocalQueues queues;
    private final Path deploymentKeyFile;
    private final Path temporaryKeyDir;
    private final MessageSeal messageSeal;
    private final OwnerIds ownerIds;

    private static String queueOf(Tier tier) {
        return TierCatalogue.bundled().get(tier).queue();
    }

    private LocalAws(LocalAwsOptions options, ElasticMqServer sqsServer, S3ProxyServer s3Server,
                     LatencyProxies latencyProxies, URI s3Endpoint, LocalQueues queues) {
        this.options = options;
        // the deployment key: kept with the data (ids stay stable across restarts), else for this run only
        this.temporaryKeyDir = options.dataDir() == null ? temporaryDirectory() : null;
        this.deploymentKeyFile = (options.dataDir() != null ? options.dataDir() : temporaryKeyDir)
                .resolve(LocalDeploymentKey.FILE_NAME);
        DeploymentKey deploymentKey = LocalDeploymentKey.createIfAbsent(deploymentKeyFile);
        this.messageSeal = MessageSeal.of(deploymentKey);
        this.ownerIds = deploymentKey.ownerIds();
        this.sqsServer = sqsServer;
        this.s3Server = s3Server;
        this.latencyProxies = latencyProxies;
        this.s3Endpoint = s3Endpoint;
        this.queues = queues;
    }

    /** Starts both endpoints with in-memory storage on free ports and creates the queues and bucket. */
    public static LocalAws start() {
        return start(LocalAwsOptions.defaults());
    }

    public static LocalAws start(LocalAwsOptions options) {
        // with added latency, clients reach each emulator through a LatencyProxy on the client port
        ServicePorts sqsPorts = ServicePorts.plan("sqs", options.sqsPort(), options.latency().sqs());
        ElasticMqServer sqs = ElasticMqServer.start(options.host(), options.advertisedHost(), sqsPorts, REGION);
        ServicePorts s3Ports = ServicePorts.plan("s3", options.s3Port(), options.latency().s3());
        S3ProxyServer s3;
        LatencyProxies proxies;
        try {
            s3 = S3ProxyServer.start(options.host(), s3Ports.emulatorPort(), options.dataDir(),
                    ACCESS_KEY, SECRET_KEY);
        } catch (RuntimeException e) {
            sqs.close();
            throw e;
        }
        try {
            proxies = LatencyProxies.start(options.host(), List.of(sqsPorts, s3Ports));
        } catch (RuntimeException e) {
            s3.close();
            sqs.close();
            throw e;
        }
        URI s3Endpoint = URI.create("http://" + options.advertisedHost() + ":" + s3Ports.clientPort());
        try (SqsClient sqsClient = sqsClient(sqs.endpoint()); S3Client s3Client = s3Client(s3Endpoint, c -> { })) {
            LocalQueues queues = LocalQueues.create(sqsClient, options);
            S3ProxyServer.createBucket(s3Client, BUCKET);
            return new LocalAws(options, sqs, s3, proxies, s3Endpoint, queues);
        }
    }

    /** Registers a listener told about every object written (local stand-in for S3 event notifications). */
    public void onObjectCreated(ObjectCreatedListener listener) {
        s3Server.onObjectCreated(listener);
    }

    /**
     * The file holding the deployment key every component of this stack reads ({@link DeploymentKey#FILE_ENV}):
     * in the data directory, or a temporary one removed on {@link #close()}.
     */
    public Path deploymentKeyFile() {
        return deploymentKeyFile;
    }

    /**
     * The seals of this stack's deployment key: what a test that plays the router's part seals its messages with,
     * so that the worker takes the owner they name.
     */
    public MessageSeal messageSeal() {
        return messageSeal;
    }

    /**
     * How this stack's router derives a caller's owner id (keyed with the deployment key): what the console, the
     * banner and tests that compute a caller's stored ids use.
     */
    public OwnerIds ownerIds() {
        return ownerIds;
    }

    /** The message attributes the router sends {@code body} with: its seal ({@link MessageAttributes#SEAL}). */
    public Map<String, MessageAttributeValue> sealedAttributes(String body) {
        return Map.of(MessageAttributes.SEAL, MessageAttributeValue.builder().dataType("String")
                .stringValue(messageSeal.seal(body)).build());
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("gpupipe-local-aws-key");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the deployment key", e);
        }
    }

    public URI sqsEndpoint() {
        return sqsServer.endpoint();
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
        return queues.url(queueName);
    }

    public String bucket() {
        return BUCKET;
    }

    public int maxReceiveCount() {
        return options.maxReceiveCount();
    }

    public SqsClient newSqsClient() {
        return sqsClient(sqsServer.endpoint());
    }

    private static SqsClient sqsClient(URI endpoint) {
        return SqsClient.builder().endpointOverride(endpoint).region(Region.of(REGION))
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
        return s3Client(s3Endpoint, override);
    }

    private static S3Client s3Client(URI endpoint, Consumer<ClientOverrideConfiguration.Builder> override) {
        return S3Client.builder().endpointOverride(endpoint).region(Region.of(REGION)).forcePathStyle(true)
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
        config.put("quarkus.sqs.endpoint-override", sqsEndpoint().toString());
        config.put("quarkus.s3.endpoint-override", s3Endpoint.toString());
        config.put("quarkus.s3.path-style-access", "true");
        config.put("local-aws.sqs-endpoint", sqsEndpoint().toString());
        config.put("local-aws.s3-endpoint", s3Endpoint.toString());
        for (TierDefinition tier : options.tiers().tiers()) {
            config.put("local-aws.queue-url." + tier.tier().wireName(), queueUrl(tier.queue()));
        }
        config.put("local-aws.queue-url.dlq", queueUrl(DLQ));
        config.put("local-aws.queue-url.callback-retry", queueUrl(CALLBACK_RETRY_QUEUE));
        config.put("local-aws.queue-url.batch", queueUrl(BATCH_QUEUE));
        config.put("local-aws.bucket", BUCKET);
        config.put(DeploymentKey.FILE_CONFIG, deploymentKeyFile.toAbsolutePath().toString());
        config.put("local-aws.max-receive-count", Integer.toString(options.maxReceiveCount()));
        return config;
    }

    @Override
    public void close() {
        latencyProxies.close();
        s3Server.close();
        sqsServer.close();
        if (temporaryKeyDir != null) {
            try {
                Files.deleteIfExists(deploymentKeyFile);
                Files.deleteIfExists(temporaryKeyDir);
            } catch (IOException e) {
                // a temporary file left behind holds only this run's key
            }
        }
    }
}
