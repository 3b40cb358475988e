package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfBuilder.SHORT;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_BYTE;
import static io.posekit.asset.gltf.GltfBuilder.attributes;
import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ModelBuilder;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import org.junit.jupiter.api.Test;

/** Animations: samplers, channels, interpolation layouts, morph weights and every rejection. */
class AnimationImportTest {

    /** One node "n" (index 0) in scene 0. */
    private static GltfBuilder oneNode() {
        GltfBuilder b = new GltfBuilder();
        b.node("n");
        b.addScene("s", 0);
        return b;
    }

    private static ImportScene.Clip onlyClip(GltfBuilder b) {
        return importGlb(b.toGlb()).clips().getFirst();
    }

    @Test
    void cubicSplineKeepsInTangentValueOutTangentPerKey() {
        GltfBuilder b = oneNode();
        float[] values = {
            0, 0, 0, 1, 2, 3, 0.1f, 0.1f, 0.1f, // key 0: in, value, out
            -1, -1, -1, 4, 5, 6, 0, 0, 0};      // key 1
        b.animation("cubic").track(0, "translation", "CUBICSPLINE", new float[] {0, 0.5f}, values);
        Track t = onlyClip(b).tracks().getFirst();
        assertThat(t.interpolation()).isEqualTo(Interpolation.CUBICSPLINE);
        assertThat(t.components()).isEqualTo(3);
        assertThat(t.keyCount()).isEqualTo(2);
        assertThat(t.values()).containsExactly(values);
    }

    @Test
    void cubicSplineOutputCountMustBeThreePerKey() {
        GltfBuilder b = oneNode();
        b.animation("bad").track(0, "translation", "CUBICSPLINE", new float[] {0, 1}, new float[] {1, 2, 3, 4, 5, 6});
        assertInvalid(() -> importGlb(b.toGlb()),
                "animation 0 sampler 0: output accessor 1 has 2 elements but CUBICSPLINE with 2 keys needs 6");
        GltfBuilder c = oneNode();
        c.animation("bad").track(0, "rotation", "LINEAR", new float[] {0, 1, 2}, new float[] {0, 0, 0, 1, 0, 0, 0, 1});
        assertInvalid(() -> importGlb(c.toGlb()), "animation 0 sampler 0: output accessor 1 has 2 elements but LINEAR with 3 keys needs 3");
    }

    @Test
    void keyTimesMustBeNonDecreasingAndFinite() {
        GltfBuilder b = oneNode();
        b.animation("back").track(0, "scale", null, new float[] {0, 1, 0.5f}, new float[9]);
        assertInvalid(() -> importGlb(b.toGlb()),
                "animation 0 sampler 0: input accessor 0 key 2 time 0.5 is less than key 1 time 1.0");
        GltfBuilder c = oneNode();
        c.animation("nan").track(0, "scale", null, new float[] {0, Float.NaN}, new float[6]);
        assertInvalid(() -> importGlb(c.toGlb()), "animation 0 sampler 0: input accessor 0 key 1 time is not finite");
        GltfBuilder d = oneNode();
        d.animation("equal").track(0, "scale", "STEP", new float[] {0, 1, 1}, new float[9]);
        assertThat(onlyClip(d).tracks().getFirst().times()).containsExactly(0, 1, 1);
    }

    @Test
    void outputsMustBeFinite() {
        GltfBuilder b = oneNode();
        b.animation("inf").track(0, "translation", null, new float[] {0}, new float[] {0, Float.POSITIVE_INFINITY, 0});
        assertInvalid(() -> importGlb(b.toGlb()), "animation 0 sampler 0: output accessor 1 value 1 is not finite");
    }

    @Test
    void outputTypesArePerPath() {
        GltfBuilder b = oneNode();
        int times = b.addFloatAccessor(new float[] {0, 1}, "SCALAR");
        int vec4 = b.addFloatAccessor(new float[8], "VEC4");
        int shortTranslations = b.addIntAccessor(new int[6], SHORT, "VEC3", true);
        int in = b.addFloatAccessor(new float[] {0, 1}, "VEC2");
        var anim = b.animation("types");
        anim.channel(anim.sampler(times, vec4, null), 0, "translation");
        assertInvalid(() -> importGlb(b.toGlb()), "animation 0 sampler 0: output accessor 1 must be VEC3, not VEC4");
        b.set("animations", 0, "samplers", tools.jackson.databind.node.JsonNodeFactory.instance.arrayNode());
        anim.sampler(times, shortTranslations, null);
        assertInvalid(() -> importGlb(b.toGlb()),
                "animation 0 sampler 0: output accessor 2 cannot be short normalized (allowed: float)");
        b.set("animations", 0, "samplers", tools.jackson.databind.node.JsonNodeFactory.instance.arrayNode());
        anim.sampler(in, shortTranslations, null);
        assertInvalid(() -> importGlb(b.toGlb()), "animation 0 sampler 0: input accessor 3 must be SCALAR, not VEC2");
    }

    @Test
    void normalizedRotationOutputsAreDecoded() {
        GltfBuilder b = oneNode();
        int times = b.addFloatAccessor(new float[] {0, 1}, "SCALAR");
        int rotations = b.addIntAccessor(new int[] {0, 0, 0, 32767, 0, 0, 23170, 23170}, SHORT, "VEC4", true);
        var anim = b.animation("quantized");
        anim.channel(anim.sampler(times, rotations, "LINEAR"), 0, "rotation");
        Track t = onlyClip(b).tracks().getFirst();
        assertThat(t.values()).containsExactly(0, 0, 0, 1, 0, 0, 23170 / 32767f, 23170 / 32767f);
        assertThat(t.property()).isEqualTo(TrackProperty.ROTATION);
    }

    @Test
    void morphWeightsTrackHasOneComponentPerTarget() {
        GltfBuilder b = new GltfBuilder();
        int pos = b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
        int delta = b.addFloatAccessor(new float[9], "VEC3");
        int mesh = b.mesh("morph").primitive(attributes("POSITION", pos)).morphTarget(0, attributes("POSITION", delta))
                .morphTarget(0, attributes("POSITION", delta)).index();
        b.node("m").mesh(mesh);
        int times = b.addFloatAccessor(new float[] {0, 1, 2}, "SCALAR");
        int weights = b.addIntAccessor(new int[] {0, 255, 51, 102, 255, 0}, UNSIGNED_BYTE, "SCALAR", true);
        var anim = b.animation("weights");
        anim.channel(anim.sampler(times, weights, "STEP"), 0, "weights");
        ImportScene scene = importGlb(b.toGlb());
        Track t = scene.clips().getFirst().tracks().getFirst();
        assertThat(t.property()).isEqualTo(TrackProperty.WEIGHTS);
        assertThat(t.components()).isEqualTo(2);
        assertThat(t.values()).containsExactly(0, 1, 0.2f, 0.4f, 1, 0);
        assertThat(scene.warnings()).isEmpty();
        ModelBuilder.build(AssetFormat.GLTF, scene);

        // cubic: 3 keys × 3 × 2 targets = 18 elements
        GltfBuilder c = oneNode();
        c.animation("cubic weights").track(0, "weights", "CUBICSPLINE", new float[] {0, 1, 2}, new float[18]);
        assertThat(onlyClip(c).tracks().getFirst().components()).isEqualTo(2);
        GltfBuilder d = oneNode();
        d.animation("uneven").track(0, "weights", "CUBICSPLINE", new float[] {0, 1, 2}, new float[16]);
        assertInvalid(() -> importGlb(d.toGlb()), "animation 0 sampler 0: output accessor 1 has 16 elements, "
                + "not a whole number of morph weights per key (CUBICSPLINE with 3 keys needs a multiple of 9)");
    }

    @Test
    void samplersSharingAnInputAccessorShareOneTimesArray() {
        GltfBuilder b = oneNode();
        b.node("other");
        b.set("scenes", 0, "nodes", new int[] {0, 1});
        int times = b.addFloatAccessor(new float[] {0, 1}, "SCALAR");
        int t1 = b.addFloatAccessor(new float[6], "VEC3");
        int t2 = b.addFloatAccessor(new float[6], "VEC3");
        var anim = b.animation("shared");
        anim.channel(anim.sampler(times, t1, null), 0, "translation");
        anim.channel(anim.sampler(times, t2, null), 1, "translation");
        var second = b.animation("second");
        second.channel(second.sampler(times, t1, null), 1, "scale");
        ImportScene scene = importGlb(b.toGlb());
        float[] shared = scene.clips().get(0).tracks().get(0).times();
        assertThat(scene.clips().get(0).tracks().get(1).times()).isSameAs(shared);
        assertThat(scene.clips().get(1).tracks().get(0).times()).isSameAs(shared);
        assertThat(scene.clips().get(1).tracks().get(0).values()).isSameAs(scene.clips().get(0).tracks().get(0).values());
    }

    @Test
    void unsupportedChannelsAreSkippedWithWarnings() {
        GltfBuilder b = oneNode();
        int times = b.addFloatAccessor(new float[] {0}, "SCALAR");
        int values = b.addFloatAccessor(new float[] {1, 2, 3}, "VEC3");
        var anim = b.animation(null);
        int s = anim.sampler(times, values, null);
        anim.channel(s, -1, "pointer").channel(s, 0, "pointer").channel(s, 0, "translation");
        ImportScene scene = importGlb(b.toGlb());
        ImportScene.Clip clip = scene.clips().getFirst();
        assertThat(clip.name()).isNull();
        assertThat(clip.tracks()).singleElement().satisfies(t -> {
            assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR);
            assertThat(t.values()).containsExactly(1, 2, 3);
        });
        assertThat(scene.warnings()).containsExactly("animation 0 channel 0 has no target node; skipped",
                "animation 0 channel 1: target path 'pointer' is not supported; skipped");
    }

    @Test
    void malformedAnimationsAreRejected() {
        GltfBuilder b = oneNode();
        int times = b.addFloatAccessor(new float[] {0}, "SCALAR");
        int values = b.addFloatAccessor(new float[] {1, 2, 3}, "VEC3");
        var anim = b.animation("a");
        anim.channel(anim.sampler(times, values, "SMOOTH"), 0, "translation");
        assertInvalid(() -> importGlb(b.toGlb()),
                "animation 0 sampler 0: interpolation 'SMOOTH' is not LINEAR, STEP or CUBICSPLINE");

        GltfBuilder c = oneNode();
        int ct = c.addFloatAccessor(new float[] {0}, "SCALAR");
        var ca = c.animation("a");
        ca.sampler(ct, ct, null);
        ca.channel(3, 0, "translation");
        assertInvalid(() -> importGlb(c.toGlb()), "animation 0 channel 0: sampler 3 does not exist (there are 1)");

        GltfBuilder d = oneNode();
        int dt = d.addFloatAccessor(new float[] {0}, "SCALAR");
        var da = d.animation("a");
        da.channel(da.sampler(dt, 9, null), 0, "translation");
        assertInvalid(() -> importGlb(d.toGlb()), "animation 0 sampler 0: output accessor 9 does not exist (there are 1)");

        GltfBuilder e = oneNode();
        int et = e.addFloatAccessor(new float[] {0}, "SCALAR");
        var ea = e.animation("a");
        ea.channel(ea.sampler(et, et, null), 5, "translation");
        assertInvalid(() -> importGlb(e.toGlb()), "animation 0 channel 0: target node 5 does not exist (there are 1)");

        GltfBuilder f = oneNode();
        f.animation("a");
        f.set("animations", 0, "channels", null);
        assertInvalid(() -> importGlb(f.toGlb()), "animation 0: channels is required");
    }
}
