package io.gpupipe.router;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.router.internal.CallerIdentities;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.quarkus.vertx.http.runtime.QuarkusHttpHeaders;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.function.Function;

/**
 * The caller of the current request: the API Gateway event the Lambda handler received is kept with the request
 * (what quarkus-amazon-lambda-http's own {@code @Context} producers read), and its authorizer context names the
 * caller ({@link CallerIdentities}). A request without the identity the deployment requires is answered 401 before
 * anything is read or written.
 */
@Singleton
public class Callers {
    private final CurrentVertxRequest current;
    private final CallerIdentities identities;

    Callers(CurrentVertxRequest current, RouterConfig config) {
        this.current = current;
        this.identities = new CallerIdentities(config.auth(), config.jwtTenantClaim(), config.iamCallerScope());
    }

    /** {@code answer} for the current caller's owner, or 401 when the request carries no identity it must. */
    public Response asOwner(Function<Owner, Response> answer) {
        Optional<CallerIdentity> caller = identities.of(event().map(APIGatewayV2HTTPEvent::getRequestContext)
                .orElse(null));
        return caller.map(c -> answer.apply(c.owner())).orElseGet(() -> ApiResponses.unauthenticated(
                identities.mode()));
    }

    private Optional<APIGatewayV2HTTPEvent> event() {
        RoutingContext routing = current.getCurrent();
        MultiMap headers = routing == null ? null : routing.request().headers();
        if (headers instanceof QuarkusHttpHeaders quarkus) {
            return Optional.ofNullable((APIGatewayV2HTTPEvent) quarkus.getContextObjects()
                    .get(APIGatewayV2HTTPEvent.class));
        }
        return Optional.empty();
    }
}
