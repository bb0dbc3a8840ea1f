package io.gpupipe.cdk.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.sizing.GpuShare;
import org.junit.jupiter.api.Test;

class VramSizingTest {
    private static final long GIB = 1024L * 1024 * 1024;
    private static final long MIB = 1024L * 1024;
    /** An L40S-class GPU as the capacity provider's minimum: 48 GiB. */
    private static final long GPU_48_GIB_IN_MIB = 48 * 1024;

    /** Llama-2-70B shape: 80 layers, hidden 8192, 64 attention heads, 8 KV heads. */
    private static ModelFootprint.Builder llama70b(double bytesPerParameter) {
        return ModelFootprint.builder("llama-2-70b")
                .parameters(70_000_000_000L)
                .bytesPerParameter(bytesPerParameter)
                .layers(80, 8192)
                .groupedQueryAttention(8, 64)
                .maxSequenceLength(4096)
                .maxConcurrentSequences(8);
    }

    /** Mistral-7B shape: 32 layers, hidden 4096, 32 attention heads, 8 KV heads. */
    private static ModelFootprint.Builder mistral7b(double bytesPerParameter) {
        return ModelFootprint.builder("mistral-7b")
                .parameters(7_000_000_000L)
                .bytesPerParameter(bytesPerParameter)
                .layers(32, 4096)
                .groupedQueryAttention(8, 32)
                .maxSequenceLength(4096)
                .maxConcurrentSequences(16);
    }

    @Test
    void estimate_shouldSumWeightsKvCacheAndOverhead_whenMistral7bFp16() {
        // given: KV = 2 × 32 layers × 1024 (4096 × 8/32) × 4096 tokens × 16 sequences × 2 bytes = 8 GiB
        ModelFootprint model = mistral7b(2).overhead(0.10, 512 * MIB).build();

        // when
        VramEstimate e = VramSizing.estimate(model);

        // then
        assertThat(e.weightsBytes()).isEqualTo(14_000_000_000L);
        assertThat(e.kvCacheBytes()).isEqualTo(8 * GIB);
        assertThat(e.overheadBytes()).isEqualTo(512 * MIB + Math.round((14_000_000_000L + 8 * GIB) * 0.10));
        assertThat(e.totalBytes()).isEqualTo(e.weightsBytes() + e.kvCacheBytes() + e.overheadBytes());
    }

    @Test
    void estimate_shouldScaleKvCacheWithHeadsKept_whenGroupedQueryAttention() {
        // given
        ModelFootprint full = ModelFootprint.builder("m").parameters(1).bytesPerParameter(1).layers(32, 4096)
                .maxSequenceLength(1024).build();
        ModelFootprint grouped = ModelFootprint.builder("m").parameters(1).bytesPerParameter(1).layers(32, 4096)
                .groupedQueryAttention(8, 32).maxSequenceLength(1024).build();

        // when
        long fullKv = VramSizing.estimate(full).kvCacheBytes();
        long groupedKv = VramSizing.estimate(grouped).kvCacheBytes();

        // then: 2 × 32 layers × 4096 × 1024 tokens × 1 sequence × 2 bytes = 512 MiB; a quarter with 8 of 32 heads
        assertThat(fullKv).isEqualTo(512 * MIB);
        assertThat(groupedKv).isEqualTo(128 * MIB);
    }

    @Test
    void check_shouldFailWithReadableMessage_when70bFp16OnOne48GbGpu() {
        // given: 140 GB of weights alone against 48 GiB
        ModelFootprint model = llama70b(2).build();
        GpuBudget budget = new GpuBudget(GPU_48_GIB_IN_MIB, GpuShare.of("1"));

        // when
        SizingVerdict verdict = VramSizing.check("large", model, budget);

        // then
        assertThat(verdict).isInstanceOf(SizingVerdict.TooLarge.class);
        assertThat(verdict.availableBytes()).isEqualTo(48 * GIB);
        assertThat(verdict.estimate().weightsBytes()).isEqualTo(140_000_000_000L);
        assertThat(verdict.message())
                .startsWith("tier large: llama-2-70b needs ")
                .contains("weights 130.4 ")
                .contains("GPU share 1 of 48.0 GiB gives 48.0 GiB")
                .contains("short by ")
                .contains("at least 4 of this size");
    }

    @Test
    void check_shouldFit_when70bFp16OnEight48GbGpus() {
        // given
        GpuBudget budget = new GpuBudget(GPU_48_GIB_IN_MIB, GpuShare.of("8"));

        // when
        SizingVerdict verdict = VramSizing.check("large", llama70b(2).build(), budget);

        // then
        assertThat(verdict).isInstanceOf(SizingVerdict.Fits.class);
        assertThat(verdict.availableBytes()).isEqualTo(8 * 48 * GIB);
        assertThat(verdict.message()).contains("headroom");
    }

    @Test
    void check_shouldFit_when70bInt4OnTwo48GbGpus() {
        // given: 35 GB of INT4 weights + KV 2 × 80 × 1024 × 4096 × 8 × 2 bytes = 10 GiB + overhead
        ModelFootprint model = llama70b(0.5).build();

        // when
        SizingVerdict verdict = VramSizing.check("large", model, new GpuBudget(GPU_48_GIB_IN_MIB, GpuShare.of("2")));

        // then
        assertThat(verdict.estimate().kvCacheBytes()).isEqualTo(10 * GIB);
        assertThat(verdict).isInstanceOf(SizingVerdict.Fits.class);
    }

    @Test
    void check_shouldUseTheFraction_whenTierAsksForPartOfAGpu() {
        // given: 1.2B INT8 model (1.1 GiB) + KV 2 × 24 × 2048 × 2048 × 4 × 2 bytes = 1.5 GiB,
        // + 10 % + 400 MiB ≈ 3.3 GiB
        ModelFootprint model = ModelFootprint.builder("classifier-1.2b").parameters(1_200_000_000L)
                .bytesPerParameter(1).layers(24, 2048).maxSequenceLength(2048).maxConcurrentSequences(4)
                .overhead(0.10, 400 * MIB).build();

        // when
        SizingVerdict eighth = VramSizing.check("small", model, new GpuBudget(24 * 1024, GpuShare.of("0.125")));
        SizingVerdict quarter = VramSizing.check("small", model, new GpuBudget(24 * 1024, GpuShare.of("0.25")));

        // then: an eighth of a 24 GiB GPU (3 GiB) is too small, a quarter (6 GiB) is enough
        assertThat(eighth.availableBytes()).isEqualTo(3 * GIB);
        assertThat(quarter.availableBytes()).isEqualTo(6 * GIB);
        assertThat(eighth).isInstanceOf(SizingVerdict.TooLarge.class);
        assertThat(eighth.message()).contains("GPU share 0.125 of 24.0 GiB gives 3.0 GiB");
        assertThat(quarter).isInstanceOf(SizingVerdict.Fits.class);
    }

    @Test
    void check_shouldFail_whenFractionTooSmallForModel() {
        // given: Mistral-7B FP16 (14 GB weights) on half a 24 GiB GPU
        SizingVerdict verdict = VramSizing.check("small", mistral7b(2).maxConcurrentSequences(1).build(),
                new GpuBudget(24 * 1024, GpuShare.of("0.5")));

        // then
        assertThat(verdict).isInstanceOf(SizingVerdict.TooLarge.class);
        assertThat(verdict.message()).contains("GPU share 0.5 of 24.0 GiB gives 12.0 GiB").contains("short by");
    }

    @Test
    void builder_shouldReject_whenNumbersInvalid() {
        // when, then
        assertThatThrownBy(() -> mistral7b(0).build()).hasMessageContaining("bytesPerParameter");
        assertThatThrownBy(() -> mistral7b(2).maxSequenceLength(0).build()).hasMessageContaining("maxSequenceLength");
        assertThatThrownBy(() -> mistral7b(2).overhead(1.0, 0).build()).hasMessageContaining("overheadFraction");
        assertThatThrownBy(() -> ModelFootprint.builder("m").layers(32, 4096).groupedQueryAttention(8, 3))
                .hasMessageContaining("kvHeads");
    }
}
