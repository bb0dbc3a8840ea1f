package io.gpupipe.router.wake;

import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import java.util.List;
import java.util.Map;

/** The tier queues, telling {@link IdleTierWake} about every send that went through. */
public final class WakingJobQueue implements JobQueue {
    private final JobQueue queues;
    private final IdleTierWake wake;

    public WakingJobQueue(JobQueue queues, IdleTierWake wake) {
        this.queues = queues;
        this.wake = wake;
    }

    @Override
    public String send(InferenceJob job, Tier tier) {
        String messageId = queues.send(job, tier);
        wake.sent(tier);
        return messageId;
    }

    @Override
    public Map<String, SendFailure> sendAll(Tier tier, List<InferenceJob> jobs) {
        Map<String, SendFailure> failures = queues.sendAll(tier, jobs);
        if (failures.size() < jobs.size()) {
            wake.sent(tier);
        }
        return failures;
    }
}
