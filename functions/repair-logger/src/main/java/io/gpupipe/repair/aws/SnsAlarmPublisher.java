package io.gpupipe.repair.aws;

import io.gpupipe.repair.AlarmPublisher;
import io.gpupipe.repair.RepairConfig;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.services.sns.SnsClient;

/** {@link AlarmPublisher} on the Quarkus-managed SNS client. */
@ApplicationScoped
public class SnsAlarmPublisher implements AlarmPublisher {
    private final SnsClient sns;
    private final String topicArn;

    SnsAlarmPublisher(SnsClient sns, RepairConfig config) {
        this.sns = sns;
        this.topicArn = config.alarmTopicArn();
    }

    @Override
    public String publish(String subject, String message) {
        return sns.publish(b -> b.topicArn(topicArn).subject(subject).message(message)).messageId();
    }
}
