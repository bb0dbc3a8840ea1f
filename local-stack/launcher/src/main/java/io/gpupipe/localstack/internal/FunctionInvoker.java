package io.gpupipe.localstack.internal;

import java.io.IOException;

/** Synchronous invocation of a Lambda function with a raw event (a {@link LambdaFunction}, or a test's own). */
@FunctionalInterface
public interface FunctionInvoker {
    LambdaFunction.Invocation invoke(byte[] event) throws IOException;
}
