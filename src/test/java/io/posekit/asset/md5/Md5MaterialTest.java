package io.posekit.asset.md5;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.TextureImagesTest;
import io.posekit.skinning.Material;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MD5 {@code shader} names as materials: the uploaded image of the shader's base name (any image extension, PNG
 * first), white without one.
 */
class Md5MaterialTest {

    private static Model importWith(SourceFile... images) {
        List<SourceFile> files = new java.util.ArrayList<>(List.of(new SourceFile("test.md5mesh",
                Md5Fixtures.MESH.getBytes(StandardCharsets.UTF_8))));
        files.addAll(List.of(images));
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(files).model();
    }

    @Test
    void theShaderIsTheImageOfItsBaseName() {
        int[] texels = {0xFF112233, 0xFF445566, 0xFF778899, 0xFFAABBCC, 0xFFDDEEFF, 0xFF000000, 0xFFFFFFFF, 0xFF808080};
        // "models/skin": skin.tga in the upload (any folder, any case); a PNG of the name would be preferred
        Model model = importWith(new SourceFile("textures/Skin.tga", TextureImagesTest.tga(4, 2, texels)),
                new SourceFile("notes.txt", new byte[] {1}));
        Material m = model.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.name()).isEqualTo("models/skin");
        assertThat(m.baseColorFactor()).containsExactly(1, 1, 1, 1);
        assertThat(TextureImagesTest.pixels(m.baseColorTexture().bytes())).containsExactly(texels);
        assertThat(model.warnings()).isEmpty();

        byte[] png = TextureImagesTest.png(1, 1, 0xFF00FF00);
        Model both = importWith(new SourceFile("skin.tga", TextureImagesTest.tga(4, 2, texels)),
                new SourceFile("skin.png", png));
        assertThat(both.meshes().getFirst().primitives().getFirst().material().baseColorTexture().bytes())
                .isEqualTo(png);
    }

    @Test
    void withoutAnImageTheSurfaceIsWhiteAndNothingIsWarned() {
        Model model = importWith();
        Material m = model.meshes().getFirst().primitives().getFirst().material();
        assertThat(m.name()).isEqualTo("models/skin");
        assertThat(m.baseColorTexture()).isNull();
        assertThat(model.warnings()).isEmpty();
    }
}
