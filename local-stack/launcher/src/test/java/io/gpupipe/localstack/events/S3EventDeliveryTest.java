package io.gpupipe.localstack.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.JobJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class S3EventDeliveryTest {
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final Console console = new Console(new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));

    private S3EventDelivery delivery() {
        return new S3EventDelivery(event -> {
            events.add(JobJson.mapper().readTree(event));
            boolean fail = failuresLeft.getAndDecrement() > 0;
            return new LambdaFunction.Invocation(!fail, false, "null".getBytes(StandardCharsets.UTF_8));
        }, (bucket, key) -> 77, console, Duration.ofMillis(10));
    }

    @Test
    void objectCreated_shouldDeliverOnlyResultJson_whenObjectsOfEveryKindAreWritten() {
        // given
        S3EventDelivery delivery = delivery();
        // when
        delivery.objectCreated("b", "jobs/1.json", 10, "e");
        delivery.objectCreated("b", "results/1.wav", 10, "e");
        delivery.objectCreated("b", "results/1.json", -1, "e");
        delivery.drain(Duration.ofSeconds(5));
        // then
        assertThat(events).hasSize(1);
        JsonNode object = events.get(0).path("Records").get(0).path("s3").path("object");
        assertThat(object.path("key").asText()).isEqualTo("results/1.json");
        assertThat(object.path("size").asLong()).isEqualTo(77);
        assertThat(delivery.delivered()).isEqualTo(1);
    }

    @Test
    void objectCreated_shouldRetryTwice_whenTheNotifierKeepsFailing() {
        // given
        failuresLeft.set(10);
        S3EventDelivery delivery = delivery();
        // when
        delivery.objectCreated("b", "results/1.json", 10, "e");
        delivery.drain(Duration.ofSeconds(5));
        // then
        assertThat(events).hasSize(3);
        assertThat(delivery.failed()).isEqualTo(1);
        assertThat(delivery.delivered()).isZero();
    }

    @Test
    void objectCreated_shouldTryOnce_whenTheFunctionAsksForNoRetries() {
        // given a function whose EventInvokeConfig says MaximumRetryAttempts: 0
        failuresLeft.set(10);
        S3EventDelivery delivery = new S3EventDelivery(event -> {
            events.add(JobJson.mapper().readTree(event));
            return new LambdaFunction.Invocation(failuresLeft.getAndDecrement() <= 0, false,
                    "null".getBytes(StandardCharsets.UTF_8));
        }, S3EventDelivery::matchesFilter, (bucket, key) -> 77, console, 0, Duration.ofMillis(10));
        // when
        delivery.objectCreated("b", "results/1.json", 10, "e");
        delivery.drain(Duration.ofSeconds(5));
        // then
        assertThat(events).hasSize(1);
        assertThat(delivery.failed()).isEqualTo(1);
    }

    @Test
    void objectCreated_shouldSucceedOnRetry_whenTheNotifierRecovers() {
        // given
        failuresLeft.set(1);
        S3EventDelivery delivery = delivery();
        // when
        delivery.objectCreated("b", "results/1.json", 10, "e");
        delivery.drain(Duration.ofSeconds(5));
        // then
        assertThat(events).hasSize(2);
        assertThat(delivery.delivered()).isEqualTo(1);
        assertThat(events.get(0)).isEqualTo(events.get(1));
    }
}
