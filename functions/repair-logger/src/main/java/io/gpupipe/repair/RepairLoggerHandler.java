package io.gpupipe.repair;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Named;

/**
 * EventBridge target for "ECS Container Instance State Change" and "ECS Container Instance Health Change". Takes
 * the raw JSON tree so that an unexpected shape reaches {@link RepairLogger}, which logs and acknowledges it,
 * instead of failing deserialisation (and being retried) before any code of ours runs.
 */
@Named("repair-logger")
public class RepairLoggerHandler implements RequestHandler<JsonNode, RepairReport> {
    private final RepairLogger logger;

    RepairLoggerHandler(RepairLogger logger) {
        this.logger = logger;
    }

    @Override
    public RepairReport handleRequest(JsonNode event, Context context) {
        return logger.handle(event);
    }
}
