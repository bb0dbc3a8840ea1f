package io.gpupipe.cdk.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.sizing.GpuShare;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Fractional GPU shares and the G6f sizes that carry them. */
class FractionalGpusTest {

    @ParameterizedTest
    @CsvSource({"0.125, g6f.large g6f.xlarge, 2861", "0.25, g6f.2xlarge, 5722", "0.5, g6f.4xlarge, 11444"})
    void fractionalShares_shouldMapToTheirG6fSlice(String share, String types, long sliceMib) {
        GpuShare gpuShare = GpuShare.of(share);

        assertThat(FractionalGpus.sizes(gpuShare)).extracting(FractionalGpus.G6fSize::instanceType)
                .containsExactly(types.split(" "));
        assertThat(FractionalGpus.sizes(gpuShare)).allSatisfy(size -> assertThat(size.gpuMemoryMiB())
                .isEqualTo(sliceMib));
        assertThat(FractionalGpus.budget(gpuShare).availableBytes()).isEqualTo(sliceMib * 1024 * 1024);
    }

    @Test
    void sizesFitting_shouldKeepOnlyTheSizesWithTheVcpusAndMemoryATaskNeeds() {
        GpuShare eighth = GpuShare.of("0.125");

        assertThat(FractionalGpus.sizesFitting(eighth, 2, 8 * 1024)).extracting(FractionalGpus.G6fSize::instanceType)
                .containsExactly("g6f.large", "g6f.xlarge");
        assertThat(FractionalGpus.sizesFitting(eighth, 3, 8 * 1024)).extracting(FractionalGpus.G6fSize::instanceType)
                .containsExactly("g6f.xlarge");
        assertThat(FractionalGpus.sizesFitting(eighth, 4, 16 * 1024 + 1)).isEmpty();
        assertThat(FractionalGpus.sizes(eighth).get(1).describe()).isEqualTo("g6f.xlarge (4 vCPU, 16 GiB)");
    }

    @Test
    void wholeGpus_shouldBeRefused() {
        assertThatThrownBy(() -> FractionalGpus.sizes(GpuShare.of("1")))
                .hasMessage("GPU share 1 is whole GPUs, not a fraction");
    }
}
