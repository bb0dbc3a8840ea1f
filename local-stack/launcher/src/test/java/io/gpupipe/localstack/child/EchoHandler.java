package io.gpupipe.localstack.child;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** A plain Lambda stream handler for the host tests: echoes the event with context values; "fail" throws. */
public class EchoHandler implements RequestStreamHandler {
    private static int initCount;

    public EchoHandler() {
        initCount++;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        String event = new String(input.readAllBytes(), StandardCharsets.UTF_8);
        if (event.contains("fail")) {
            throw new IllegalStateException("asked to fail");
        }
        context.getLogger().log("handling " + context.getAwsRequestId());
        String json = "{\"event\":" + event + ",\"function\":\"" + context.getFunctionName() + "\",\"memory\":"
                + context.getMemoryLimitInMB() + ",\"remainingPositive\":" + (context.getRemainingTimeInMillis() > 0)
                + ",\"arn\":\"" + context.getInvokedFunctionArn() + "\",\"inits\":" + initCount + "}";
        output.write(json.getBytes(StandardCharsets.UTF_8));
    }
}
