package io.posekit.asset.gltf;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.HumanoidMap;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The humanoid bone maps of VRM avatars and animations ({@link VrmHumanoid}): read into {@link Model#humanoid()} with
 * rig node indices, VRM 0.x thumbs under their VRM 1.0 names, bad entries skipped with a warning.
 */
class VrmHumanoidTest {

    private static Model upload(String name, GltfBuilder b) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile(name, b.toGlb()))).model();
    }

    /**
     * glTF nodes 0 "c", 1 "b", 2 "a", 3 "d": a chain a → b → c and a second root d. The rig orders them parent-first
     * (a, b, c, d), so glTF node 2 is rig node 0, node 1 rig node 1, node 0 rig node 2.
     */
    private static GltfBuilder chain(String extension) {
        GltfBuilder b = new GltfBuilder().extensionsUsed(extension);
        int c = b.node("c").translation(0, 1, 0).index();
        int bb = b.node("b").translation(0, 1, 0).index();
        int a = b.node("a").index();
        int d = b.node("d").index();
        ((ObjectNode) b.json().get("nodes").get(a)).putArray("children").add(bb);
        ((ObjectNode) b.json().get("nodes").get(bb)).putArray("children").add(c);
        b.addScene("Scene", d, a);
        b.defaultScene(0);
        return b;
    }

    @Test
    void vrm0BonesWithThumbsUnderTheirVrm1NamesAndRigIndices() {
        GltfBuilder b = chain("VRM");
        ArrayNode bones = b.json().putObject("extensions").putObject("VRM").putObject("humanoid").putArray("humanBones");
        bones.addObject().put("bone", "hips").put("node", 2);
        bones.addObject().put("bone", "leftThumbProximal").put("node", 1);
        bones.addObject().put("bone", "leftThumbIntermediate").put("node", 0);
        Model model = upload("a.vrm", b);
        HumanoidMap map = model.humanoid();
        assertThat(map.kind()).isEqualTo(HumanoidMap.Kind.VRM0);
        assertThat(map.facesMinusZ()).isTrue();
        assertThat(model.rig().name(0)).isEqualTo("a");
        assertThat(model.rig().name(2)).isEqualTo("c");
        assertThat(map.bones()).containsExactly(Map.entry("hips", 0), Map.entry("leftThumbMetacarpal", 1),
                Map.entry("leftThumbProximal", 2));
        assertThat(model.warnings()).isEmpty();
    }

    @Test
    void vrm1AndVrmaMapsAndBadEntriesSkippedWithAWarning() {
        GltfBuilder b = chain("VRMC_vrm");
        ObjectNode bones = b.json().putObject("extensions").putObject("VRMC_vrm").putObject("humanoid")
                .putObject("humanBones");
        bones.putObject("hips").put("node", 2);
        bones.putObject("spine").put("node", 99);
        bones.putObject("chest").put("node", "1");
        bones.putObject("neck").put("node", 2);
        bones.put("head", 5);
        Model model = upload("a.vrm", b);
        assertThat(model.humanoid().kind()).isEqualTo(HumanoidMap.Kind.VRM1);
        assertThat(model.humanoid().bones()).containsExactly(Map.entry("hips", 0));
        assertThat(model.warnings()).containsExactly(
                "extensions.VRMC_vrm.humanoid.humanBones.spine names node 99, which the import does not have; skipped",
                "extensions.VRMC_vrm.humanoid.humanBones.chest has no bone name and integer node; skipped",
                "extensions.VRMC_vrm.humanoid.humanBones.neck repeats bone 'neck' or node 2; skipped",
                "extensions.VRMC_vrm.humanoid.humanBones.head has no bone name and integer node; skipped");

        GltfBuilder a = chain("VRMC_vrm_animation");
        a.json().putObject("extensions").putObject("VRMC_vrm_animation").putObject("humanoid").putObject("humanBones")
                .putObject("hips").put("node", 0);
        Model clip = upload("a.vrma", a);
        assertThat(clip.humanoid().kind()).isEqualTo(HumanoidMap.Kind.VRMA);
        assertThat(clip.humanoid().facesMinusZ()).isFalse();
        assertThat(clip.humanoid().bones()).containsExactly(Map.entry("hips", 2));

        GltfBuilder none = chain("VRM");
        none.json().putObject("extensions").putObject("VRM").putObject("humanoid").putObject("humanBones");
        Model plain = upload("a.vrm", none);
        assertThat(plain.humanoid()).isNull();
        assertThat(plain.warnings()).containsExactly(
                "extensions.VRM.humanoid.humanBones is not an array; the humanoid bone map is ignored");
    }
}
