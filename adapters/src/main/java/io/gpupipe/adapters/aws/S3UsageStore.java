package io.gpupipe.adapters.aws;

import io.gpupipe.adapters.UsageStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageLayout;
import io.gpupipe.model.usage.UsageRecord;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link UsageStore} on S3: records and summaries are written create-only ({@code If-None-Match: *}), so a repeated
 * event or a second query adds no object version; a record's fields are its key, so a day is read by listing.
 */
public final class S3UsageStore implements UsageStore {
    private static final String JSON = "application/json";

    private final S3Client s3;
    private final S3Objects objects;

    public S3UsageStore(S3Client s3, String bucket) {
        this.s3 = s3;
        this.objects = new S3Objects(s3, null, bucket);
    }

    @Override
    public void record(Owner owner, UsageRecord record) {
        objects.createOnly(UsageLayout.recordKey(owner, record), JSON, RequestBody.fromString(JobJson.write(record)));
    }

    @Override
    public List<UsageRecord> records(Owner owner, LocalDate day) {
        String prefix = UsageLayout.dayPrefix(owner, day);
        List<UsageRecord> records = new ArrayList<>();
        try {
            s3.listObjectsV2Paginator(b -> b.bucket(objects.bucket()).prefix(prefix)).contents().stream()
                    .map(S3Object::key).forEach(key -> UsageLayout.fileNameOf(prefix, key)
                            .flatMap(name -> UsageRecord.parse(day, name)).ifPresent(records::add));
        } catch (SdkException e) {
            throw objects.unavailable("list", prefix, e);
        }
        return records;
    }

    @Override
    public Optional<DaySummary> summary(Owner owner, LocalDate day) {
        return objects.read(UsageLayout.summaryKey(owner, day)).map(bytes -> JobJson.read(bytes.asUtf8String(),
                DaySummary.class));
    }

    @Override
    public void storeSummary(Owner owner, DaySummary summary) {
        objects.createOnly(UsageLayout.summaryKey(owner, summary.day()), JSON,
                RequestBody.fromString(JobJson.write(summary)));
    }

    @Override
    public void forgetSummary(Owner owner, LocalDate day) {
        objects.delete(UsageLayout.summaryKey(owner, day));
    }
}
