package io.gpupipe.adapters.aws;

import io.gpupipe.jobs.quota.QuotaLedgers;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.quota.UnfinishedLedger;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link QuotaLedgers} as one object per caller and kind in the results bucket, written with {@link S3Objects}'
 * conditional writes (create-only, then If-Match on the ETag read): S3's conditional writes make each replace a
 * compare-and-swap, so no other store is needed for exact counts ("Conditional writes", Amazon S3 User Guide).
 */
public final class S3QuotaLedgers implements QuotaLedgers {
    private static final String JSON = "application/json";

    private final S3Objects objects;

    public S3QuotaLedgers(S3Client s3, String bucket) {
        this.objects = new S3Objects(s3, null, bucket);
    }

    @Override
    public Optional<StoredLedger> read(Owner owner, QuotaKind kind) {
        return objects.read(kind.ledgerKey(owner)).map(bytes -> new StoredLedger(JobJson.read(bytes.asUtf8String(),
                UnfinishedLedger.class), bytes.response().eTag()));
    }

    @Override
    public Optional<String> create(Owner owner, QuotaKind kind, UnfinishedLedger ledger) {
        return objects.createOnly(kind.ledgerKey(owner), JSON, RequestBody.fromString(JobJson.write(ledger)));
    }

    @Override
    public boolean replace(Owner owner, QuotaKind kind, UnfinishedLedger ledger, String eTag) {
        return objects.replace(kind.ledgerKey(owner), JSON, JobJson.write(ledger), eTag);
    }
}
