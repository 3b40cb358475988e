package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The round trip as the proof of the animated export: for every conformance asset of every format, import → {@link
 * AnimatedGltf} GLB → import that → every skinning matrix and skinned vertex at every conformance sample time (and
 * at rest) equals the original's within the conformance README's tolerances: matrix elements {@code 1e-5·max(1,
 * max|e|)}, positions {@code 1e-5·D} (D the posed bounding box diagonal). Where a clip was resampled, the
 * reduction's tolerance is added: its rotation tolerance ({@code 1e-4} rad) times a chain of {@value #CHAIN} joints
 * for matrices and positions. Skipped without the conformance data.
 */
class AnimatedGltfRoundTripTest {

    /** Joints a rotation error may accumulate over, for the resampled allowance. */
    static final int CHAIN = 10;
    static final double MATRIX = 1e-5;
    static final double POSITION = 1e-5;
    static final double RESAMPLED = CHAIN * AnimatedGltf.Options.DEFAULT_TOLERANCE;

    static Stream<String> assets() {
        if (!ConformanceAssets.available()) {
            return Stream.of("none");
        }
        return ConformanceAssets.all().stream().map(ConformanceAssets.Asset::id);
    }

    /**
     * The export of the largest conformance asset (by upload bytes) allocates at most {@value #ALLOCATION_PER_BYTE}
     * bytes per byte of GLB written, and at most {@value #ALLOCATION_CAP} bytes in all: within the 320 MiB of heap the
     * upload limits of issue 7 keep a request under (docs/robustness.md). Allocation, counted by the JVM per thread,
     * not timing.
     */
    @Test
    void theLargestAssetsExportStaysWithinTheMemoryLimits() {
        assumeTrue(ConformanceAssets.available(), "no conformance data at " + ConformanceAssets.root());
        ConformanceAssets.Asset largest = ConformanceAssets.all().stream()
                .max(java.util.Comparator.comparingLong(a -> a.files().stream().mapToLong(f -> f.bytes().length).sum()))
                .orElseThrow();
        Model model = ConformanceAssets.importModel(largest.files());
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(id);
        byte[] glb = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb();
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        System.out.printf(Locale.ROOT, "export of %s: %d bytes of GLB, %d bytes allocated (%.1f per GLB byte), model %d bytes%n",
                largest.id(), glb.length, allocated, allocated / (double) glb.length, model.footprintBytes());
        assertThat(allocated).isLessThanOrEqualTo(ALLOCATION_PER_BYTE * glb.length).isLessThanOrEqualTo(ALLOCATION_CAP);
    }

    static final long ALLOCATION_PER_BYTE = 6;
    static final long ALLOCATION_CAP = 320L << 20;

    @ParameterizedTest
    @MethodSource("assets")
    void everyConformanceAssetSurvivesTheRoundTrip(String id) {
        assumeTrue(ConformanceAssets.available(), "no conformance data at " + ConformanceAssets.root());
        ConformanceAssets.Asset asset = ConformanceAssets.all().stream().filter(a -> a.id().equals(id)).findFirst()
                .orElseThrow();
        Model original = ConformanceAssets.importModel(asset.files());
        AnimatedGltf export = AnimatedGltf.of(original, AnimatedGltf.Options.DEFAULT);
        byte[] glb = export.glb();
        GlbFile.parse(glb);
        Model copy = RoundTrip.reimport(glb);
        List<RoundTrip.Deviation> deviations = RoundTrip.compare(original, copy, asset.samples(), export.report());
        List<String> lines = new ArrayList<>();
        for (RoundTrip.Deviation d : deviations) {
            lines.add(String.format(Locale.ROOT, "round trip %-32s %-28s %s matrix %.3g position %.3g·D", id, d.clip(),
                    d.resampled() ? "resampled" : "exact    ", d.matrix(), d.position()));
        }
        for (AnimatedGltf.ClipReport r : export.report().clips()) {
            lines.add(String.format(Locale.ROOT, "   clip %s: %d channels (%d exact, %d resampled), keys %d → %d, max error "
                    + "rotation %.3g rad, translation %.3g, scale %.3g", r.name(), r.channels(), r.exactChannels(),
                    r.resampledChannels(), r.keysBefore(), r.keysAfter(), r.maxRotationError(), r.maxTranslationError(),
                    r.maxScaleError()));
        }
        System.out.println(String.join("\n", lines) + "\n   " + glb.length + " bytes");
        for (RoundTrip.Deviation d : deviations) {
            double extra = d.resampled() ? RESAMPLED : 0;
            assertThat(d.matrix()).as("%s %s skinning matrices", id, d.clip()).isLessThanOrEqualTo(MATRIX + extra);
            assertThat(d.position()).as("%s %s skinned vertices", id, d.clip()).isLessThanOrEqualTo(POSITION + extra);
        }
    }
}
