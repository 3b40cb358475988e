package io.posekit.asset.iqm;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.skinning.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TEXCOORD vertex array is carried as TEXCOORD_0 (IQM's top-left origin is glTF's). */
class IqmTexcoordTest {

    private static Model importIqm(byte[] bytes) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("t.iqm", bytes))).model();
    }

    @Test
    void texcoordsAreCarriedAsStored() {
        Model model = importIqm(IqmBuilder.twoJointTriangle().floats(VertexArray.TEXCOORD, 2, 0, 0, 1, 0, 0.5f, 1).build());
        Primitive p = model.meshes().getFirst().primitives().getFirst();
        assertThat(p.attributes()).contains("TEXCOORD_0");
        assertThat(p.texcoords()).containsExactly(0, 0, 1, 0, 0.5f, 1);
        // the mesh's material 'skin' names no uploaded image: a white material without texture (IqmMaterialTest)
        assertThat(p.material().name()).isEqualTo("skin");
        assertThat(p.material().baseColorTexture()).isNull();
        assertThat(model.warnings()).isEmpty();
    }

    @Test
    void nonFiniteTexcoordsAreDroppedWithAWarning() {
        Model model = importIqm(IqmBuilder.twoJointTriangle()
                .floats(VertexArray.TEXCOORD, 2, 0, 0, Float.NaN, 0, 0.5f, 1).build());
        assertThat(model.meshes().getFirst().primitives().getFirst().texcoords()).isNull();
        assertThat(model.warnings()).hasSize(1);
        assertThat(model.warnings().getFirst()).endsWith("is not finite (NaN); the texture coordinates are not carried");
    }

    @Test
    void withoutATexcoordArrayThereAreNone() {
        Model model = importIqm(IqmBuilder.twoJointTriangle().build());
        assertThat(model.meshes().getFirst().primitives().getFirst().texcoords()).isNull();
    }
}
