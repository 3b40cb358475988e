package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import org.junit.jupiter.api.Test;

/** Scene selection, node hierarchy and transforms, skins and mesh instances. */
class SceneImportTest {

    @Test
    void formatIsGltf() {
        assertThat(new GltfImporter().format()).isEqualTo(AssetFormat.GLTF);
    }

    @Test
    void skinnedTwoBoneStripImportsCompletely() {
        ImportScene scene = importGlb(GltfBuilder.skinnedTwoBoneStrip().toGlb());
        assertThat(scene.warnings()).isEmpty();

        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("Strip", "Root", "Tip");
        assertThat(scene.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, -1, 1);
        assertThat(scene.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(0, 1, 2);
        ImportScene.Node tip = scene.nodes().get(2);
        assertThat(tip.translation()).containsExactly(0, 1, 0);
        assertThat(tip.rotation()).containsExactly(0, 0, 0, 1);
        assertThat(tip.scale()).containsExactly(1, 1, 1);

        assertThat(scene.skins()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("Armature");
            assertThat(s.joints()).containsExactly(1, 2);
            assertThat(s.inverseBindMatrices()).containsExactly(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1);
        });

        ImportScene.MeshInstance mesh = scene.meshes().getFirst();
        assertThat(scene.meshes()).hasSize(1);
        assertThat(mesh.name()).isEqualTo("Strip");
        assertThat(mesh.node()).isZero();
        assertThat(mesh.skin()).isZero();
        assertThat(mesh.sourceMesh()).isZero();
        Primitive p = mesh.primitives().getFirst();
        assertThat(p.mode()).isEqualTo(PrimitiveMode.TRIANGLES);
        assertThat(p.attributes()).containsExactly("POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0");
        assertThat(p.vertexCount()).isEqualTo(6);
        assertThat(p.indices()).containsExactly(0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4);
        assertThat(p.normals()).containsExactly(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1);
        assertThat(p.tangents()).isNull();
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(p.joints()).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
        assertThat(p.weights()).containsExactly(1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0,
                1, 0, 0, 0, 1, 0, 0, 0);

        assertThat(scene.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("Bend");
            assertThat(c.tracks()).hasSize(2);
            Track rotation = c.tracks().get(0);
            assertThat(rotation.node()).isEqualTo(2);
            assertThat(rotation.property()).isEqualTo(TrackProperty.ROTATION);
            assertThat(rotation.interpolation()).isEqualTo(Interpolation.LINEAR);
            assertThat(rotation.components()).isEqualTo(4);
            assertThat(rotation.times()).containsExactly(0, 1, 2);
            assertThat(rotation.values()[11]).isEqualTo((float) Math.sqrt(0.5));
            Track translation = c.tracks().get(1);
            assertThat(translation.node()).isEqualTo(1);
            assertThat(translation.property()).isEqualTo(TrackProperty.TRANSLATION);
            assertThat(translation.interpolation()).isEqualTo(Interpolation.STEP);
            assertThat(translation.values()).containsExactly(0, 0, 0, 0, 0.5f, 0);
        });

        Model model = ModelBuilder.build(AssetFormat.GLTF, scene);
        assertThat(model.clips().getFirst().duration()).isEqualTo(2.0);
        assertThat(model.skins().getFirst().jointCount()).isEqualTo(2);
    }

    @Test
    void nodeMatrixIsDecomposed() {
        GltfBuilder b = new GltfBuilder();
        float h = (float) Math.sqrt(0.5);
        // T(1,2,3) · Rz(90°) · S(2,2,2), column-major
        b.node("m").matrix(0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1);
        ImportScene scene = importGlb(b.toGlb());
        ImportScene.Node n = scene.nodes().getFirst();
        assertThat(n.translation()).containsExactly(1, 2, 3);
        assertThat(n.rotation()[0]).isCloseTo(0, within(1e-6f));
        assertThat(n.rotation()[1]).isCloseTo(0, within(1e-6f));
        assertThat(n.rotation()[2]).isCloseTo(h, within(1e-6f));
        assertThat(n.rotation()[3]).isCloseTo(h, within(1e-6f));
        assertThat(n.scale()).containsExactly(2, 2, 2);
        assertThat(scene.warnings()).isEmpty();
    }

    @Test
    void shearedMatrixIsApproximatedWithAWarning() {
        GltfBuilder b = new GltfBuilder();
        b.node("sheared").matrix(1, 0, 0, 0, 0.5f, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).singleElement().satisfies(w -> assertThat(w)
                .startsWith("node 0: matrix has shear or projection that translation/rotation/scale cannot represent "
                        + "(reconstruction error ")
                .endsWith("); the nearest TRS is used"));
    }

    @Test
    void matrixWinsOverTrsWithAWarning() {
        GltfBuilder b = new GltfBuilder();
        b.node("both").translation(5, 5, 5).matrix(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 7, 8, 9, 1);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.nodes().getFirst().translation()).containsExactly(7, 8, 9);
        assertThat(scene.warnings()).containsExactly("node 0 has both a matrix and translation/rotation/scale; the matrix is used");
    }

    @Test
    void malformedTransformsAreRejected() {
        GltfBuilder b = new GltfBuilder();
        b.node("n");
        b.set("nodes", 0, "translation", new float[] {1, 2});
        assertInvalid(() -> importGlb(b.toGlb()), "node 0: translation must have 3 numbers, not 2");
        b.set("nodes", 0, "translation", null).set("nodes", 0, "rotation", "identity");
        assertInvalid(() -> importGlb(b.toGlb()), "node 0: rotation must be an array, not \"identity\"");
        b.set("nodes", 0, "rotation", null);
        b.set("nodes", 0, "scale", tools.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add(1).add("2").add(3));
        assertInvalid(() -> importGlb(b.toGlb()), "node 0: scale[1] must be a number, not \"2\"");
        b.set("nodes", 0, "scale", new float[] {1, 1, 1}).set("nodes", 0, "name", 42);
        assertInvalid(() -> importGlb(b.toGlb()), "node 0: name must be a string, not 42");
    }

    @Test
    void hugeNumbersThatOverflowFloatAreRejected() {
        String json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[1e39,0,0]}]}";
        assertInvalid(() -> GltfTestSupport.importGltf(json), "node 0: translation[0] 1.0E39 is not a finite float");
    }

    @Test
    void cyclesAndTwoParentsAreRejected() {
        GltfBuilder cycle = new GltfBuilder();
        cycle.node("a").children(1);
        cycle.node("b").children(0);
        assertInvalid(() -> importGlb(cycle.toGlb()), "the node hierarchy has a cycle through node 0");

        GltfBuilder longer = new GltfBuilder();
        longer.node("root");
        longer.node("x").children(2);
        longer.node("y").children(3);
        longer.node("z").children(1);
        longer.node("hanging");
        longer.set("nodes", 3, "children", new int[] {1, 4});
        assertInvalid(() -> importGlb(longer.toGlb()), "the node hierarchy has a cycle through node 1");

        GltfBuilder self = new GltfBuilder();
        self.node("self").children(0);
        assertInvalid(() -> importGlb(self.toGlb()), "the node hierarchy has a cycle: node 0 lists itself as a child");

        GltfBuilder twoParents = new GltfBuilder();
        twoParents.node("p1").children(2);
        twoParents.node("p2").children(2);
        twoParents.node("child");
        assertInvalid(() -> importGlb(twoParents.toGlb()), "node 2 has two parents: node 0 and node 1");

        GltfBuilder twice = new GltfBuilder();
        twice.node("p").children(1, 1);
        twice.node("c");
        assertInvalid(() -> importGlb(twice.toGlb()), "node 0 lists child 1 twice");

        GltfBuilder missing = new GltfBuilder();
        missing.node("p").children(5);
        assertInvalid(() -> importGlb(missing.toGlb()), "node 0: child 5 does not exist (there are 1)");
    }

    @Test
    void sceneSelection() {
        GltfBuilder b = new GltfBuilder();
        b.node("a0").children(1);
        b.node("a1");
        b.node("b0");
        b.node("loose");
        b.addScene("A", 0);
        b.addScene("B", 2);
        // no 'scene' property: scene 0
        assertThat(importGlb(b.toGlb()).nodes()).extracting(ImportScene.Node::name).containsExactly("a0", "a1");
        b.defaultScene(1);
        ImportScene sceneB = importGlb(b.toGlb());
        assertThat(sceneB.nodes()).extracting(ImportScene.Node::name).containsExactly("b0");
        assertThat(sceneB.nodes().getFirst().sourceIndex()).isEqualTo(2);
        b.defaultScene(2);
        assertInvalid(() -> importGlb(b.toGlb()), "glTF: scene 2 does not exist (there are 2)");
        // no scenes at all: every root node
        b.setRoot("scene", null).setRoot("scenes", null);
        assertThat(importGlb(b.toGlb()).nodes()).extracting(ImportScene.Node::name)
                .containsExactly("a0", "a1", "b0", "loose");
    }

    @Test
    void sceneListingANonRootNodeImportsItsSubtreeAsARoot() {
        GltfBuilder b = new GltfBuilder();
        b.node("top").children(1);
        b.node("mid").children(2);
        b.node("leaf");
        b.addScene("s", 1);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("mid", "leaf");
        assertThat(scene.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0);
        assertThat(scene.warnings()).containsExactly(
                "scene 0: node 1 is not a root node (its parent is node 0); it is imported with its subtree");
    }

    @Test
    void skinJointOutsideTheSceneAddsItsHierarchy() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.set("scenes", 0, "nodes", new int[] {0});
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("Strip", "Root", "Tip");
        assertThat(scene.warnings()).containsExactly(
                "skin 0: joint node 1 is not in scene 0; its hierarchy (root node 1) was added to the import");
        assertThat(scene.clips().getFirst().tracks()).hasSize(2);
    }

    @Test
    void channelsTargetingNodesOutsideTheSceneAreDropped() {
        GltfBuilder b = new GltfBuilder();
        int in = b.node("in").index();
        int out = b.node("out").index();
        b.addScene("s", in);
        b.animation("A").track(in, "translation", null, new float[] {0}, new float[] {1, 2, 3})
                .track(out, "scale", null, new float[] {0}, new float[] {1, 1, 1})
                .track(out, "rotation", null, new float[] {0}, new float[] {0, 0, 0, 1});
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.nodes()).hasSize(1);
        assertThat(scene.clips().getFirst().tracks()).singleElement()
                .satisfies(t -> assertThat(t.property()).isEqualTo(TrackProperty.TRANSLATION));
        assertThat(scene.warnings()).containsExactly("animation 0 ('A'): 2 channels target nodes outside scene 0; dropped");
    }

    @Test
    void meshInstancesShareDecodedPrimitivesAndTakeTheirNames() {
        GltfBuilder b = new GltfBuilder();
        int pos = b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
        int named = b.mesh("tri").primitive(GltfBuilder.attributes("POSITION", pos)).index();
        int unnamed = b.mesh(null).primitive(GltfBuilder.attributes("POSITION", pos)).index();
        b.node("first").mesh(named);
        b.node("second").mesh(named).translation(1, 0, 0);
        b.node("third").mesh(unnamed);
        b.node(null).mesh(unnamed);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::name).containsExactly("tri", "tri", "third", null);
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::node).containsExactly(0, 1, 2, 3);
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::skin).containsExactly(-1, -1, -1, -1);
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::sourceMesh).containsExactly(0, 0, 1, 1);
        assertThat(scene.meshes().get(1).primitives()).isSameAs(scene.meshes().get(0).primitives());
        // both meshes use one POSITION accessor: one decoded array
        assertThat(scene.meshes().get(2).primitives().getFirst().positions())
                .isSameAs(scene.meshes().get(0).primitives().getFirst().positions());
        assertThat(scene.meshes().get(0).primitives().getFirst().mode()).isEqualTo(PrimitiveMode.TRIANGLES);
        assertThat(scene.meshes().get(0).primitives().getFirst().indices()).isNull();
    }

    @Test
    void skinWithoutMeshIsIgnoredWithAWarning() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.set("nodes", 1, "skin", 0);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("node 1 has skin 0 but no mesh; the skin is ignored on this node");
        b.set("nodes", 1, "skin", 4);
        assertInvalid(() -> importGlb(b.toGlb()), "node 1: skin 4 does not exist (there are 1)");
        b.set("nodes", 1, "skin", null).set("nodes", 0, "mesh", 1);
        assertInvalid(() -> importGlb(b.toGlb()), "node 0: mesh 1 does not exist (there are 1)");
    }

    @Test
    void inverseBindMatrixCountIsChecked() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        float[] three = new float[48];
        for (int k = 0; k < 3; k++) {
            three[16 * k] = three[16 * k + 5] = three[16 * k + 10] = three[16 * k + 15] = 1;
        }
        int ibm3 = b.addFloatAccessor(three, "MAT4");
        b.set("skins", 0, "inverseBindMatrices", ibm3);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.skins().getFirst().inverseBindMatrices()).hasSize(32);
        assertThat(scene.warnings()).containsExactly("skin 0: inverseBindMatrices accessor " + ibm3
                + " has 3 matrices for 2 joints; the extra ones are ignored");

        int ibm1 = b.addFloatAccessor(new float[16], "MAT4");
        b.set("skins", 0, "inverseBindMatrices", ibm1);
        assertInvalid(() -> importGlb(b.toGlb()),
                "skin 0: inverseBindMatrices accessor " + ibm1 + " has 1 matrices but the skin has 2 joints");

        int wrongType = b.addFloatAccessor(new float[32], "VEC4");
        b.set("skins", 0, "inverseBindMatrices", wrongType);
        assertInvalid(() -> importGlb(b.toGlb()),
                "skin 0: inverseBindMatrices accessor " + wrongType + " must be MAT4, not VEC4");

        b.set("skins", 0, "inverseBindMatrices", null);
        assertThat(importGlb(b.toGlb()).skins().getFirst().inverseBindMatrices()).isNull();
    }

    @Test
    void skinJointsAreChecked() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.set("skins", 0, "joints", new int[] {1, 9});
        assertInvalid(() -> importGlb(b.toGlb()), "skin 0: joint 1 = node 9 does not exist (there are 3)");
        b.set("skins", 0, "joints", new int[0]);
        assertInvalid(() -> importGlb(b.toGlb()), "skin 0: joints must not be empty");
        b.set("skins", 0, "joints", null);
        assertInvalid(() -> importGlb(b.toGlb()), "skin 0: joints is required");
    }
}
