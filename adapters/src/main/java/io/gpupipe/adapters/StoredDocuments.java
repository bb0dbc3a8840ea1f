package io.gpupipe.adapters;

import io.gpupipe.jobs.quota.UnfinishedLedger;
import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.batch.BatchError;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.batch.RequestCounts;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.format.JsonSchemaSpec;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageRecord;
import io.gpupipe.model.usage.UsageTotals;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The documents the adapters write and read with Jackson (job messages, markers, results, cache entries, quota
 * ledgers, usage records and day summaries, batch records, tasks and manifests), registered for reflection once for
 * every native module that uses the adapters. Quarkus reads {@code @RegisterForReflection} from the index of the
 * application and of every dependency that is indexed (a Jandex index, or a {@code META-INF/beans.xml}, which this jar
 * has); each module registers only its own types besides these.
 */
@RegisterForReflection(targets = {InferenceJob.class, ChatMessage.class, JobState.class, JobResult.class,
    JobResult.Output.class, JobResult.Usage.class, JobResult.JobError.class, CacheEntry.class, BatchState.class,
    BatchPlan.class, ChunkPlan.class, ChunkPlan.Duplicate.class, BatchError.class, RequestCounts.class,
    BatchTask.class, BatchMember.class, ChunkManifest.class, ChunkManifest.Entry.class, UnfinishedLedger.class,
    UsageRecord.class, DaySummary.class, DaySummary.Row.class, UsageTotals.class,
    ResponseFormat.class, ResponseFormat.Type.class, JsonSchemaSpec.class})
public final class StoredDocuments {
    private StoredDocuments() {
    }
}
