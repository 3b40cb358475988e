package io.posekit.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.SamplingJob;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warm-up asset: what it is, its GLB imported back, and the same bytes every time. */
class WarmUpAssetTest {

    private static final Model BUILT = WarmUpAsset.get().model();
    private static final Model IMPORTED = AssetImporters.all(ImportLimits.DEFAULT)
            .importUpload(List.of(new SourceFile("warm-up.glb", WarmUpAsset.get().glb()))).model();

    @Test
    void isAFoxSizedSkinnedTubeWithOneClip() {
        assertThat(BUILT.rig().names()).hasSize(WarmUpAsset.JOINTS + 1);
        assertThat(BUILT.skins()).singleElement().satisfies(s -> assertThat(s.jointNodes()).hasSize(24));
        assertThat(BUILT.meshes().getFirst().primitives().getFirst().positions()).hasSize(3 * 1728);
        assertThat(BUILT.meshes().getFirst().primitives().getFirst().indices()).hasSize(3 * 3420);
        assertThat(BUILT.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("warm-up");
            assertThat(c.duration()).isEqualTo(2.0);
            assertThat(c.tracks()).hasSize(25);
        });
    }

    @Test
    void itsGlbImportsAsTheSameAsset() {
        assertThat(IMPORTED.warnings()).isEmpty();
        assertThat(IMPORTED.rig().names()).isEqualTo(BUILT.rig().names());
        assertThat(IMPORTED.skins().getFirst().jointNodes()).isEqualTo(BUILT.skins().getFirst().jointNodes());
        assertThat(IMPORTED.skins().getFirst().inverseBindMatrices())
                .isEqualTo(BUILT.skins().getFirst().inverseBindMatrices());
        var imported = IMPORTED.meshes().getFirst().primitives().getFirst();
        var built = BUILT.meshes().getFirst().primitives().getFirst();
        assertThat(imported.positions()).isEqualTo(built.positions());
        assertThat(imported.indices()).isEqualTo(built.indices());
        assertThat(IMPORTED.clips().getFirst().name()).isEqualTo("warm-up");
        assertThat(IMPORTED.clips().getFirst().duration()).isEqualTo(2.0, org.assertj.core.data.Offset.offset(1e-6));
        // sampled at a time between two keys, the pose is the same
        for (double time : new double[] {0.0, 0.4321, 1.999}) {
            assertThat(sample(IMPORTED, time).rotations()).containsExactly(sample(BUILT, time).rotations(),
                    org.assertj.core.data.Offset.offset(1e-6f));
            assertThat(sample(IMPORTED, time).translations()).containsExactly(sample(BUILT, time).translations(),
                    org.assertj.core.data.Offset.offset(1e-6f));
        }
    }

    @Test
    void theBytesAreTheSameEveryTime() {
        byte[] glb = WarmUpAsset.get().glb();
        glb[0] ^= 1; // a copy: changing it changes nothing
        assertThat(WarmUpAsset.get().glb()).isNotEqualTo(glb);
        glb[0] ^= 1;
        assertThat(WarmUpAsset.get().glb()).isEqualTo(glb);
    }

    private static LocalPose sample(Model model, double time) {
        SamplingJob job = new SamplingJob();
        job.rig = model.rig();
        job.clip = model.clips().getFirst();
        job.time = time;
        job.output = new LocalPose(model.rig().names().size());
        job.run();
        return job.output;
    }
}
