package io.gpupipe.localstack.aws;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localaws.standin.LambdaStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localstack.internal.Console;
import java.io.IOException;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * The AWS control-plane stand-ins of local-aws (no SNS, ECS or CloudWatch runs on this machine) as the local stack
 * uses them: SNS knows the stack's two topics and prints each message it receives, so the result notifier's real
 * handler runs unchanged and the developer sees what it would publish; ECS reports each local worker as one running
 * task of its tier's service; CloudWatch answers no datapoints (there is no GPU here: no signal) and prints each
 * PutMetricData call of the scaling-metric function.
 */
public final class LocalStandIns {
    public static final String SUCCESS_TOPIC = "arn:aws:sns:" + LocalAws.REGION + ":000000000000:gpupipe-success";
    public static final String ERROR_TOPIC = "arn:aws:sns:" + LocalAws.REGION + ":000000000000:gpupipe-error";

    private LocalStandIns() {
    }

    /** SNS with {@link #SUCCESS_TOPIC} and {@link #ERROR_TOPIC}, printing {@code [sns] topic-name <- message}. */
    public static SnsStandIn sns(Console console) throws IOException {
        SnsStandIn sns = new SnsStandIn(Set.of(SUCCESS_TOPIC, ERROR_TOPIC));
        sns.onPublish(p -> console.component("sns", p.topicArn().substring(p.topicArn().lastIndexOf(':') + 1)
                + " <- " + p.message()));
        return sns;
    }

    /** ECS, where {@code runningTasks} tells how many tasks run (and are desired) for a service name. */
    public static EcsStandIn ecs(ToIntFunction<String> runningTasks) throws IOException {
        return new EcsStandIn(runningTasks);
    }

    /** Lambda's asynchronous Invoke (the router's wake of an idle tier reaches the scaling function through it). */
    public static LambdaStandIn lambda() throws IOException {
        return new LambdaStandIn();
    }

    /** CloudWatch, printing {@code [cloudwatch] PutMetricData namespace: Metric{dimensions} = value unit, ...}. */
    public static CloudWatchStandIn cloudWatch(Console console) throws IOException {
        CloudWatchStandIn cloudWatch = new CloudWatchStandIn();
        cloudWatch.onPut(call -> console.component("cloudwatch", call.describe()));
        return cloudWatch;
    }
}
