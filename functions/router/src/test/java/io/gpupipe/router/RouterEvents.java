package io.gpupipe.router;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.util.Map;

/**
 * API Gateway v2 events as the Lambda runtime hands them to the router, each from a caller as API Gateway's JWT
 * authorizer names it.
 */
final class RouterEvents {
    private RouterEvents() {
    }

    /** {@code method path} with {@code body} (null: none) from the JWT subject {@code subject}. */
    static APIGatewayV2HTTPEvent request(String method, String path, String body, String subject) {
        APIGatewayV2HTTPEvent.RequestContext.Authorizer caller = APIGatewayV2HTTPEvent.RequestContext.Authorizer
                .builder().withJwt(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT.builder().withClaims(Map.of(
                        "iss", "https://idp.example.com", "sub", subject)).build()).build();
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0").withRouteKey("$default").withRawPath(path).withRawQueryString("")
                .withHeaders(Map.of("content-type", "application/json", "host", "api.example.com",
                        "x-forwarded-proto", "https"))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder().withStage("$default")
                        .withAuthorizer(caller)
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod(method)
                                .withPath(path).withSourceIp("127.0.0.1").build()).build())
                .withBody(body).withIsBase64Encoded(false).build();
    }
}
