package io.posekit.asset.iqm;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.TextureImagesTest;
import io.posekit.skinning.Material;
import java.util.List;
import org.junit.jupiter.api.Test;

/** IQM mesh material names as materials: the uploaded image the name is the file name of (or the base name of). */
class IqmMaterialTest {

    private static Model importWith(String material, SourceFile... images) {
        IqmBuilder b = IqmBuilder.twoJointTriangle();
        byte[] iqm = b.floats(VertexArray.TEXCOORD, 2, 0, 0, 1, 0, 0.5f, 1).build();
        List<SourceFile> files = new java.util.ArrayList<>(List.of(new SourceFile("t.iqm",
                material == null ? iqm : withMaterial(material))));
        files.addAll(List.of(images));
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(files).model();
    }

    private static byte[] withMaterial(String material) {
        IqmBuilder b = new IqmBuilder()
                .joint("hip", -1, new float[] {0, 0, 1}, new float[] {0, 0, 0, 1}, new float[] {1, 1, 1})
                .vertexes(3)
                .floats(VertexArray.POSITION, 3, 0, 0, 0, 1, 0, 0, 0, 0, 3)
                .floats(VertexArray.TEXCOORD, 2, 0, 0, 1, 0, 0.5f, 1)
                .triangle(0, 1, 2)
                .mesh("body", material, 0, 3, 0, 1);
        return b.build();
    }

    @Test
    void aMaterialNamingAnUploadedImageIsTextured() {
        byte[] png = TextureImagesTest.png(1, 1, 0xFFFF00FF);
        Model model = importWith("textures/body.png", new SourceFile("body.png", png));
        Material m = model.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.name()).isEqualTo("textures/body.png");
        assertThat(m.baseColorTexture().bytes()).isEqualTo(png);
        assertThat(m.baseColorFactor()).containsExactly(1, 1, 1, 1);
        assertThat(model.warnings()).isEmpty();
    }

    @Test
    void aBareNameFindsTheImageOfThatBaseNameAndAMissingFileIsAWarning() {
        byte[] png = TextureImagesTest.png(1, 1, 0xFF0000FF);
        // 'skin' (twoJointTriangle's material): skin.png
        Model bare = importWith(null, new SourceFile("skin.png", png));
        assertThat(bare.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes())
                .isEqualTo(png);
        Model missing = importWith("body.tga");
        assertThat(missing.meshes().getFirst().primitives().getFirst().material().baseColorTexture()).isNull();
        assertThat(missing.warnings()).containsExactly("mesh 0 material 'body.tga' names an image that is not among"
                + " the uploaded files; the surface is white");
    }
}
