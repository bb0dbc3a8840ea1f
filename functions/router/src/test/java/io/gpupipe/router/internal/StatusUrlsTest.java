package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatusUrlsTest {
    private static final String ID = "3f1c2b8e-7d4a-4c1e-9b2f-0a1b2c3d4e5f";

    @Test
    void of_shouldUseConfiguredBase_whenPublicBaseUrlIsSet() {
        StatusUrls urls = new StatusUrls(Optional.of(URI.create("https://api.example.com/")));
        assertThat(urls.of(ID, "internal:8080", "http")).isEqualTo("https://api.example.com/v1/jobs/" + ID);
        assertThat(new StatusUrls(Optional.of(URI.create("https://api.example.com/prod"))).of(ID, null, null))
                .isEqualTo("https://api.example.com/prod/v1/jobs/" + ID);
    }

    @Test
    void of_shouldUseHostAndForwardedProto_whenNoBaseIsConfigured() {
        StatusUrls urls = new StatusUrls(Optional.empty());
        assertThat(urls.of(ID, "abc.execute-api.us-east-1.amazonaws.com", "https"))
                .isEqualTo("https://abc.execute-api.us-east-1.amazonaws.com/v1/jobs/" + ID);
        assertThat(urls.of(ID, "localhost:3000", null)).isEqualTo("http://localhost:3000/v1/jobs/" + ID);
        assertThat(urls.of(ID, "api.example.com", "HTTPS, http")).isEqualTo("https://api.example.com/v1/jobs/" + ID);
        assertThat(urls.of(ID, "api.example.com", "gopher")).isEqualTo("http://api.example.com/v1/jobs/" + ID);
    }

    @Test
    void of_shouldAnswerRelativePath_whenHostIsMissingOrMalformed() {
        StatusUrls urls = new StatusUrls(Optional.empty());
        assertThat(urls.of(ID, null, "https")).isEqualTo("/v1/jobs/" + ID);
        assertThat(urls.of(ID, "", "https")).isEqualTo("/v1/jobs/" + ID);
        assertThat(urls.of(ID, "evil.example/phish?", "https")).isEqualTo("/v1/jobs/" + ID);
        assertThat(urls.of(ID, "a b", "https")).isEqualTo("/v1/jobs/" + ID);
    }
}
