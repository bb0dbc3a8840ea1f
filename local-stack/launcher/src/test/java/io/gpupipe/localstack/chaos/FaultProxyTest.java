package io.gpupipe.localstack.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {
    private HttpServer server;
    private FaultProxy proxy;
    private URI viaProxy;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            byte[] body = "pong".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        URI target = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ping");
        proxy = FaultProxy.start("test", target);
        viaProxy = proxy.uri(target);
    }

    @AfterEach
    void stop() {
        proxy.close();
        server.stop(0);
    }

    @Test
    void pass_shouldForwardBothWays() throws Exception {
        assertThat(get(Duration.ofSeconds(5))).isEqualTo("pong");
        assertThat(proxy.connections()).isEqualTo(1);
    }

    @Test
    void refuse_shouldRefuseConnections_untilPassAgain() throws Exception {
        proxy.mode(FaultProxy.Mode.REFUSE);
        assertThatThrownBy(() -> get(Duration.ofSeconds(5))).isInstanceOf(ConnectException.class);
        proxy.mode(FaultProxy.Mode.PASS);
        assertThat(get(Duration.ofSeconds(5))).isEqualTo("pong");
    }

    @Test
    void hang_shouldAnswerNothing_untilPassAgain() throws Exception {
        proxy.mode(FaultProxy.Mode.HANG);
        assertThatThrownBy(() -> get(Duration.ofMillis(500))).isInstanceOf(HttpTimeoutException.class);
        proxy.mode(FaultProxy.Mode.PASS);
        assertThat(get(Duration.ofSeconds(5))).isEqualTo("pong");
    }

    private String get(Duration timeout) throws Exception {
        return http.send(HttpRequest.newBuilder(viaProxy).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
