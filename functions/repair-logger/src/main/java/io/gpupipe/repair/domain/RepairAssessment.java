package io.gpupipe.repair.domain;

import io.gpupipe.model.observability.EmfRecord;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an instance event means for operators: its critical XIDs, whether it raises an alarm (a critical XID on an
 * instance that is not OK), the {@code xid} metric dimension, the one structured log line (an EMF document that
 * also counts {@value #METRIC} by cluster, status and xid) and the alarm's readable text.
 */
public record RepairAssessment(InstanceEvent event, List<Integer> criticalXids, boolean alarm) {
    public static final String METRIC = "GpuHealthEvents";
    public static final String NO_XID = "none";
    /** SNS takes a Subject "less than 100 characters long" (SNS API Reference, Publish): at most 99. */
    public static final int MAX_SUBJECT_CHARS = 99;

    public RepairAssessment {
        Objects.requireNonNull(event, "event");
        criticalXids = List.copyOf(criticalXids);
    }

    /** Assesses {@code event} against the set of critical XIDs. */
    public static RepairAssessment of(InstanceEvent event, Set<Integer> criticalXidSet) {
        List<Integer> critical = event.xids().stream().filter(criticalXidSet::contains).collect(Collectors.toList());
        boolean alarm = !critical.isEmpty() && !"OK".equals(event.status().toUpperCase(Locale.ROOT));
        return new RepairAssessment(event, critical, alarm);
    }

    /** The first critical XID, else the first XID, else {@value #NO_XID}: one value keeps the metric's series few. */
    public String xidDimension() {
        if (!criticalXids.isEmpty()) {
            return Integer.toString(criticalXids.get(0));
        }
        return event.xids().isEmpty() ? NO_XID : Integer.toString(event.xids().get(0));
    }

    /** The event's log line: every field an operator searches for, and the {@value #METRIC} count. */
    public EmfRecord toEmf(String namespace) {
        return EmfRecord.namespace(namespace)
                .dimension("cluster", event.cluster())
                .dimension("status", event.status())
                .dimension("xid", xidDimension())
                .metric(METRIC, 1, EmfRecord.Unit.Count)
                .property("event", "gpu-health")
                .property("detailType", event.kind().detailType())
                .property("eventId", event.eventId())
                .property("eventTime", event.time() == null ? null : event.time().toString())
                .property("region", event.region())
                .property("containerInstance", event.containerInstanceArn())
                .property("ec2InstanceId", event.ec2InstanceId())
                .property("capacityProvider", event.capacityProvider())
                .property("healthReasons", event.healthReasons())
                .property("xids", event.xids())
                .property("criticalXids", criticalXids)
                .property("alarm", alarm);
    }

    /** The SNS subject, cut to {@link #MAX_SUBJECT_CHARS} with "..." when longer. */
    public String alarmSubject() {
        String subject = "GPU fault " + criticalXids.stream().map(x -> "XID " + x).collect(Collectors.joining(", "))
                + " on " + orUnknown(event.ec2InstanceId()) + " (" + orUnknown(event.cluster()) + ")";
        return subject.length() <= MAX_SUBJECT_CHARS ? subject
                : subject.substring(0, MAX_SUBJECT_CHARS - 3) + "...";
    }

    /** The SNS message: what failed, where, and what happens next. */
    public String alarmMessage(Instant now) {
        StringBuilder text = new StringBuilder();
        text.append("Critical GPU error on an ECS container instance.\n\n");
        text.append("Critical XID(s): ").append(criticalXids.stream().map(GpuXids::describe)
                .collect(Collectors.joining(", "))).append('\n');
        text.append("Cluster: ").append(orUnknown(event.cluster())).append('\n');
        text.append("Container instance: ").append(orUnknown(event.containerInstanceArn())).append('\n');
        text.append("EC2 instance: ").append(orUnknown(event.ec2InstanceId())).append('\n');
        if (event.capacityProvider() != null) {
            text.append("Capacity provider: ").append(event.capacityProvider()).append('\n');
        }
        text.append("Status: ").append(event.status()).append(" (").append(event.kind().detailType()).append(")\n");
        text.append("Health checks: ").append(String.join("; ", event.healthReasons())).append('\n');
        text.append("Event: ").append(orUnknown(event.eventId())).append(" at ")
                .append(event.time() == null ? now : event.time()).append("\n\n");
        text.append("ECS auto repair drains the instance and starts a replacement before stopping it. Jobs in flight "
                + "on it return to their queue when their visibility timeout ends; the replacement must pull the "
                + "image and load the model before it serves.");
        return text.toString();
    }

    private static String orUnknown(String value) {
        return value == null ? "unknown" : value;
    }
}
