package io.posekit.asset.gltf;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * VRM avatars ({@code .vrm}: a GLB with the VRM 0.x {@code VRM} or VRM 1.0 {@code VRMC_vrm} extension) and VRM
 * animations ({@code .vrma}: a GLB with {@code VRMC_vrm_animation}) upload as glTF: the file name picks the glTF
 * importer, the extensions (not required) are ignored, the rig, skin, mesh and clips are the GLB's.
 */
class VrmUploadTest {

    private static Model upload(String name, byte[] bytes) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile(name, bytes))).model();
    }

    @Test
    void vrmAvatarsOfBothVersionsAreGltf() {
        GltfBuilder v1 = GltfBuilder.skinnedTwoBoneStrip().extensionsUsed("VRMC_vrm");
        ObjectNode vrmc = v1.json().putObject("extensions").putObject("VRMC_vrm");
        vrmc.put("specVersion", "1.0");
        ObjectNode bones = vrmc.putObject("humanoid").putObject("humanBones");
        bones.putObject("hips").put("node", 1);
        bones.putObject("spine").put("node", 2);
        GltfBuilder v0 = GltfBuilder.skinnedTwoBoneStrip().extensionsUsed("VRM");
        ObjectNode vrm = v0.json().putObject("extensions").putObject("VRM");
        vrm.put("exporterVersion", "UniVRM-0.99");
        vrm.putObject("humanoid").putArray("humanBones").addObject().put("bone", "hips").put("node", 1);
        Model plain = upload("strip.glb", GltfBuilder.skinnedTwoBoneStrip().toGlb());
        for (GltfBuilder avatar : List.of(v1, v0)) {
            Model model = upload("avatar.vrm", avatar.toGlb());
            assertThat(model.format()).isEqualTo(AssetFormat.GLTF);
            assertThat(model.warnings()).isEmpty();
            assertThat(model.rig().nodeCount()).isEqualTo(plain.rig().nodeCount());
            assertThat(model.skins()).hasSize(1);
            assertThat(model.meshes().getFirst().primitives().getFirst().positions())
                    .containsExactly(plain.meshes().getFirst().primitives().getFirst().positions());
            assertThat(model.clips().getFirst().name()).isEqualTo("Bend");
        }
    }

    @Test
    void vrmAnimationsAreGltfClips() {
        GltfBuilder b = new GltfBuilder().extensionsUsed("VRMC_vrm_animation");
        int hips = b.node("hips").index();
        b.addScene("Scene", hips);
        b.defaultScene(0);
        b.animation("wave").track(hips, "rotation", "LINEAR", new float[] {0, 1},
                new float[] {0, 0, 0, 1, 0, (float) Math.sqrt(0.5), 0, (float) Math.sqrt(0.5)});
        ObjectNode ext = b.json().putObject("extensions").putObject("VRMC_vrm_animation");
        ext.put("specVersion", "1.0");
        ext.putObject("humanoid").putObject("humanBones").putObject("hips").put("node", hips);
        Model model = upload("wave.vrma", b.toGlb());
        assertThat(model.format()).isEqualTo(AssetFormat.GLTF);
        assertThat(model.clips()).hasSize(1);
        assertThat(model.clips().getFirst().name()).isEqualTo("wave");
        assertThat(model.clips().getFirst().duration()).isEqualTo(1);
    }
}
