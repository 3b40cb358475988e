package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Curve;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import io.posekit.sampling.Pose;
import io.posekit.skinning.Material;
import io.posekit.skinning.MeshInstance;
import io.posekit.skinning.MeshPoser;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Known answers for {@link AnimatedGltf} on a model built in code: a three-node rig (Root at (0, 1, 0), Arm rotated
 * 90° about Z under it, Hand under Arm), a skin over Arm and Hand, a skinned quad on Root with five influences on one
 * vertex, a repeated joint and a vertex without weight, a rigid morphing triangle on Hand and a second instance on
 * Hand; clip Wave with a LINEAR rotation track (glTF's own) and clip Slide whose Root is driven by curves (linear
 * translation, Bézier rotation) that glTF cannot hold.
 */
class AnimatedGltfTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final float S = (float) Math.sqrt(0.5);

    static Rig rig() {
        return new Rig(new String[] {"Root", "Arm", "Hand"}, new int[] {-1, 0, 1}, new int[] {-1, -1, -1},
                new float[] {0, 1, 0, 1, 0, 0, 1, 0, 0}, new float[] {0, 0, 0, 1, 0, 0, S, S, 0, 0, 0, 1},
                new float[] {1, 1, 1, 1, 1, 1, 1, 1, 1});
    }

    static Skin skin() {
        float[] ibm = new float[32];
        for (int k = 0; k < 2; k++) {
            ibm[16 * k] = ibm[16 * k + 5] = ibm[16 * k + 10] = ibm[16 * k + 15] = 1;
        }
        ibm[16 + 12] = -1; // Hand's bind: one unit along x
        return new Skin("Body", new int[] {1, 2}, ibm);
    }

    /** A quad; vertex 0: five influences (joint 0 twice); vertex 3: no weight at all. 8 slots per vertex. */
    static Primitive skinnedQuad() {
        float[] positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
        float[] normals = {0, 0, 1, 0, 0, 2, 0, 0, 1, 0, 0, 1};
        int[] joints = {0, 1, 0, 1, 0, 0, 0, 0, /* */ 1, 0, 0, 0, 0, 0, 0, 0, /* */ 0, 1, 0, 0, 0, 0, 0, 0,
            /* */ 1, 0, 0, 0, 0, 0, 0, 0};
        float[] weights = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0, 0, 0, /* */ 2, 0, 0, 0, 0, 0, 0, 0,
            /* */ 0.5f, 0.5f, 0, 0, 0, 0, 0, 0, /* */ 0, 0, 0, 0, 0, 0, 0, 0};
        Material red = new Material("Red", new float[] {1, 0, 0, 1}, 0, 0.5f, new float[3], Material.AlphaMode.OPAQUE,
                0.5f, true, new Material.Texture(Material.Texture.PNG, PosedFixtures.png()), 0);
        return new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION"), positions, normals,
                new float[] {2, 0, 0, -0.5f, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}, new int[] {0, 1, 2, 2, 1, 3}, 8, joints,
                weights, new float[] {0, 0, 1, 0, 0, 1, 1, 1}, red)
                .withFurtherTexcoords(List.of(new float[] {0.5f, 0.5f, 0.25f, 0.75f, 1, 2, -1, 0}));
    }

    static Primitive morphingTriangle() {
        float[] positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        return new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION"), positions, null, null, null, 0, new int[0],
                new float[0]).withMorphTargets(new MorphTargets(3, new float[][] {{0, 0, 1, 0, 0, 1, 0, 0, 1}, null}, null));
    }

    static Model model() {
        Primitive tri = morphingTriangle();
        Track wave = new Track(1, TrackProperty.ROTATION, Interpolation.LINEAR, 4, new float[] {0, 1},
                new float[] {0, 0, S, S, 0, 0, 1, 0});
        Track morph = new Track(2, TrackProperty.WEIGHTS, Interpolation.STEP, 2, new float[] {0, 0.5f},
                new float[] {0, 0, 1, 0.5f});
        // Root slides 2 units along x in 1 s, linearly, while turning about y on an ease-in-out Bézier to 90°
        NodeTransformTrack slide = new NodeTransformTrack(0, List.of(
                new NodeTransformTrack.Translate(Curve.linear(new float[] {0, 1}, new float[] {0, 2}), Curve.constant(1),
                        Curve.constant(0)),
                new NodeTransformTrack.Rotate(0, 1, 0, new Curve(new float[] {0, 1}, new float[] {0, 90},
                        new byte[] {Curve.BEZIER}, new float[] {0.4f, 0, 0.6f, 90}))));
        return new Model(AssetFormat.COLLADA, rig(), List.of(skin()),
                List.of(new MeshInstance("Quad", 0, 0, 0, List.of(skinnedQuad())),
                        new MeshInstance("Tri", 2, -1, 1, List.of(tri), new float[] {0.25f, 0}),
                        new MeshInstance("Tri", 2, -1, 1, List.of(tri), new float[] {0.25f, 0})),
                List.of(Clip.of("Wave", List.of(wave, morph)), Clip.of("Slide", List.of(), List.of(slide))), List.of());
    }

    @Test
    void writesTheNodeHierarchySkinsMeshesAndMaterials() {
        GlbFile f = GlbFile.parse(AnimatedGltf.of(model(), AnimatedGltf.Options.DEFAULT).glb());
        JsonNode json = f.json();
        // the skinned quad's node is Root, which has a transform: the quad goes onto a scene root of its own, without
        // transform, as glTF recommends for skinned meshes
        assertThat(json.get("scenes").get(0).get("nodes").toString()).isEqualTo("[0,3]");
        assertThat(json.get("nodes").toString()).isEqualTo("[{\"name\":\"Root\",\"children\":[1],\"translation\":[0,1.0,0]},"
                + "{\"name\":\"Arm\",\"children\":[2],\"translation\":[1.0,0,0],\"rotation\":[0,0,"
                + S + "," + S + "]},{\"name\":\"Hand\",\"children\":[4],\"translation\":[1.0,0,0],\"mesh\":1,\"weights\":"
                + "[0.25,0]},{\"name\":\"Quad\",\"mesh\":0,\"skin\":0},{\"name\":\"Tri\",\"mesh\":1,\"weights\":[0.25,0]}]");
        assertThat(json.get("skins").toString()).isEqualTo("[{\"name\":\"Body\",\"inverseBindMatrices\":"
                + json.get("skins").get(0).get("inverseBindMatrices") + ",\"joints\":[1,2]}]");
        float[] ibm = f.floats(json.get("skins").get(0).get("inverseBindMatrices").asInt());
        assertThat(ibm).containsExactly(skin().inverseBindMatrices());
        // two instances of the triangle: one glTF mesh, with the first instance's default weights
        assertThat(json.get("meshes").size()).isEqualTo(2);
        assertThat(json.get("meshes").get(1).get("weights").toString()).isEqualTo("[0.25,0]");
        JsonNode quad = f.primitive(0, 0);
        assertThat(quad.get("attributes").propertyNames()).containsExactly("POSITION", "NORMAL", "TEXCOORD_0",
                "TEXCOORD_1", "TANGENT", "JOINTS_0", "WEIGHTS_0");
        assertThat(f.floats(quad.get("attributes").get("TEXCOORD_1").asInt()))
                .containsExactly(0.5f, 0.5f, 0.25f, 0.75f, 1, 2, -1, 0);
        assertThat(f.floats(quad.get("attributes").get("NORMAL").asInt())).containsExactly(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1);
        assertThat(f.floats(quad.get("attributes").get("TANGENT").asInt()))
                .containsExactly(1, 0, 0, -1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1);
        assertThat(f.ints(quad.get("indices").asInt())).containsExactly(0, 1, 2, 2, 1, 3);
        assertThat(json.get("materials").get(0).get("name").asString()).isEqualTo("Red");
        assertThat(json.get("materials").get(0).get("pbrMetallicRoughness").get("baseColorTexture").get("index").asInt())
                .isZero();
        assertThat(json.get("images").size()).isEqualTo(1);
        // the triangle's second target displaces nothing: a zero accessor without a buffer view
        JsonNode targets = f.primitive(1, 0).get("targets");
        assertThat(f.floats(targets.get(0).get("POSITION").asInt())).containsExactly(0, 0, 1, 0, 0, 1, 0, 0, 1);
        JsonNode zero = f.accessor(targets.get(1).get("POSITION").asInt());
        assertThat(zero.has("bufferView")).isFalse();
        assertThat(zero.get("min").toString()).isEqualTo("[0,0,0]");
    }

    @Test
    void influencesArePackedMergedAndNormalised() {
        GlbFile f = GlbFile.parse(AnimatedGltf.of(model(), AnimatedGltf.Options.DEFAULT).glb());
        JsonNode a = f.primitive(0, 0).get("attributes");
        assertThat(f.accessor(a.get("JOINTS_0").asInt()).get("componentType").asInt()).isEqualTo(5121);
        // vertex 0: joint 0 ×3 merged (0.6), joint 1 ×2 (0.4); vertex 1: joint 1 alone (weight 2 → 1); vertex 2: half
        // and half; vertex 3 has no weight: bound to its slot-0 joint, as posekit skins it
        assertThat(f.ints(a.get("JOINTS_0").asInt())).containsExactly(0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0);
        float[] w = f.floats(a.get("WEIGHTS_0").asInt());
        assertThat(w).containsExactly(new float[] {0.6f, 0.4f, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0},
                org.assertj.core.data.Offset.offset(6e-8f));
        for (int v = 0; v < 4; v++) {
            assertThat((double) w[4 * v] + w[4 * v + 1] + w[4 * v + 2] + w[4 * v + 3]).isCloseTo(1, org.assertj.core.data.Offset.offset(6e-8));
        }
        // the source's 8 slots: after merging, two influences at most, so one set
        assertThat(a.has("JOINTS_1")).isFalse();
    }

    @Test
    void byteWeightsStayBytes() {
        int[] joints = {0, 1, 0, 0};
        float[] weights = {(float) (200 / 255.0), (float) (55 / 255.0), 0, 0};
        Primitive p = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0}, null, null, null, 4,
                joints, weights);
        InfluenceSets sets = InfluenceSets.of(p, 2);
        assertThat(sets.weightWidth()).isEqualTo(1);
        assertThat(sets.quantizedWeights()).containsExactly(200, 55, 0, 0);
        assertThat(sets.sets()).isEqualTo(1);
        assertThat(sets.jointWidth()).isEqualTo(1);

        Primitive sevenths = new Primitive(PrimitiveMode.POINTS, List.of("POSITION"), new float[] {0, 0, 0}, null, null,
                null, 4, joints, new float[] {1, 6, 0, 0});
        InfluenceSets floats = InfluenceSets.of(sevenths, 2);
        assertThat(floats.weightWidth()).isEqualTo(4);
        assertThat((double) floats.weights()[0] + floats.weights()[1]).isCloseTo(1, org.assertj.core.data.Offset.offset(6e-8));
        assertThat(floats.weights()[0]).isEqualTo((float) (1 / 7.0));
        assertThatThrownBy(() -> InfluenceSets.of(p, 1)).hasMessage("vertex 0 uses joint 1 of a skin with 1 joints");
    }

    @Test
    void glTFsOwnTracksAreWrittenAsTheyAreAndCurvesAreResampledAndReduced() {
        AnimatedGltf export = AnimatedGltf.of(model(), AnimatedGltf.Options.DEFAULT);
        GlbFile f = GlbFile.parse(export.glb());
        JsonNode wave = f.json().get("animations").get(0);
        assertThat(wave.get("name").asString()).isEqualTo("Wave");
        assertThat(wave.get("channels").toString()).isEqualTo("[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
                + "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"weights\"}},{\"sampler\":1,\"target\":{\"node\":4,"
                + "\"path\":\"weights\"}}]");
        JsonNode rotation = wave.get("samplers").get(0);
        assertThat(rotation.get("interpolation").asString()).isEqualTo("LINEAR");
        assertThat(f.floats(rotation.get("input").asInt())).containsExactly(0, 1);
        assertThat(f.floats(rotation.get("output").asInt())).containsExactly(0, 0, S, S, 0, 0, 1, 0);
        assertThat(wave.get("samplers").get(1).get("interpolation").asString()).isEqualTo("STEP");

        JsonNode slide = f.json().get("animations").get(1);
        assertThat(slide.get("channels").size()).isEqualTo(3);
        AnimatedGltf.ClipReport r = export.report().clips().get(1);
        // 61 check frames (60 Hz over 1 s) per channel; translation is linear and scale constant: two keys each
        assertThat(r.keysBefore()).isEqualTo(3 * 61);
        float[] times = f.floats(slide.get("samplers").get(0).get("input").asInt());
        assertThat(times).containsExactly(0, 1);
        assertThat(f.floats(slide.get("samplers").get(0).get("output").asInt())).containsExactly(0, 1, 0, 2, 1, 0);
        float[] rotationTimes = f.floats(slide.get("samplers").get(1).get("input").asInt());
        // a 90° ease-in-out: its slerp between 60 Hz frames already misses by more than 1e-4 rad in the fast middle,
        // so only keys near the slow ends go
        assertThat(rotationTimes.length).isBetween(3, 60);
        assertThat(r.keysAfter()).isEqualTo(2 + rotationTimes.length + 2);
        assertThat(r.maxRotationError()).isGreaterThan(0).isLessThanOrEqualTo(1e-4);
        assertThat(r.maxTranslationError()).isLessThan(1e-6);
        assertThat(export.report().skeletonSize()).isCloseTo(Math.sqrt(2), org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void theReducedRotationStaysWithinTheToleranceOfPosekitsOwnSampleOnTheCheckGrid() {
        Model model = model();
        Model copy = RoundTrip.reimport(AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb());
        Clip a = model.clips().get(1);
        Clip b = copy.clips().get(1);
        for (int frame = 0; frame <= 60; frame++) {
            double t = (float) (frame / 60.0);
            float[] ra = Pose.evaluate(model.rig(), a, t).local().rotations();
            float[] rb = Pose.evaluate(copy.rig(), b, t).local().rotations();
            assertThat(KeyReduction.angle(ra, 0, rb, 0)).as("frame %d", frame).isLessThanOrEqualTo(1.0001e-4);
        }
    }

    @Test
    void theRoundTripGivesTheSameSkinningMatricesAndVertices() {
        Model model = model();
        Model copy = RoundTrip.reimport(AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb());
        assertThat(copy.rig().names()).containsExactly("Root", "Arm", "Hand", "Tri", "Quad");
        for (double t : new double[] {0, 0.25, 0.5, 1}) {
            float[] ma = MeshPoser.skinningMatrices(model.skins().getFirst(),
                    Pose.evaluate(model.rig(), model.clips().getFirst(), t).modelMatrices());
            float[] mb = MeshPoser.skinningMatrices(copy.skins().getFirst(),
                    Pose.evaluate(copy.rig(), copy.clips().getFirst(), t).modelMatrices());
            assertThat(mb).as("t = %s", t).containsExactly(ma);
        }
        List<RoundTrip.Deviation> deviations = RoundTrip.compare(model, copy,
                List.of(new ConformanceAssets.Sample(0.3, "clamp"), new ConformanceAssets.Sample(0.8, "clamp")),
                AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).report());
        assertThat(deviations.get(1).matrix()).isZero(); // Wave: exact
        assertThat(deviations.get(1).position()).isLessThan(1e-7);
        assertThat(deviations.get(2).resampled()).isTrue();
        assertThat(deviations.get(2).position()).isLessThan(1e-4);
    }

    @Test
    void aRateResamplesEveryTransformChannelOnItsGrid() {
        AnimatedGltf export = AnimatedGltf.of(model(), new AnimatedGltf.Options(List.of("Wave"), 4.0, 0));
        GlbFile f = GlbFile.parse(export.glb());
        assertThat(f.json().get("animations").size()).isEqualTo(1);
        JsonNode animation = f.json().get("animations").get(0);
        // the weights track keeps its own keys and comes first; the resampled rotation after it
        assertThat(animation.get("channels").get(2).get("target").get("path").asString()).isEqualTo("rotation");
        JsonNode sampler = animation.get("samplers").get(animation.get("channels").get(2).get("sampler").asInt());
        // Wave's rotation on a 4 Hz grid over 1 s: 5 candidate keys; with tolerance 0 the slerp between the ends
        // is not reproduced exactly by float32 keys at every 60 Hz frame, so keys stay where they must
        assertThat(export.report().clips().getFirst().keysBefore()).isEqualTo(5);
        assertThat(f.floats(sampler.get("input").asInt())).startsWith(0).endsWith(1);
    }

    @Test
    void aTrackWithARepeatedKeyTimeIsResampled() {
        // Root jumps from x = 1 to x = 3 at 0.5 s: glTF times must increase strictly, so this is resampled
        Track jump = new Track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, new float[] {0, 0.5f, 0.5f, 1},
                new float[] {0, 0, 0, 1, 0, 0, 3, 0, 0, 4, 0, 0});
        Model model = new Model(AssetFormat.BVH, rig(), List.of(), List.of(), List.of(Clip.of("Jump", List.of(jump))),
                List.of());
        AnimatedGltf export = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT);
        AnimatedGltf.ClipReport r = export.report().clips().getFirst();
        assertThat(r.resampledChannels()).isEqualTo(1);
        assertThat(r.exactChannels()).isZero();
        assertThat(r.keysBefore()).isEqualTo(61);
        Model copy = RoundTrip.reimport(export.glb());
        for (double t : new double[] {0, 0.25, 29 / 60.0, 0.5, 0.75, 1}) {
            float[] a = Pose.evaluate(model.rig(), model.clips().getFirst(), (float) t).local().translations();
            float[] b = Pose.evaluate(copy.rig(), copy.clips().getFirst(), (float) t).local().translations();
            assertThat(b[0]).as("x at %s", t).isCloseTo(a[0], org.assertj.core.data.Offset.offset(2e-6f));
        }
    }

    @Test
    void skinsWithoutACommonRootGetOne() {
        Model base = model();
        Rig twoRoots = new Rig(new String[] {"A", "B"}, new int[] {-1, -1}, new int[] {-1, -1}, new float[6],
                new float[] {0, 0, 0, 1, 0, 0, 0, 1}, new float[] {1, 1, 1, 1, 1, 1});
        float[] ibm = new float[32];
        ibm[0] = ibm[5] = ibm[10] = ibm[15] = ibm[16] = ibm[21] = ibm[26] = ibm[31] = 1;
        Model model = new Model(AssetFormat.FBX, twoRoots, List.of(new Skin(null, new int[] {0, 1}, ibm)), List.of(),
                base.clips().subList(0, 0), List.of());
        JsonNode json = GlbFile.parse(AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb()).json();
        assertThat(json.get("scenes").get(0).get("nodes").toString()).isEqualTo("[2]");
        assertThat(json.get("nodes").get(2).toString()).isEqualTo("{\"name\":\"" + AnimatedGltf.EXTRA_ROOT
                + "\",\"children\":[0,1]}");
    }

    @Test
    void theGltfJsonIsTheGlbsDocumentWithTheBufferAsADataUri() {
        AnimatedGltf export = AnimatedGltf.of(model(), AnimatedGltf.Options.DEFAULT);
        ObjectNode gltf = (ObjectNode) JSON.readTree(new String(export.gltf(), StandardCharsets.UTF_8));
        assertThat(gltf.get("buffers").get(0).get("uri").asString()).startsWith("data:application/octet-stream;base64,");
        ((ObjectNode) gltf.get("buffers").get(0)).remove("uri");
        assertThat(gltf).isEqualTo(GlbFile.parse(export.glb()).json());
        assertThat(export.glb()).isEqualTo(AnimatedGltf.of(model(), AnimatedGltf.Options.DEFAULT).glb());
    }

    @Test
    void refusesWhatItCannotDo() {
        assertThatThrownBy(() -> AnimatedGltf.of(model(), new AnimatedGltf.Options(List.of("Jump"), null, 1e-4)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown clip 'Jump'");
        assertThatThrownBy(() -> new AnimatedGltf.Options(null, 0.0, 1e-4)).hasMessage("fps 0.0 is not a positive number");
        assertThatThrownBy(() -> new AnimatedGltf.Options(null, null, -1)).hasMessage("tolerance -1.0 is not a non-negative number");
    }

    /**
     * COLLADA's cameras.dae and lights.dae (assimp's test models, from 3ds Max and Maya) hold nodes and nothing
     * posekit draws or animates: the export is a glTF of those nodes, at rest, not a refusal.
     */
    @Test
    void colladaCamerasAndLightsNodeOnlyAssetsExportTheirNodes() {
        Model nodesOnly = new Model(AssetFormat.COLLADA, rig(), List.of(), List.of(), List.of(), List.of());
        GlbFile f = GlbFile.parse(AnimatedGltf.of(nodesOnly, AnimatedGltf.Options.DEFAULT).glb());
        JsonNode nodes = f.json().get("nodes");
        assertThat(nodes).hasSize(3);
        assertThat(nodes.get(0).get("name").asString()).isEqualTo("Root");
        assertThat(nodes.get(0).get("children").get(0).asInt()).isEqualTo(1);
        assertThat(nodes.get(1).get("name").asString()).isEqualTo("Arm");
        assertThat(nodes.get(0).get("translation").get(1).asDouble()).isEqualTo(1.0);
        assertThat(nodes.get(1).get("translation").get(0).asDouble()).isEqualTo(1.0);
        assertThat(nodes.get(1).get("rotation").get(2).floatValue()).isEqualTo(S);
        assertThat(f.json().get("scenes").get(0).get("nodes").get(0).asInt()).isZero();
        assertThat(f.json().has("meshes")).isFalse();
        assertThat(f.json().has("animations")).isFalse();
        assertThat(RoundTrip.reimport(AnimatedGltf.of(nodesOnly, AnimatedGltf.Options.DEFAULT).glb()).rig().names())
                .containsExactly("Root", "Arm", "Hand");
    }

    @Test
    void vertexColoursAreWrittenAsFloatRgbaAndComeBackAsTheyWere() {
        float[] rgba = {1, 0, 0, 1, 0, 1, 0, 0.5f, 0, 0, 1, 1, 0.25f, 0.5f, 0.75f, 1};
        Model base = model();
        Model coloured = new Model(base.format(), base.rig(), base.skins(),
                List.of(new MeshInstance("Quad", 0, 0, 0, List.of(skinnedQuad().withColors(rgba)))), base.clips(),
                List.of());
        byte[] glb = AnimatedGltf.of(coloured, AnimatedGltf.Options.DEFAULT).glb();
        GlbFile f = GlbFile.parse(glb);
        JsonNode color = f.accessor(f.primitive(0, 0).get("attributes").get("COLOR_0").asInt());
        assertThat(color.get("type").asString()).isEqualTo("VEC4");
        assertThat(color.get("componentType").asInt()).isEqualTo(5126);
        assertThat(f.floats(f.primitive(0, 0).get("attributes").get("COLOR_0").asInt())).containsExactly(rgba);
        assertThat(RoundTrip.reimport(glb).meshes().getFirst().primitives().getFirst().colors()).containsExactly(rgba);
        // a primitive without colours gets no COLOR_0
        assertThat(GlbFile.parse(AnimatedGltf.of(base, AnimatedGltf.Options.DEFAULT).glb()).primitive(0, 0)
                .get("attributes").has("COLOR_0")).isFalse();
    }
}
