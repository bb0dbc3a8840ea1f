package io.gpupipe.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.adapters.JsonLines;
import io.gpupipe.model.JobJson;
import io.gpupipe.repair.domain.InstanceEvent;
import io.gpupipe.repair.domain.InstanceEventParser;
import io.gpupipe.repair.domain.RepairAssessment;
import io.gpupipe.repair.exception.AlarmPublishFailedException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Set;

/**
 * Logs one ECS container instance event: one structured EMF line (the GpuHealthEvents metric and every field an
 * operator searches for) and, for a critical XID on an impaired instance, an SNS alarm. An unknown or malformed
 * event is logged and acknowledged. A failed alarm publish (after the SDK's own retries) is logged and thrown, so
 * the invocation fails and Lambda retries it, then hands it to the on-failure destination: a page for a GPU that fell
 * off the bus must not vanish into a log line. The alarm goes out before the EMF line is written, so a retried event
 * still counts once in GpuHealthEvents.
 */
@ApplicationScoped
public class RepairLogger {
    private final AlarmPublisher alarms;
    private final JsonLines lines;
    private final Clock clock;
    private final String namespace;
    private final Set<Integer> criticalXids;

    RepairLogger(RepairConfig config, AlarmPublisher alarms, JsonLines lines, Clock clock) {
        this.alarms = alarms;
        this.lines = lines;
        this.clock = clock;
        this.namespace = config.metricNamespace();
        this.criticalXids = Set.copyOf(config.criticalXids());
    }

    public RepairReport handle(JsonNode rawEvent) {
        InstanceEventParser.Parsed parsed = InstanceEventParser.parse(rawEvent);
        if (parsed instanceof InstanceEventParser.Parsed.Unrecognized) {
            InstanceEventParser.Parsed.Unrecognized u = (InstanceEventParser.Parsed.Unrecognized) parsed;
            lines.emit(line("INFO", "gpu-health-ignored").put("eventId", u.id()).put("detailType", u.detailType())
                    .put("reason", u.reason()).toString());
            return RepairReport.ignored(u.id(), u.detailType(), u.reason());
        }
        InstanceEvent event = ((InstanceEventParser.Parsed.Recognized) parsed).event();
        RepairAssessment assessment = RepairAssessment.of(event, criticalXids);
        String messageId = assessment.alarm() ? publishAlarm(assessment) : null;
        lines.emit(assessment.toEmf(namespace).toJson(clock.instant()));
        return new RepairReport("logged", event.eventId(), event.kind().detailType(), event.cluster(),
                event.status(), assessment.xidDimension(), assessment.criticalXids(), assessment.alarm(), messageId,
                null);
    }

    private String publishAlarm(RepairAssessment assessment) {
        try {
            return alarms.publish(assessment.alarmSubject(), assessment.alarmMessage(clock.instant()));
        } catch (RuntimeException e) {
            lines.emit(line("ERROR", "gpu-health-alarm-failed").put("eventId", assessment.event().eventId())
                    .put("error", e.getClass().getSimpleName() + ": " + e.getMessage()).toString());
            throw new AlarmPublishFailedException(assessment.event().eventId(), e);
        }
    }

    private static ObjectNode line(String level, String event) {
        return JobJson.mapper().createObjectNode().put("level", level).put("event", event);
    }
}
