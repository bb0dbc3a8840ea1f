package io.gpupipe.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.notify.CallbackTargetPolicy;
import io.gpupipe.testsupport.CallbackReceiver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pinned client connects to the checked address and nowhere else, while the request keeps the URL's host. The
 * name used here ({@code callback.invalid}) resolves nowhere ({@code .invalid} is reserved, RFC 2606), so only the
 * pinned address can make the request arrive.
 */
class PinnedCallbackClientTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private CallbackReceiver receiver;

    @BeforeEach
    void start() throws IOException {
        receiver = new CallbackReceiver();
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @Test
    void request_shouldReachTheCheckedAddress_withTheUrlsHostInTheHostHeader() throws IOException {
        // given: a target whose host was checked as 127.0.0.1 (the check itself is CallbackTargetPolicy's)
        URI uri = URI.create("http://callback.invalid:" + receiver.port() + "/hook");
        CallbackTargetPolicy.Verdict.Allowed target = new CallbackTargetPolicy.Verdict.Allowed(uri, false,
                List.of(InetAddress.getLoopbackAddress()));

        // when
        int status;
        try (CloseableHttpClient client = PinnedCallbackClient.of(target, TIMEOUT, TIMEOUT);
             ClassicHttpResponse response = client.executeOpen(null, ClassicRequestBuilder.post(uri).build(), null)) {
            status = response.getCode();
        }

        // then
        assertThat(status).isEqualTo(200);
        assertThat(receiver.received("/hook")).singleElement()
                .satisfies(r -> assertThat(r.headers().get("host")).isEqualTo("callback.invalid:" + receiver.port()));
    }

    @Test
    void request_shouldNotResolveAnotherHost_whenAskedForOneThatWasNotChecked() throws IOException {
        // given
        URI checked = URI.create("http://callback.invalid:" + receiver.port() + "/hook");
        CallbackTargetPolicy.Verdict.Allowed target = new CallbackTargetPolicy.Verdict.Allowed(checked, false,
                List.of(InetAddress.getLoopbackAddress()));

        // when / then: the client answers no other name, not even one the system would resolve
        try (CloseableHttpClient client = PinnedCallbackClient.of(target, TIMEOUT, TIMEOUT)) {
            assertThatThrownBy(() -> client.executeOpen(null, ClassicRequestBuilder.post(
                    URI.create("http://localhost:" + receiver.port() + "/other")).build(), null).close())
                    .isInstanceOf(UnknownHostException.class);
        }
        assertThat(receiver.received()).isEmpty();
    }
}
