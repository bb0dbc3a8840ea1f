package io.gpupipe.localaws;

import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/** Forwards to a real blob store and reports each successful single-part put, as S3 event notifications do. */
final class NotifyingBlobStore extends ForwardingBlobStore {
    private final List<ObjectCreatedListener> listeners = new CopyOnWriteArrayList<>();

    NotifyingBlobStore(BlobStore delegate) {
        super(delegate);
    }

    void addListener(ObjectCreatedListener listener) {
        listeners.add(listener);
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream content) {
        PutObjectResponse response = super.putBlob(request, content);
        long size = request.contentLength() == null ? -1 : request.contentLength();
        for (ObjectCreatedListener listener : listeners) {
            listener.objectCreated(request.bucket(), request.key(), size, response.eTag());
        }
        return response;
    }
}
