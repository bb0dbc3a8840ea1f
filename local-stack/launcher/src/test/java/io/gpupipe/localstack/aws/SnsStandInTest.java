package io.gpupipe.localstack.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localstack.internal.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sns.model.NotFoundException;

/** The local stack's SNS stand-in (shared from local-aws) driven by the real SDK 2.57.8 client (AWS Query). */
class SnsStandInTest {
    @Test
    void publish_shouldRecordAndPrintTheMessage_whenTheSdkPublishesToAStackTopic() throws Exception {
        // given
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (SnsStandIn sns = LocalStandIns.sns(new Console(new PrintStream(output, true, StandardCharsets.UTF_8)));
             SnsClient client = SnsClient.builder().endpointOverride(sns.endpoint()).region(Region.US_EAST_1)
                     .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create())
                     .build()) {
            // when
            String id = client.publish(b -> b.topicArn(LocalStandIns.SUCCESS_TOPIC).message("{\"status\":\"ok\"}")
                    .messageAttributes(java.util.Map.of("status", MessageAttributeValue.builder().dataType("String")
                            .stringValue("succeeded").build()))).messageId();
            // then
            assertThat(id).isNotBlank();
            assertThat(sns.published()).singleElement().satisfies(p -> {
                assertThat(p.topicArn()).isEqualTo(LocalStandIns.SUCCESS_TOPIC);
                assertThat(p.message()).isEqualTo("{\"status\":\"ok\"}");
                assertThat(p.attributes()).containsEntry("status", "succeeded");
            });
            assertThat(output.toString(StandardCharsets.UTF_8)).contains("[sns] gpupipe-success <- {\"status\":\"ok\"}");
            assertThatThrownBy(() -> client.publish(b -> b.topicArn("arn:aws:sns:us-east-1:000000000000:other")
                    .message("x"))).isInstanceOf(NotFoundException.class);
        }
    }
}
