package io.gpupipe.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.model.notify.CallbackSignature;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The shared webhook receiver answers and keeps what the notifier's and the soak's tests rely on. */
class CallbackReceiverTest {
    private static final String SECRET = "receiver-test-secret";
    private static final String EVENT = "{\"requestId\":\"r-1\",\"status\":\"failed\",\"errorCode\":\"model_timeout\"}";
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void receiver_shouldAnswerScriptedStatusesInOrder_thenOk_andRecordEveryRequest() throws Exception {
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            receiver.script("/hooks/flaky", 503, 500);

            int[] statuses = {post(receiver.url("/hooks/flaky"), EVENT, null), post(receiver.url("/hooks/flaky"),
                    EVENT, null), post(receiver.url("/hooks/flaky"), EVENT, null), post(receiver.url("/other"), "x",
                    null)};

            assertThat(statuses).containsExactly(503, 500, 200, 200);
            assertThat(receiver.received("/hooks/flaky")).hasSize(3).allSatisfy(r -> assertThat(r.body())
                    .isEqualTo(EVENT));
            assertThat(receiver.received()).hasSize(4);
        }
    }

    @Test
    void verifying_shouldKeepSignedCallbacksByRequestId_andRefuseTheRest() throws Exception {
        try (CallbackReceiver receiver = CallbackReceiver.verifying(SECRET)) {
            int signed = post(receiver.base() + "/hook/r-1", EVENT, SECRET);
            int wrongKey = post(receiver.base() + "/hook/r-1", EVENT, "another-secret");
            int unsigned = post(receiver.base() + "/hook/r-1", EVENT, null);
            int noRequestId = post(receiver.base() + "/hook/r-1", "{\"status\":\"succeeded\"}", SECRET);

            assertThat(new int[] {signed, wrongKey, unsigned, noRequestId}).containsExactly(204, 401, 401, 401);
            assertThat(receiver.verified("r-1")).singleElement().satisfies(r -> {
                assertThat(r.event().path("status").asText()).isEqualTo("failed");
                assertThat(r.event().path("errorCode").asText()).isEqualTo("model_timeout");
            });
            assertThat(receiver.verified("r-2")).isEmpty();
            assertThat(receiver.rejected()).isEqualTo(3);
        }
    }

    /** Posts {@code body}, signed with {@code secret} as the notifier signs (unsigned when null); the status. */
    private int post(String url, String body, String secret) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        if (secret != null) {
            long now = Instant.now().getEpochSecond();
            request.header(CallbackSignature.ID_HEADER, "msg_1").header(CallbackSignature.TIMESTAMP_HEADER,
                    Long.toString(now)).header(CallbackSignature.SIGNATURE_HEADER,
                    CallbackSignature.sign(CallbackKey.of(secret), "msg_1", now, body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
