package io.gpupipe.localstack.chaos;

/** One fault (or all of them at once) injected while a share of the soak's jobs runs. */
public enum Scenario {
    BASELINE("baseline", "no fault"),
    WORKER_SIGKILL("worker-sigkill", "SIGKILL a worker mid-job, three times; the supervisor restarts it"),
    WORKER_SIGTERM("worker-sigterm", "SIGTERM each worker in turn under load (rolling restart: drain, replace)"),
    MODEL_500("model-500", "model server answers HTTP 500 in bursts"),
    MODEL_HANG("model-hang", "model server hangs for 30 s (connections accepted, nothing answered)"),
    MODEL_REFUSED("model-refused", "model server refuses connections for 30 s"),
    S3_OUTAGE("s3-outage", "S3 unreachable for 30 s, for the router and the workers"),
    SQS_OUTAGE("sqs-outage", "SQS unreachable for 30 s, for the router and the workers"),
    ROUTER_ENQUEUE("router-enqueue", "the router's SQS refused in bursts (marker written, enqueue fails)"),
    DUPLICATES("duplicates", "every job submitted 3x concurrently, copied straight to its queue, a third cancelled "
            + "right after the submit"),
    VISIBILITY_LAPSE("visibility-lapse", "the first jobs take longer than the queue's visibility timeout while the "
            + "workers cannot reach SQS to extend it: SQS delivers them again while the first inference still runs"),
    POISON("poison", "malformed, oversized and unknown-task messages sent straight to the queues"),
    WEBHOOK_DOWN("webhook-down", "the clients' webhook receiver is down for 60 s"),
    ALL("all-together", "every fault above at once");

    private final String label;
    private final String description;

    Scenario(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }
}
