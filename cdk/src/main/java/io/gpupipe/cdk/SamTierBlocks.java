package io.gpupipe.cdk;

import io.gpupipe.cdk.SamExports.TierExport;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes sam-template.yaml's per-tier blocks from the tier catalogue, so that a new tier in tiers.json needs no hand
 * edit of the template. Each block sits between {@code # BEGIN tiers/<block>} and {@code # END tiers/<block>} comment
 * lines; everything outside them is hand-written. Generated rather than {@code Fn::ForEach}: CloudFormation refuses
 * ForEach in Parameters (each tier has five), ForEach makes map entries but not list items (the policies and queue
 * lists), and samtranslator does not expand it (only SAM CLI 1.160 and later do, in memory).
 *
 * <p>Rewrite the template after changing the catalogue: {@code cdk/sam-tiers.sh}. {@code SamTemplateTiersTest} fails
 * with the difference while the file and the catalogue disagree.
 */
public final class SamTierBlocks {
    private static final Pattern BEGIN = Pattern.compile("^( *)# BEGIN tiers/([a-z-]+)\\b.*$");
    private static final String END = "# END tiers/";

    /** The kinds of generated block, by the name their markers carry. */
    public enum Block {
        PARAMETERS, CONDITIONS, QUEUES, QUEUE_REFS, QUEUE_ARNS, ROUTER_ENVIRONMENT, SEND_TO_TIER_QUEUES,
        SCALING_ENVIRONMENT, BATCH_ENVIRONMENT, OUTPUTS;

        /** The name in the markers, e.g. {@code router-environment}. */
        public String markerName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Block of(String markerName) {
            for (Block block : values()) {
                if (block.markerName().equals(markerName)) {
                    return block;
                }
            }
            throw new IllegalArgumentException("unknown generated block tiers/" + markerName + "; known: "
                    + List.of(values()).stream().map(Block::markerName).toList());
        }
    }

    private SamTierBlocks() {
    }

    /** {@code template} with every generated block rewritten for {@code catalogue}; the rest is kept as it is. */
    public static String render(String template, TierCatalogue catalogue) {
        return render(template, catalogue.tiers());
    }

    /** {@code template} with every generated block rewritten for {@code tiers}, in their order. */
    public static String render(String template, List<TierDefinition> tiers) {
        List<String> out = new ArrayList<>();
        String[] lines = template.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            out.add(lines[i]);
            Matcher begin = BEGIN.matcher(lines[i]);
            if (!begin.matches()) {
                continue;
            }
            String indent = begin.group(1);
            Block block = Block.of(begin.group(2));
            int end = i + 1;
            while (end < lines.length && !lines[end].strip().startsWith(END + block.markerName())) {
                end++;
            }
            if (end == lines.length) {
                throw new IllegalArgumentException("tiers/" + block.markerName() + " opened on line " + (i + 1)
                        + " has no '" + END + block.markerName() + "' line");
            }
            for (TierDefinition tier : tiers) {
                for (String line : lines(block, tier)) {
                    out.add(line.isEmpty() ? "" : indent + line);
                }
            }
            out.add(lines[end]);
            i = end;
        }
        return String.join("\n", out);
    }

    /** The logical-id form of a tier's name: {@code speech-hq} → {@code SpeechHq}. */
    public static String logicalName(Tier tier) {
        StringBuilder name = new StringBuilder();
        for (String part : tier.wireName().split("-")) {
            name.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
        }
        return name.toString();
    }

    private static List<String> lines(Block block, TierDefinition definition) {
        Tier tier = definition.tier();
        String n = logicalName(tier);
        String t = tier.wireName();
        String env = tier.envName();
        return switch (block) {
            case PARAMETERS -> List.of(
                    n + "VisibilityTimeout:",
                    "  Type: Number",
                    "  Default: " + definition.visibilityTimeout().toSeconds(),
                    "  MinValue: 30",
                    "  MaxValue: 43200",
                    "  Description: Seconds a " + t + "-tier job stays invisible while a worker runs it (above the"
                            + " tier's worst-case job).",
                    n + "MaxTasks:",
                    "  Type: Number",
                    "  Default: " + definition.maxTasks(),
                    "  MinValue: 1",
                    "  Description: Most " + t + "-tier GPU tasks (the scaling metric and the CDK service's auto"
                            + " scaling both use it).",
                    n + "BacklogPerTask:",
                    "  Type: Number",
                    "  Default: " + definition.backlogPerTask(),
                    "  MinValue: 1",
                    "  Description: Waiting " + t + "-tier jobs one task should face before another is wanted.",
                    n + "WarmWindow:",
                    "  Type: String",
                    "  Default: \"\"",
                    "  Description: >-",
                    "    Optional warm window of the " + t + " tier, e.g. \"MON-FRI 08:00-18:00 Europe/Berlin 1\": the"
                            + " scaling metric keeps",
                    "    at least that many tasks inside it. Set the same text as the CDK context " + t
                            + "WarmWindow (scheduled actions).",
                    n + "ModelVersion:",
                    "  Type: String",
                    "  Default: \"\"",
                    "  Description: >-",
                    "    The model version the " + t + " tier's workers claim (repo@commit+model-server image tag, the"
                            + " CDK worker's",
                    "    GPUPIPE_WORKER_MODEL_VERSION; deploy.yml sets it from native-build/models/" + t + ".env)."
                            + " Result cache look-ups",
                    "    of its jobs are keyed by it; empty = never answered from the cache.");
            case CONDITIONS -> List.of(
                    "Has" + n + "ModelVersion: !Not [!Equals [!Ref " + n + "ModelVersion, \"\"]]");
            case QUEUES -> List.of(
                    n + "Queue:",
                    "  Type: AWS::SQS::Queue",
                    "  Properties:",
                    "    MessageRetentionPeriod: 1209600",
                    "    VisibilityTimeout: !Ref " + n + "VisibilityTimeout",
                    "    ReceiveMessageWaitTimeSeconds: 20",
                    "    SqsManagedSseEnabled: true",
                    "    RedrivePolicy:",
                    "      deadLetterTargetArn: !GetAtt JobDeadLetterQueue.Arn",
                    "      maxReceiveCount: !Ref MaxReceiveCount",
                    "");
            case QUEUE_REFS -> List.of("- !Ref " + n + "Queue");
            case QUEUE_ARNS -> List.of("- !GetAtt " + n + "Queue.Arn");
            case ROUTER_ENVIRONMENT -> List.of(
                    "GPUPIPE_ROUTER_QUEUE_URLS_" + env + ": !Ref " + n + "Queue",
                    "GPUPIPE_ROUTER_MODEL_VERSIONS_" + env + ": !If [Has" + n + "ModelVersion, !Ref " + n
                            + "ModelVersion, !Ref AWS::NoValue]");
            case SEND_TO_TIER_QUEUES -> List.of(
                    "- Version: \"2012-10-17\"",
                    "  Statement:",
                    "    - Sid: SendTo" + n + "Queue",
                    "      Effect: Allow",
                    "      Action: sqs:SendMessage",
                    "      Resource: !GetAtt " + n + "Queue.Arn");
            case SCALING_ENVIRONMENT -> List.of(
                    "GPUPIPE_SCALING_TIERS_" + env + "_QUEUE_URL: !Ref " + n + "Queue",
                    "GPUPIPE_SCALING_TIERS_" + env + "_CLUSTER: !Ref ClusterName",
                    "GPUPIPE_SCALING_TIERS_" + env + "_SERVICE: !Sub \"${ClusterName}-" + t + "\"",
                    "GPUPIPE_SCALING_TIERS_" + env + "_MAX_TASKS: !Ref " + n + "MaxTasks",
                    "GPUPIPE_SCALING_TIERS_" + env + "_BACKLOG_PER_TASK: !Ref " + n + "BacklogPerTask",
                    "GPUPIPE_SCALING_TIERS_" + env + "_WARM_WINDOW: !Ref " + n + "WarmWindow");
            case BATCH_ENVIRONMENT -> List.of("GPUPIPE_BATCH_TIER_QUEUE_URLS_" + env + ": !Ref " + n + "Queue");
            case OUTPUTS -> outputs(tier);
        };
    }

    private static List<String> outputs(Tier tier) {
        String n = logicalName(tier);
        List<String> lines = new ArrayList<>();
        output(lines, n + "QueueUrl", "!Ref " + n + "Queue", TierExport.QUEUE_URL, tier);
        output(lines, n + "QueueArn", "!GetAtt " + n + "Queue.Arn", TierExport.QUEUE_ARN, tier);
        output(lines, n + "QueueName", "!GetAtt " + n + "Queue.QueueName", TierExport.QUEUE_NAME, tier);
        output(lines, n + "MaxTasks", "!Ref " + n + "MaxTasks", TierExport.MAX_TASKS, tier);
        output(lines, n + "ServiceName", "!Sub \"${ClusterName}-" + tier.wireName() + "\"", TierExport.SERVICE_NAME,
                tier);
        return lines;
    }

    private static void output(List<String> lines, String name, String value, TierExport export, Tier tier) {
        lines.addAll(List.of(name + ":", "  Value: " + value, "  Export:",
                "    Name: !Sub \"${AWS::StackName}-" + export.suffix(tier) + "\""));
    }

    /** Rewrites the template (argument 1, default {@code sam-template.yaml}) for the bundled catalogue. */
    public static void main(String[] args) throws IOException {
        Path template = Path.of(args.length > 0 ? args[0] : "sam-template.yaml");
        String before = Files.readString(template);
        String after = render(before, TierCatalogue.bundled());
        if (after.equals(before)) {
            System.out.println(template + ": tier blocks already match tiers.json");
        } else {
            Files.writeString(template, after);
            System.out.println(template + ": tier blocks rewritten from tiers.json");
        }
    }
}
