package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.asset.gltf.GltfImporter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every structural cap of {@link ImportLimits}, exceeded by one over the two-bone strip (3 nodes, one skin of 2
 * joints, 6 vertices using at most 2 influences, a clip whose longest track has 3 keys): each is a 413 naming the
 * element, its count, the limit and the property that sets it. The glTF importer checks counts as it reads them,
 * before it allocates; {@link SceneLimits} checks vertices and influences over the finished import tree.
 */
class SceneLimitsTest {

    private static final ImportLimits D = ImportLimits.DEFAULT;

    private static ImportLimits limits(int nodes, int jointsPerSkin, long vertices, int influences, int keys, int clips) {
        return new ImportLimits(D.maxDecodedBytes(), nodes, jointsPerSkin, vertices, influences, keys, clips,
                D.maxXmlDepth(), D.maxXmlElements(), D.maxZipEntries(), D.maxZipBytes(), D.maxZipRatio(),
                Duration.ofSeconds(10));
    }

    private static void assertTooLarge(ImportLimits limits, String detail) {
        AssetImporters importers = new AssetImporters(List.of(new GltfImporter()), limits);
        byte[] glb = GltfBuilder.skinnedTwoBoneStrip().toGlb();
        assertThatThrownBy(() -> importers.importUpload(List.of(new SourceFile("strip.glb", glb))))
                .isInstanceOfSatisfying(ImportException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE))
                .hasMessage(detail);
    }

    @Test
    void theStripFitsLimitsExactlyItsSize() {
        AssetImporters importers = new AssetImporters(List.of(new GltfImporter()), limits(3, 2, 6, 2, 3, 1));
        importers.importUpload(List.of(new SourceFile("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb())));
    }

    @Test
    void nodes() {
        assertTooLarge(limits(2, 2, 6, 2, 3, 1), "the asset has 3 nodes; the limit is 2 (posekit.limits.nodes)");
    }

    @Test
    void jointsPerSkin() {
        assertTooLarge(limits(3, 1, 6, 2, 3, 1),
                "skin 0 has 2 joints; the limit is 1 (posekit.limits.joints-per-skin)");
    }

    @Test
    void vertices() {
        assertTooLarge(limits(3, 2, 5, 2, 3, 1),
                "the meshes has 6 vertices (or more) in all; the limit is 5 (posekit.limits.vertices)");
    }

    @Test
    void influencesPerVertex() {
        assertTooLarge(limits(3, 2, 6, 1, 3, 1),
                "mesh 0 ('Strip') primitive 0 vertex 2 has 2 joint influences; the limit is 1"
                        + " (posekit.limits.influences-per-vertex)");
    }

    @Test
    void keysPerTrack() {
        assertTooLarge(limits(3, 2, 6, 2, 2, 1),
                "animation 0 sampler 0: input accessor 6 has 3 keys; the limit is 2"
                        + " (posekit.limits.keys-per-track)");
    }

    @Test
    void clips() {
        assertTooLarge(limits(3, 2, 6, 2, 3, 0), "the asset has 1 animations; the limit is 0 (posekit.limits.clips)");
    }
}
