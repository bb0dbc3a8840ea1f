package io.gpupipe.cdk.sizing;

/** GPU memory a model needs, in bytes, by part. */
public record VramEstimate(long weightsBytes, long kvCacheBytes, long overheadBytes) {
    public long totalBytes() {
        return weightsBytes + kvCacheBytes + overheadBytes;
    }
}
