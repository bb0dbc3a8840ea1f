package io.gpupipe.localaws.standin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.localaws.LocalAws;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.InvalidParameterException;
import software.amazon.awssdk.services.sns.model.NotFoundException;
import software.amazon.awssdk.services.sns.model.PublishRequest;

/**
 * {@link SnsStandIn} driven by the real SnsClient of the SDK version the project uses (AWS Query protocol): accepted
 * messages are recorded, refused ones come back as the SDK's modeled exceptions, as from SNS.
 */
class SnsStandInTest {
    private static final String TOPIC = "arn:aws:sns:us-east-1:123456789012:gpupipe-alarms";

    private SnsStandIn standIn;
    private SnsClient sns;

    @BeforeEach
    void start() throws Exception {
        standIn = new SnsStandIn(Set.of(TOPIC));
        sns = SnsClient.builder().endpointOverride(standIn.endpoint()).region(Region.of(LocalAws.REGION))
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterEach
    void stop() {
        sns.close();
        standIn.close();
    }

    @Test
    void publish_shouldRecordTheMessage_whenSubjectAndMessageAreWithinTheLimits() {
        // when
        String id = sns.publish(b -> b.topicArn(TOPIC).subject("s".repeat(99))
                .message("m".repeat(SnsStandIn.MAX_MESSAGE_BYTES))).messageId();

        // then
        assertThat(standIn.published()).singleElement().satisfies(p -> {
            assertThat(p.messageId()).isEqualTo(id);
            assertThat(p.subject()).hasSize(99);
            assertThat(p.message()).hasSize(SnsStandIn.MAX_MESSAGE_BYTES);
        });
    }

    @Test
    void publish_shouldAnswerInvalidParameter_whenSnsWouldRefuseMessageOrSubject() {
        assertRefused(PublishRequest.builder().topicArn(TOPIC).message(""), "Empty message");
        // 262,144 bytes, not characters: 131,073 two-byte characters are too long
        assertRefused(PublishRequest.builder().topicArn(TOPIC).message("\u00e9".repeat(131_073)), "Message too long");
        assertRefused(PublishRequest.builder().topicArn(TOPIC).message("m").subject("s".repeat(100)), "Subject");
        assertRefused(PublishRequest.builder().topicArn(TOPIC).message("m").subject("two\nlines"), "Subject");
        assertThat(standIn.published()).isEmpty();
    }

    @Test
    void publish_shouldAnswerNotFound_whenTheTopicDoesNotExist() {
        assertThatThrownBy(() -> sns.publish(b -> b.topicArn(TOPIC + "-other").message("m")))
                .isInstanceOf(NotFoundException.class)
                .satisfies(e -> assertThat(((NotFoundException) e).statusCode()).isEqualTo(404));
    }

    private void assertRefused(PublishRequest.Builder request, String reason) {
        assertThatThrownBy(() -> sns.publish(request.build())).isInstanceOf(InvalidParameterException.class)
                .satisfies(e -> {
                    InvalidParameterException error = (InvalidParameterException) e;
                    assertThat(error.statusCode()).isEqualTo(400);
                    assertThat(error.awsErrorDetails().errorCode()).isEqualTo("InvalidParameter");
                    assertThat(error.awsErrorDetails().errorMessage()).isEqualTo("Invalid parameter: " + reason);
                });
    }
}
