package io.gpupipe.router;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.OwnerIdKeys;
import io.gpupipe.router.internal.CallerRates;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.quarkus.vertx.http.runtime.QuarkusHttpHeaders;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Resolves the caller of every API request once, before its resource method runs: the API Gateway event the Lambda
 * handler received is kept with the request (what quarkus-amazon-lambda-http's own {@code @Context} producers read),
 * and its authorizer context names the caller ({@link CallerIdentities}). A request without the identity the
 * deployment requires is answered 401 here, before anything is read or written, and so is a caller over its request
 * rate ({@link CallerRates}: 429); otherwise the resource methods read the caller's owner ids from
 * {@link CurrentCaller} (derived with the deployment's owner-id keys, {@link OwnerIdKeys}).
 * Application-scoped (a client proxy): RESTEasy creates its filters at build time, before the configuration this
 * reads is there.
 */
@ApplicationScoped
public class Callers {
    private final CurrentVertxRequest current;
    private final CallerIdentities identities;
    private final CurrentCaller caller;
    private final CallerRates rates;
    private final OwnerIdKeys ownerIds;

    Callers(CurrentVertxRequest current, RouterConfig config, CurrentCaller caller, CallerRates rates,
            OwnerIdKeys ownerIds) {
        this.current = current;
        this.ownerIds = ownerIds;
        this.identities = new CallerIdentities(config.auth(), config.jwtTenantClaim(), config.iamCallerScope());
        this.caller = caller;
        this.rates = rates;
    }

    /**
     * Empty to go on (the caller is known now); 401 when the request carries no identity it must, 429 when its
     * caller is over its request rate.
     */
    @ServerRequestFilter
    public Optional<Response> identify() {
        Optional<CallerIdentity> identity = identities.of(event().map(APIGatewayV2HTTPEvent::getRequestContext)
                .orElse(null));
        if (identity.isEmpty()) {
            return Optional.of(ApiResponses.unauthenticated(identities.mode()));
        }
        CallerOwners owners = ownerIds.of(identity.get());
        caller.set(owners);
        return rates.take(owners.current().value())
                .map(wait -> ApiResponses.rateLimited(rates.perSecond(), wait));
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
