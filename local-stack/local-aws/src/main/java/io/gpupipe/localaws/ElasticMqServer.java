package io.gpupipe.localaws;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.elasticmq.NodeAddress;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import scala.concurrent.Await;
import scala.concurrent.duration.FiniteDuration;

/**
 * ElasticMQ in this JVM, speaking the SQS wire protocol. It listens on the emulator port and writes queue URLs with
 * the client port, so URLs point through a {@link LatencyProxy} when there is one.
 */
final class ElasticMqServer implements AutoCloseable {
    /** How long closing waits for ElasticMQ to stop. */
    private static final Duration STOP_LIMIT = Duration.ofSeconds(15);

    private final SQSRestServer server;
    private final URI endpoint;

    private ElasticMqServer(SQSRestServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
    }

    /** Starts on {@code host} and waits until it answers; clients reach it as {@code advertisedHost}. */
    static ElasticMqServer start(String host, String advertisedHost, ServicePorts ports, String region) {
        SQSRestServer server = SQSRestServerBuilder.withInterface(host)
                .withPort(ports.emulatorPort())
                .withServerAddress(new NodeAddress("http", advertisedHost, ports.clientPort(), ""))
                .withAWSRegion(region)
                .start();
        server.waitUntilStarted();
        return new ElasticMqServer(server, URI.create("http://" + advertisedHost + ":" + ports.clientPort()));
    }

    /** The endpoint SQS clients use (the client port). */
    URI endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        // Bounded: a long poll of a client killed mid-receive (the supervision test SIGKILLs a worker) can keep
        // ElasticMQ's shutdown waiting for a minute; the server has stopped accepting by then, and a stack that is
        // closing must not hang on it.
        try {
            Await.result(server.stopAndGetFuture().apply(),
                    FiniteDuration.apply(STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (Exception e) {
            System.err.println("local-aws: ElasticMQ did not stop within " + STOP_LIMIT.toSeconds()
                    + " s (" + e + "); going on");
        }
    }
}
