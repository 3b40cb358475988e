package io.posekit.asset.iqm;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.skinning.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The COLOR vertex array is carried as COLOR_0: normalised unsigned bytes or floats, RGB or RGBA. */
class IqmColorTest {

    private static Model importIqm(byte[] bytes) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("c.iqm", bytes))).model();
    }

    @Test
    void unsignedByteRgbaIsNormalisedBy255() {
        Model model = importIqm(IqmBuilder.twoJointTriangle()
                .ubytes(VertexArray.COLOR, 4, 255, 0, 0, 255, 0, 51, 102, 128, 255, 255, 255, 0).build());
        Primitive p = model.meshes().getFirst().primitives().getFirst();
        assertThat(p.attributes()).contains("COLOR_0");
        assertThat(p.colors()).containsExactly(1, 0, 0, 1, 0, 0.2f, 0.4f, 128 / 255f, 1, 1, 1, 0);
        // the skinned primitive keeps its influences beside the colours
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(model.warnings()).isEmpty();
    }

    @Test
    void floatRgbGetsAlphaOneAndValuesAreKeptAsStored() {
        Model model = importIqm(IqmBuilder.twoJointTriangle()
                .floats(VertexArray.COLOR, 3, 0.25f, 0.5f, 0.75f, 2, -1, 0, 0, 0, 0).build());
        assertThat(model.meshes().getFirst().primitives().getFirst().colors())
                .containsExactly(0.25f, 0.5f, 0.75f, 1, 2, -1, 0, 1, 0, 0, 0, 1);
        assertThat(model.warnings()).isEmpty();
    }

    @Test
    void nonFiniteOrTooNarrowColoursAreDroppedWithAWarning() {
        Model nan = importIqm(IqmBuilder.twoJointTriangle()
                .floats(VertexArray.COLOR, 3, 1, 1, 1, 1, Float.POSITIVE_INFINITY, 1, 1, 1, 1).build());
        assertThat(nan.meshes().getFirst().primitives().getFirst().colors()).isNull();
        assertThat(nan.warnings()).containsExactly("mesh 0 ('body'): COLOR_0 of vertex 1 is not finite; the colours are"
                + " not carried");

        Model narrow = importIqm(IqmBuilder.twoJointTriangle().floats(VertexArray.COLOR, 2, 1, 1, 1, 1, 1, 1).build());
        assertThat(narrow.meshes().getFirst().primitives().getFirst().colors()).isNull();
        assertThat(narrow.meshes().getFirst().primitives().getFirst().attributes()).doesNotContain("COLOR_0");
        assertThat(narrow.warnings()).singleElement().asString().endsWith("has fewer than 3 components (RGB); the"
                + " colours are not carried");
    }
}
