package io.gpupipe.router.aws;

import io.gpupipe.model.scaling.TierWake;
import io.gpupipe.router.wake.TierWaker;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.LambdaClientBuilder;
import software.amazon.awssdk.services.lambda.model.InvocationType;

/**
 * The wake as an asynchronous Lambda Invoke of the scaling-metric function ({@code InvocationType=Event}: Lambda
 * queues the event and answers 202 at once, Lambda developer guide "Invoking a Lambda function asynchronously"), so
 * the submission waits for the hand-over only, never for the scaling function. One attempt, bounded by the
 * configured timeout: a failed wake leaves the tier to its next scheduled scaling run.
 */
public final class LambdaTierWaker implements TierWaker, AutoCloseable {
    private final LambdaClient lambda;
    private final String function;

    public LambdaTierWaker(LambdaClient lambda, String function) {
        this.lambda = lambda;
        this.function = function;
    }

    /** Credentials come from the SDK's default chain (the router's role; system properties or env vars locally). */
    public static LambdaTierWaker create(ClientSettings config, String function) {
        LambdaClientBuilder builder = LambdaClient.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(config.timeout())
                        .socketTimeout(config.timeout())
                        .build())
                .overrideConfiguration(o -> o.apiCallTimeout(config.timeout())
                        .retryStrategy(AwsRetryStrategy.doNotRetry()));
        config.region().map(Region::of).ifPresent(builder::region);
        config.endpointOverride().ifPresent(builder::endpointOverride);
        return new LambdaTierWaker(builder.build(), function);
    }

    @Override
    public void wake(TierWake wake) {
        int status = lambda.invoke(b -> b.functionName(function).invocationType(InvocationType.EVENT)
                .payload(SdkBytes.fromUtf8String(wake.toJson()))).statusCode();
        if (status != 202) {
            throw new IllegalStateException("Lambda Invoke of " + function + " answered " + status + ", not 202");
        }
    }

    @Override
    public void close() {
        lambda.close();
    }
}
