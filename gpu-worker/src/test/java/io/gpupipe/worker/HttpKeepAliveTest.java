package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The worker's SQS and S3 clients run on the JDK's HttpURLConnection; this JVM runs with the keep-alive setting the
 * packaged worker gives itself (gpu-worker's surefire configuration, {@link HttpKeepAlive}).
 */
class HttpKeepAliveTest {
    private static final int CALLERS = 16;
    private static final int CALLS_EACH = 40;

    @Test
    void testJvm_shouldRunWithTheWorkersKeepAliveCache() {
        assertThat(System.getProperty(HttpKeepAlive.PROPERTY))
                .isEqualTo(Integer.toString(HttpKeepAlive.IDLE_CONNECTIONS_PER_HOST));
    }

    @Test
    void concurrentCalls_shouldReuseTheirConnections_whenAWindowOfJobsCallsOneHost() throws Exception {
        // given: a server that notes each connection (the client's port), and 16 callers, like 16 jobs calling S3
        Set<Integer> connections = ConcurrentHashMap.newKeySet();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", exchange -> {
            connections.add(exchange.getRemoteAddress().getPort());
            byte[] body = "{}".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(CALLERS));
        server.start();
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try {
            URL url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/object").toURL();
            CyclicBarrier together = new CyclicBarrier(CALLERS);
            List<Future<?>> done = new ArrayList<>();
            // when: every caller makes its calls in step with the others, so that all 16 connections are busy at once
            for (int c = 0; c < CALLERS; c++) {
                done.add(callers.submit(() -> {
                    for (int i = 0; i < CALLS_EACH; i++) {
                        together.await();
                        HttpURLConnection connection = (HttpURLConnection) url.openConnection();
                        try (InputStream in = connection.getInputStream()) {
                            in.readAllBytes();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> caller : done) {
                caller.get();
            }
        } finally {
            callers.shutdownNow();
            server.stop(0);
        }
        // then: one connection per caller; the JDK's default (5 idle per host) reopened most of them each round
        assertThat(connections).as("connections opened for %d calls", CALLERS * CALLS_EACH).hasSizeLessThanOrEqualTo(
                CALLERS);
    }
}
