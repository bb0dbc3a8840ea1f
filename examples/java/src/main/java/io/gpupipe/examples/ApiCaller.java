package io.gpupipe.examples;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * The HTTP API, authenticated one of three ways: a bearer token (the local stack, or a stack deployed with
 * {@code Auth=JWT}), SigV4 for service {@code execute-api} with the default credential chain (AWS, {@code Auth=IAM}),
 * or nothing (the local stack's anonymous caller). Presigned result links are fetched as they are: they carry their
 * own signature.
 */
final class ApiCaller {
    /** One answer: its status and body. */
    record Reply(int status, String body) {
    }

    private final String base;
    private final String token;
    private final String region;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final AwsV4HttpSigner signer;
    private final DefaultCredentialsProvider credentials;

    ApiCaller(String base, String token, String region, boolean sigv4) {
        this.base = base.replaceAll("/+$", "");
        this.token = token;
        this.region = region;
        boolean signs = token == null && (sigv4 || this.base.startsWith("https://"));
        this.signer = signs ? AwsV4HttpSigner.create() : null;
        this.credentials = signs ? DefaultCredentialsProvider.builder().build() : null;
        if (signs && region == null) {
            throw new IllegalArgumentException("SigV4 needs a region (--region or AWS_REGION), or pass --token");
        }
    }

    Reply call(String method, String pathOrUrl, String body) throws IOException, InterruptedException {
        URI uri = URI.create(pathOrUrl.contains("://") ? pathOrUrl : base + pathOrUrl);
        Map<String, List<String>> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.put("Accept", List.of("application/json"));
        if (body != null) {
            headers.put("Content-Type", List.of("application/json"));
        }
        if (uri.toString().startsWith(base + "/")) {
            if (token != null) {
                headers.put("Authorization", List.of("Bearer " + token));
            } else if (signer != null) {
                headers = sign(method, uri, body, headers);
            }
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        // Host is set by the client from the URI (it is a restricted header), to the value that was signed
        headers.forEach((name, values) -> values.forEach(value -> {
            if (!name.equalsIgnoreCase("host")) {
                request.header(name, value);
            }
        }));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.body());
    }

    private Map<String, List<String>> sign(String method, URI uri, String body, Map<String, List<String>> headers) {
        SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder().uri(uri).method(SdkHttpMethod.fromValue(method));
        headers.forEach(unsigned::putHeader);
        AwsCredentialsIdentity identity = credentials.resolveIdentity().join();
        SignedRequest signed = signer.sign(r -> r.identity(identity).request(unsigned.build())
                .payload(body == null ? null : ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        return signed.request().headers();
    }
}
