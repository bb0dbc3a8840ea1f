package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskIdentityTest {
    private static final String TASK_ARN = "arn:aws:ecs:us-west-2:111122223333:task/gpu-cluster/0123456789abcdef";

    @Test
    void resolve_shouldUseConfiguredValue_whenNotOnEcs() {
        assertThat(TaskIdentity.resolve("local", Map.of())).isEqualTo("local");
    }

    @Test
    void resolve_shouldReadTaskArn_fromTheTaskMetadataEndpoint() throws Exception {
        // given a stand-in for the ECS task metadata endpoint v4 (GET ${ECS_CONTAINER_METADATA_URI_V4}/task)
        HttpServer metadata = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        metadata.createContext("/v4/abc/task", exchange -> {
            byte[] body = ("{\"Cluster\":\"gpu-cluster\",\"TaskARN\":\"" + TASK_ARN + "\",\"Family\":\"worker\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        metadata.start();
        try {
            String uri = "http://127.0.0.1:" + metadata.getAddress().getPort() + "/v4/abc";
            // when
            String arn = TaskIdentity.resolve("local", Map.of(TaskIdentity.METADATA_ENV, uri));
            // then
            assertThat(arn).isEqualTo(TASK_ARN);
        } finally {
            metadata.stop(0);
        }
    }

    @Test
    void resolve_shouldFallBackToConfiguration_whenMetadataEndpointIsUnreachable() {
        String arn = TaskIdentity.resolve("configured", Map.of(TaskIdentity.METADATA_ENV, "http://127.0.0.1:9/v4"));
        assertThat(arn).isEqualTo("configured");
    }
}
