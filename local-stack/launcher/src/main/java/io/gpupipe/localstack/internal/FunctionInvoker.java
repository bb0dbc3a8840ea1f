package io.gpupipe.localstack.internal;

import java.io.IOException;

/** Synchronous invocation of a Lambda function with a raw event (a {@link LambdaFunction}, or a test's own). */
@FunctionalInterface
public interface FunctionInvoker {
    Invocation invoke(byte[] event) throws IOException;

    /**
     * The outcome of one invocation: the handler's output, or the error document when {@code ok} is false. Declared
     * here, with the call it answers, so {@link LambdaFunction} (which inherits it as
     * {@code LambdaFunction.Invocation}) and the invoker do not depend on each other.
     */
    record Invocation(boolean ok, boolean timedOut, byte[] payload) {
    }
}
