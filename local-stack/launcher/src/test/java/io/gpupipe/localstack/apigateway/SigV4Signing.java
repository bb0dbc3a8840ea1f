package io.gpupipe.localstack.apigateway;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Signs requests as an AWS SDK for Java user does (the SDK's {@link AwsV4HttpSigner}), for the tests of the local
 * IAM authorizer: with a session's credentials, or with anything a test wants to get wrong (service, region, time,
 * secret).
 */
public record SigV4Signing(AwsCredentialsIdentity credentials, String service, String region, Clock clock) {

    /** Signing as {@code session} for {@code execute-api} in {@code region}, now. */
    public static SigV4Signing as(LocalIamPrincipals.Principal session, String region) {
        return new SigV4Signing(AwsSessionCredentialsIdentity.create(session.accessKeyId(),
                session.secretAccessKey(), session.sessionToken()), SigV4Authorizer.SERVICE, region,
                Clock.systemUTC());
    }

    public SigV4Signing withService(String other) {
        return new SigV4Signing(credentials, other, region, clock);
    }

    public SigV4Signing withRegion(String other) {
        return new SigV4Signing(credentials, service, other, clock);
    }

    public SigV4Signing withClock(Clock other) {
        return new SigV4Signing(credentials, service, region, other);
    }

    public SigV4Signing withCredentials(AwsCredentialsIdentity other) {
        return new SigV4Signing(other, service, region, clock);
    }

    /**
     * The headers to send with {@code method} {@code uri} and {@code body} (null: none): {@code headers} plus the
     * signature's ({@code Authorization}, {@code X-Amz-Date}, {@code X-Amz-Security-Token}, {@code Host}).
     */
    public Map<String, List<String>> sign(String method, URI uri, Map<String, String> headers, String body) {
        SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder().uri(uri).method(SdkHttpMethod.fromValue(method));
        headers.forEach(unsigned::putHeader);
        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials).request(unsigned.build())
                .payload(body == null ? null : ContentStreamProvider.fromString(body, StandardCharsets.UTF_8))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock));
        Map<String, List<String>> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        all.putAll(signed.request().headers());
        if (!all.containsKey("Host")) {
            all.put("Host", List.of(uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())));
        }
        return all;
    }
}
