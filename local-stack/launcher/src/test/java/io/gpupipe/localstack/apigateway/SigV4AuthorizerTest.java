package io.gpupipe.localstack.apigateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * The local IAM authorizer against requests the AWS SDK for Java's own signer signs: the right session's request
 * passes, and every way API Gateway's IAM authorizer refuses one is refused (signature, key, token, service,
 * region, date), without a stack.
 */
class SigV4AuthorizerTest {
    private static final String REGION = "us-east-1";
    private static final URI JOBS = URI.create("http://localhost:8080/v1/jobs");
    private static final String BODY = "{\"prompt\":\"Once upon a time\"}";
    private static final Instant NOW = Instant.parse("2026-12-03T23:30:00Z");

    private final LocalIamPrincipals principals = LocalIamPrincipals.generate();
    private final LocalIamPrincipals.Principal session = principals.all().get(0);
    private final SigV4Authorizer authorizer = new SigV4Authorizer(principals, REGION,
            Clock.fixed(NOW, ZoneOffset.UTC));
    private final SigV4Signing signing = SigV4Signing.as(session, REGION).withClock(Clock.fixed(NOW,
            ZoneOffset.UTC));

    @Test
    void authorize_shouldNameTheSession_whenItsSdkSignedTheRequest() {
        for (LocalIamPrincipals.Principal each : principals.all()) {
            SigV4Signing as = SigV4Signing.as(each, REGION).withClock(Clock.fixed(NOW, ZoneOffset.UTC));
            assertThat(authorizer.authorize(post(as, JOBS, BODY))).as(each.userArn())
                    .isEqualTo(new SigV4Authorizer.Decision.Caller(each));
        }
        URI status = URI.create("http://localhost:8080/v1/jobs/3f1c2b8e-7d4a-4c1e-9b2f-0a1b2c3d4e5f?x=a%20b&y=1");
        assertThat(authorizer.authorize(request("GET", status, signing.sign("GET", status, Map.of(), null), null)))
                .isInstanceOf(SigV4Authorizer.Decision.Caller.class);
    }

    @Test
    void authorize_shouldRefuse_whenTheSignatureDoesNotHold() {
        AwsCredentialsIdentity wrongSecret = AwsSessionCredentialsIdentity.create(session.accessKeyId(),
                session.secretAccessKey() + "x", session.sessionToken());
        AwsCredentialsIdentity wrongToken = AwsSessionCredentialsIdentity.create(session.accessKeyId(),
                session.secretAccessKey(), session.sessionToken() + "x");
        AwsCredentialsIdentity noToken = AwsCredentialsIdentity.create(session.accessKeyId(),
                session.secretAccessKey());
        AwsCredentialsIdentity unknownKey = AwsSessionCredentialsIdentity.create("ASIAUNKNOWNKEY000000",
                session.secretAccessKey(), session.sessionToken());
        Map<String, List<String>> signed = signing.sign("POST", JOBS, Map.of("Content-Type", "application/json"),
                BODY);
        Map<String, HttpApiPayload.Request> refused = new LinkedHashMap<>();
        refused.put("another secret", post(signing.withCredentials(wrongSecret), JOBS, BODY));
        refused.put("another session token", post(signing.withCredentials(wrongToken), JOBS, BODY));
        refused.put("no session token", post(signing.withCredentials(noToken), JOBS, BODY));
        refused.put("an unknown key", post(signing.withCredentials(unknownKey), JOBS, BODY));
        refused.put("another body", request("POST", JOBS, signed, BODY.replace("Once", "Twice")));
        refused.put("another path", request("POST", URI.create("http://localhost:8080/infer"), signed, BODY));
        refused.put("another signed header value", request("POST", JOBS, with(signed, "Content-Type",
                "text/plain"), BODY));
        refused.put("a bearer token", request("POST", JOBS, with(signed, "Authorization", "Bearer x"), BODY));
        refused.put("a malformed signature", request("POST", JOBS, with(signed, "Authorization",
                signed.get("Authorization").get(0).replaceAll("Signature=.*", "Signature=abc")), BODY));

        refused.forEach((why, request) -> assertThat(authorizer.authorize(request)).as(why)
                .isInstanceOf(SigV4Authorizer.Decision.Refused.class));
    }

    @Test
    void authorize_shouldRefuse_whenSignedForAnotherServiceOrRegion() {
        assertThat(authorizer.authorize(post(signing.withService("s3"), JOBS, BODY)))
                .isInstanceOf(SigV4Authorizer.Decision.Refused.class);
        assertThat(authorizer.authorize(post(signing.withService("lambda"), JOBS, BODY)))
                .isInstanceOf(SigV4Authorizer.Decision.Refused.class);
        assertThat(authorizer.authorize(post(signing.withRegion("eu-west-1"), JOBS, BODY)))
                .isInstanceOf(SigV4Authorizer.Decision.Refused.class);
    }

    @Test
    void authorize_shouldRefuse_whenSignedMoreThanFiveMinutesFromNow_eitherWay() {
        for (Duration off : new Duration[] {Duration.ofMinutes(-6), Duration.ofMinutes(6), Duration.ofDays(-1)}) {
            SigV4Signing stale = signing.withClock(Clock.fixed(NOW.plus(off), ZoneOffset.UTC));
            assertThat(authorizer.authorize(post(stale, JOBS, BODY))).as(off.toString())
                    .isInstanceOf(SigV4Authorizer.Decision.Refused.class);
        }
        for (Duration off : new Duration[] {Duration.ofMinutes(-4), Duration.ofMinutes(4)}) {
            SigV4Signing skewed = signing.withClock(Clock.fixed(NOW.plus(off), ZoneOffset.UTC));
            assertThat(authorizer.authorize(post(skewed, JOBS, BODY))).as(off.toString())
                    .isInstanceOf(SigV4Authorizer.Decision.Caller.class);
        }
    }

    @Test
    void authorize_shouldAcceptASignatureByBotocore_whichSignsNoContentHashHeader() {
        // given: what botocore 1.43 (SigV4Auth, as `aws` and awscurl sign) sent for these credentials at this time:
        // an independent implementation's signature, without the x-amz-content-sha256 header the Java SDK adds
        LocalIamPrincipals.Principal known = new LocalIamPrincipals.Principal("ASIAX", "secret", "tok", "caller-a",
                "replica-1");
        Instant signedAt = Instant.parse("2026-12-04T00:23:39Z");
        SigV4Authorizer at = new SigV4Authorizer(new LocalIamPrincipals(List.of(known)), REGION,
                Clock.fixed(signedAt.plusSeconds(30), ZoneOffset.UTC));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Accept", List.of("application/json"));
        headers.put("Content-type", List.of("application/json"));
        headers.put("Host", List.of("localhost:8080"));
        headers.put("X-amz-date", List.of("20261204T002339Z"));
        headers.put("X-amz-security-token", List.of("tok"));
        headers.put("Authorization", List.of("AWS4-HMAC-SHA256 Credential=ASIAX/20261204/us-east-1/execute-api/"
                + "aws4_request, SignedHeaders=accept;content-type;host;x-amz-date;x-amz-security-token, "
                + "Signature=edba57f09da6c615be533ffec493dafdad54634da3d2b2943d10120617c17635"));

        // when, then
        assertThat(at.authorize(new HttpApiPayload.Request("POST", "/v1/jobs", null, headers,
                "{}".getBytes(StandardCharsets.UTF_8), "127.0.0.1", "HTTP/1.1")))
                .isEqualTo(new SigV4Authorizer.Decision.Caller(known));
        assertThat(at.authorize(new HttpApiPayload.Request("POST", "/v1/jobs", null, headers,
                "{ }".getBytes(StandardCharsets.UTF_8), "127.0.0.1", "HTTP/1.1")))
                .isInstanceOf(SigV4Authorizer.Decision.Refused.class);
    }

    @Test
    void principals_shouldBeSessionsOfTwoRoles_withFreshCredentialsEachStart() {
        List<LocalIamPrincipals.Principal> all = principals.all();
        LocalIamPrincipals other = LocalIamPrincipals.generate();

        assertThat(all).extracting(LocalIamPrincipals.Principal::userArn).containsExactly(
                "arn:aws:sts::000000000000:assumed-role/caller-a/replica-1",
                "arn:aws:sts::000000000000:assumed-role/caller-a/replica-2",
                "arn:aws:sts::000000000000:assumed-role/caller-b/replica-1");
        assertThat(all.get(0).identity()).isEqualTo(all.get(1).identity()).isNotEqualTo(all.get(2).identity());
        assertThat(all.get(0).roleId()).isEqualTo(all.get(1).roleId()).startsWith("AROA").hasSize(21);
        assertThat(all).extracting(LocalIamPrincipals.Principal::accessKeyId).doesNotHaveDuplicates()
                .allSatisfy(key -> assertThat(key).matches("ASIA[A-Z2-7]{16}"))
                .doesNotContainAnyElementsOf(other.all().stream().map(LocalIamPrincipals.Principal::accessKeyId)
                        .toList());
        assertThat(principals.byAccessKey(all.get(2).accessKeyId())).hasValue(all.get(2));
        assertThat(principals.byAccessKey("ASIAUNKNOWN")).isEmpty();
    }

    private static HttpApiPayload.Request post(SigV4Signing signing, URI uri, String body) {
        return request("POST", uri, signing.sign("POST", uri, Map.of("Content-Type", "application/json"), body),
                body);
    }

    /** The request as the facade receives it: the header names as the JDK's server gives them. */
    private static HttpApiPayload.Request request(String method, URI uri, Map<String, List<String>> headers,
                                                  String body) {
        Map<String, List<String>> received = new LinkedHashMap<>();
        headers.forEach((name, values) -> received.put(name.substring(0, 1).toUpperCase() + name.substring(1)
                .toLowerCase(), values));
        return new HttpApiPayload.Request(method, uri.getRawPath(), uri.getRawQuery(), received,
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8), "127.0.0.1", "HTTP/1.1");
    }

    private static Map<String, List<String>> with(Map<String, List<String>> headers, String name, String value) {
        Map<String, List<String>> changed = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        changed.putAll(headers);
        changed.put(name, List.of(value));
        return changed;
    }
}
