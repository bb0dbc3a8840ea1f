package io.gpupipe.localstack.apigateway;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;
import software.amazon.awssdk.regions.Region;

/**
 * API Gateway's IAM authorizer for the local HTTP API: a request signed with SigV4 ({@code Authorization:
 * AWS4-HMAC-SHA256 Credential=KEY/DATE/REGION/SERVICE/aws4_request, SignedHeaders=..., Signature=...}) is accepted
 * when the key is one of {@link LocalIamPrincipals}, the scope names the stack's region and service
 * {@code execute-api}, {@code X-Amz-Date} is within 5 minutes of now and on the scope's date, and the signature is
 * the one the AWS SDK for Java's own signer computes over the received request (method, path, query, the signed
 * headers, body) with the key's secret and session token at that time; the two are compared in constant time.
 * Anything else is refused (403, as API Gateway does). Headers only: no query-string signatures.
 * <p>
 * The signer is {@link AwsV4HttpSigner} when the client signed {@code x-amz-content-sha256} (the AWS SDKs for Java
 * v2 and JavaScript v3 do). That signer always adds and signs the header, so it cannot reproduce the signature of a
 * client that does not send it (botocore, {@code aws}, {@code awscurl}, {@code curl --aws-sigv4}); for those the
 * SDK's {@code Aws4Signer}, which signs exactly the headers given, recomputes it.
 */
public final class SigV4Authorizer {
    /** The Authorization scheme of a SigV4-signed request. */
    public static final String SCHEME = "AWS4-HMAC-SHA256";
    /** The signing name of API Gateway's execute API. */
    public static final String SERVICE = "execute-api";
    /** How far {@code X-Amz-Date} may be from now, either way (SigV4's limit). */
    static final Duration MAX_SKEW = Duration.ofMinutes(5);
    private static final String CONTENT_SHA256 = "x-amz-content-sha256";
    private static final Pattern AUTHORIZATION = Pattern.compile("^" + SCHEME + "\\s+Credential=([^/,\\s]+)/"
            + "([0-9]{8})/([^/,\\s]+)/([^/,\\s]+)/aws4_request,\\s*SignedHeaders=([^,\\s]+),\\s*"
            + "Signature=([0-9a-f]{64})$");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private final LocalIamPrincipals principals;
    private final String region;
    private final Clock clock;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    public SigV4Authorizer(LocalIamPrincipals principals, String region, Clock clock) {
        this.principals = principals;
        this.region = region;
        this.clock = clock;
    }

    /** What the authorizer decides for a request. */
    public sealed interface Decision {
        /** The signature holds: the request is this session's. */
        record Caller(LocalIamPrincipals.Principal principal) implements Decision {
        }

        /** Refused (403); {@code reason} is for the stack's log, never the answer, as API Gateway's. */
        record Refused(String reason) implements Decision {
        }
    }

    /** True when {@code authorization} claims a SigV4 signature (checked or not). */
    public static boolean isSigV4(String authorization) {
        return authorization != null && authorization.strip().startsWith(SCHEME);
    }

    /** The decision for {@code request} as received (headers in any case). */
    public Decision authorize(HttpApiPayload.Request request) {
        Matcher auth = AUTHORIZATION.matcher(header(request, "authorization").orElse("").strip());
        if (!auth.matches()) {
            return new Decision.Refused("the Authorization header is no SigV4 signature");
        }
        Optional<LocalIamPrincipals.Principal> principal = principals.byAccessKey(auth.group(1));
        if (principal.isEmpty()) {
            return new Decision.Refused("the security token included in the request is invalid (unknown key)");
        }
        if (!region.equals(auth.group(3)) || !SERVICE.equals(auth.group(4))) {
            return new Decision.Refused("the credential scope names " + auth.group(3) + "/" + auth.group(4)
                    + ", not " + region + "/" + SERVICE);
        }
        Optional<Instant> signedAt = header(request, "x-amz-date").flatMap(SigV4Authorizer::amzDate);
        if (signedAt.isEmpty() || !AMZ_DATE.format(signedAt.get()).startsWith(auth.group(2))) {
            return new Decision.Refused("no X-Amz-Date of the credential scope's day");
        }
        if (Duration.between(signedAt.get(), clock.instant()).abs().compareTo(MAX_SKEW) > 0) {
            return new Decision.Refused("signature expired: X-Amz-Date " + AMZ_DATE.format(signedAt.get())
                    + " is more than " + MAX_SKEW.toMinutes() + " minutes from now");
        }
        List<String> signedHeaders = List.of(auth.group(5).split(";"));
        if (!signedHeaders.contains("host") || !signedHeaders.contains("x-amz-date")) {
            return new Decision.Refused("the signed headers must include host and x-amz-date");
        }
        Optional<Matcher> expected = expectedAuthorization(request, principal.get(), signedHeaders, signedAt.get());
        boolean holds = expected.isPresent() && expected.get().group(5).equals(auth.group(5))
                && MessageDigest.isEqual(expected.get().group(6).getBytes(StandardCharsets.US_ASCII),
                auth.group(6).getBytes(StandardCharsets.US_ASCII));
        return holds ? new Decision.Caller(principal.get()) : new Decision.Refused("the request signature we "
                + "calculated does not match the signature you provided");
    }

    /**
     * The Authorization header the SDK's signer makes of the received request's signed parts with the session's
     * credentials at {@code signedAt}; empty when a signed header is missing or the request cannot be signed.
     */
    private Optional<Matcher> expectedAuthorization(HttpApiPayload.Request request,
                                                    LocalIamPrincipals.Principal principal,
                                                    List<String> signedHeaders, Instant signedAt) {
        SdkHttpRequest.Builder received;
        try {
            String query = request.rawQuery() == null || request.rawQuery().isEmpty() ? "" : "?" + request.rawQuery();
            received = SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(request.method()))
                    .uri(URI.create("http://" + header(request, "host").orElse("localhost") + request.rawPath()
                            + query));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        for (String name : signedHeaders) {
            List<String> values = values(request, name);
            if (values.isEmpty()) {
                return Optional.empty();
            }
            received.putHeader(name, values);
        }
        Clock at = Clock.fixed(signedAt, ZoneOffset.UTC);
        String authorization = signedHeaders.contains(CONTENT_SHA256)
                ? signer.sign(r -> r.identity(AwsSessionCredentialsIdentity.create(principal.accessKeyId(),
                                principal.secretAccessKey(), principal.sessionToken()))
                        .request(received.build())
                        .payload(ContentStreamProvider.fromByteArray(request.body()))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SERVICE)
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                        .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, at))
                .request().firstMatchingHeader("Authorization").orElse("")
                : signedAsGiven(received, request.body(), principal, at);
        Matcher expected = AUTHORIZATION.matcher(authorization);
        return expected.matches() ? Optional.of(expected) : Optional.empty();
    }

    /** The Authorization header of the SDK's {@code Aws4Signer}, which signs the request's headers and no others. */
    @SuppressWarnings("deprecation") // its successor, AwsV4HttpSigner, always adds x-amz-content-sha256
    private String signedAsGiven(SdkHttpRequest.Builder received, byte[] body, LocalIamPrincipals.Principal principal,
                                 Clock at) {
        SdkHttpFullRequest full = SdkHttpFullRequest.builder().method(received.method()).protocol(received.protocol())
                .host(received.host()).port(received.port()).encodedPath(received.encodedPath())
                .rawQueryParameters(received.rawQueryParameters()).headers(received.headers())
                .contentStreamProvider(ContentStreamProvider.fromByteArray(body)).build();
        software.amazon.awssdk.auth.signer.params.Aws4SignerParams params =
                software.amazon.awssdk.auth.signer.params.Aws4SignerParams.builder()
                        .awsCredentials(AwsSessionCredentials.create(principal.accessKeyId(),
                                principal.secretAccessKey(), principal.sessionToken()))
                        .signingName(SERVICE).signingRegion(Region.of(region)).signingClockOverride(at).build();
        return software.amazon.awssdk.auth.signer.Aws4Signer.create().sign(full, params)
                .firstMatchingHeader("Authorization").orElse("");
    }

    private static Optional<Instant> amzDate(String value) {
        try {
            return Optional.of(Instant.from(AMZ_DATE.parse(value.strip())));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> header(HttpApiPayload.Request request, String name) {
        return values(request, name).stream().findFirst();
    }

    private static List<String> values(HttpApiPayload.Request request, String name) {
        return request.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(List.of());
    }
}
