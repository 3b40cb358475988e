package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static io.posekit.asset.fbx.FbxSceneFixture.p;
import static io.posekit.asset.fbx.FbxSceneFixture.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.asset.TextureImagesTest;
import io.posekit.export.AnimatedGltf;
import io.posekit.sampling.MorphWeights;
import io.posekit.skinning.Material;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A dressed FBX — two materials (one with an embedded TGA), blend shapes with an in-between and an animated channel —
 * written as a binary file, imported, exported as an animated glTF and imported again: the copy has the same
 * primitives, materials, texture pixels, morph targets, default weights and weights over time.
 */
class FbxExportRoundTripTest {

    private static final long TPS = FbxScene.TICKS_PER_SECOND;

    @Test
    void materialsTexturesAndMorphTargetsSurviveTheAnimatedGltf() {
        int[] texels = {0xFFFF0000, 0xFF00FF00, 0xFF0000FF, 0xFFFFFFFF, 0xFF000000, 0xFF808080, 0xFF102030, 0xFF302010};
        FbxSceneFixture f = FbxBlendShapeTest.face()
                .object("Material", 40, "skin", "", props(p("DiffuseColor", 1.0, 0.5, 0.25))).oo(40, 1)
                .object("Material", 41, "lips", "", props(p("DiffuseColor", 0.8, 0.1, 0.1), p("Opacity", 0.5))).oo(41, 1)
                .object("Texture", 42, "skinTex", "", leaf("RelativeFilename", "skin.tga")).op(42, 40, "DiffuseColor")
                .object("Video", 43, "skinVideo", "Clip", leaf("RelativeFilename", "skin.tga"),
                        leaf("Content", (Object) TextureImagesTest.tga(4, 2, texels))).oo(43, 42)
                .object("AnimationStack", 50, "Talk", "", props(p("LocalStart", 0L), p("LocalStop", 2 * TPS)))
                .object("AnimationLayer", 51, "Base", "").oo(51, 50)
                .object("AnimationCurveNode", 52, "DeformPercent", "").oo(52, 51).op(52, 22, "DeformPercent");
        f.rawObject("AnimationCurve", List.of(53L, "\0\1AnimCurve", ""), leaf("Default", 0.0), leaf("KeyVer", 4008),
                leaf("KeyTime", (Object) new long[] {0, 2 * TPS}), leaf("KeyValueFloat", (Object) new float[] {0, 100}),
                leaf("KeyAttrFlags", (Object) new int[] {FbxCurves.LINEAR}), leaf("KeyAttrDataFloat", (Object) new float[4]),
                leaf("KeyAttrRefCount", (Object) new int[] {2})).op(53, 52, "d|DeformPercent");
        // the quad is skin, the triangle lips
        FbxNode root = withMaterialLayer(f.root());
        byte[] fbx = FbxBinaryWriter.write(root, 7400);
        AssetImporters importers = AssetImporters.all(ImportLimits.DEFAULT);
        Model original = importers.importUpload(List.of(new SourceFile("face.fbx", fbx))).model();
        byte[] glb = AnimatedGltf.of(original, AnimatedGltf.Options.DEFAULT).glb();
        Model copy = importers.importUpload(List.of(new SourceFile("face.glb", glb))).model();

        List<Primitive> a = original.meshes().getFirst().primitives();
        List<Primitive> b = copy.meshes().getFirst().primitives();
        assertThat(a).hasSize(2);
        assertThat(b).hasSize(2);
        for (int i = 0; i < 2; i++) {
            Material ma = a.get(i).material();
            Material mb = b.get(i).material();
            assertThat(mb.name()).isEqualTo(ma.name());
            assertThat(mb.baseColorFactor()).containsExactly(ma.baseColorFactor(), within(1e-7f));
            assertThat(mb.alphaMode()).isEqualTo(ma.alphaMode());
            assertThat(b.get(i).positions()).containsExactly(a.get(i).positions());
            MorphTargets ta = a.get(i).morphTargets();
            MorphTargets tb = b.get(i).morphTargets();
            assertThat(tb.targetCount()).isEqualTo(3);
            for (int t = 0; t < 3; t++) {
                assertThat(tb.positionDeltas(t) == null ? new float[3 * a.get(i).vertexCount()] : tb.positionDeltas(t))
                        .as("target %d of primitive %d", t, i)
                        .containsExactly(ta.positionDeltas(t));
            }
        }
        assertThat(a.get(0).material().baseColorTexture().mimeType()).isEqualTo(Material.Texture.PNG);
        assertThat(TextureImagesTest.pixels(b.get(0).material().baseColorTexture().bytes())).containsExactly(texels);
        assertThat(b.get(1).material().baseColorTexture()).isNull();
        assertThat(b.get(1).material().alphaMode()).isEqualTo(Material.AlphaMode.BLEND);
        assertThat(copy.meshes().getFirst().morphWeights()).containsExactly(0.25f, 0, 0);
        for (double t : new double[] {0, 0.5, 1, 1.5, 2}) {
            assertThat(MorphWeights.evaluate(copy.meshes(), copy.clips().getFirst(), t).weights(0)).as("%s s", t)
                    .containsExactly(MorphWeights.evaluate(original.meshes(), original.clips().getFirst(), t).weights(0),
                            within(1e-6f));
        }
    }

    /**
     * The root with UVs (by control point) and a {@code LayerElementMaterial} (quad: material 0, triangle: material 1)
     * added to geometry 10.
     */
    private static FbxNode withMaterialLayer(FbxNode root) {
        FbxNode uv = new FbxNode("LayerElementUV", List.of(0), List.of(leaf("Version", 101), leaf("Name", "map1"),
                leaf("MappingInformationType", "ByControlPoint"), leaf("ReferenceInformationType", "Direct"),
                leaf("UV", (Object) new double[] {0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5})));
        FbxNode layer = new FbxNode("LayerElementMaterial", List.of(0), List.of(leaf("Version", 101),
                leaf("MappingInformationType", "ByPolygon"), leaf("ReferenceInformationType", "IndexToDirect"),
                leaf("Materials", (Object) new int[] {0, 1})));
        return map(root, uv, layer);
    }

    private static FbxNode map(FbxNode n, FbxNode... layers) {
        if (n.name().equals("Geometry") && n.properties().getFirst().equals(10L)) {
            List<FbxNode> children = new java.util.ArrayList<>(n.children());
            children.addAll(List.of(layers));
            return new FbxNode(n.name(), n.properties(), children);
        }
        return new FbxNode(n.name(), n.properties(), n.children().stream().map(c -> map(c, layers)).toList());
    }
}
