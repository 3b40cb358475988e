package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.layer;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static io.posekit.asset.fbx.FbxSceneFixture.node;
import static io.posekit.asset.fbx.FbxSceneFixture.p;
import static io.posekit.asset.fbx.FbxSceneFixture.props;
import static io.posekit.asset.fbx.FbxSceneFixture.vec;

import java.util.List;

/**
 * Whole FBX files for tests outside this package (the fuzzer, the limit tests), built with the package's own
 * writers: a skinned, animated mesh as a binary file of any version and as ASCII.
 */
public final class FbxTestFiles {

    private static final long TPS = FbxScene.TICKS_PER_SECOND;

    private FbxTestFiles() {
    }

    /**
     * A skinned, animated quad: mesh Model 1 (geometry 10 with per-corner normals and UVs, two triangles over four
     * control points), a bone chain (Model 2 under the root, Model 3 under it) bound by skin 100 with clusters 101 and
     * 102 (every control point weighted by both), a bind pose, and stack 'Wave' (layer 51) turning bone 3 about X and
     * Z and moving bone 2 over one second with cubic and linear keys.
     *
     * @param version e.g. 7400 (32-bit record headers) or 7500 (64-bit)
     * @param compressArrays whether arrays are zlib-compressed
     */
    public static byte[] skinnedBinary(int version, boolean compressArrays) {
        return skinnedBinary(version, compressArrays, node("GlobalSettings", List.of(), leaf("Version", 1000),
                props(p("UpAxis", 1), p("UnitScaleFactor", 1.0))));
    }

    /**
     * The skinned quad of {@link #skinnedBinary(int, boolean)} (FBX 7.4) declaring another model space in its
     * {@code GlobalSettings}: {@code UpAxis}/{@code UpAxisSign}, {@code FrontAxis}/{@code FrontAxisSign},
     * {@code CoordAxis} +X and {@code UnitScaleFactor} (centimetres per unit).
     */
    public static byte[] skinnedBinaryInSpace(int upAxis, int upAxisSign, int frontAxis, int frontAxisSign,
            double unitScaleFactor) {
        return skinnedBinary(7400, false, node("GlobalSettings", List.of(), leaf("Version", 1000),
                props(p("UpAxis", upAxis), p("UpAxisSign", upAxisSign), p("FrontAxis", frontAxis),
                        p("FrontAxisSign", frontAxisSign), p("CoordAxis", 0), p("CoordAxisSign", 1),
                        p("UnitScaleFactor", unitScaleFactor), p("OriginalUnitScaleFactor", unitScaleFactor))));
    }

    private static byte[] skinnedBinary(int version, boolean compressArrays, FbxNode globalSettings) {
        FbxSceneFixture f = new FbxSceneFixture().version(version)
                .top(globalSettings)
                .geometry(10, "quad", new double[] {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, new int[] {0, 1, ~2, 0, 2, ~3},
                        layer("LayerElementNormal", "ByPolygonVertex", "Direct", "Normals",
                                new double[] {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, null),
                        layer("LayerElementUV", "ByPolygonVertex", "IndexToDirect", "UV",
                                new double[] {0, 0, 1, 0, 1, 1, 0, 1}, new int[] {0, 1, 2, 0, 2, 3}))
                .model(1, "quad", "Mesh", vec("Lcl Translation", 0, 0, 0)).oo(1, 0).oo(10, 1)
                .model(2, "hip", 0, vec("Lcl Translation", 0, 0, 0), vec("PreRotation", 0, 0, 90),
                        p("RotationActive", 1))
                .model(3, "knee", 2, vec("Lcl Translation", 1, 0, 0), vec("Lcl Scaling", 1, 1, 1))
                .object("Deformer", 100, "skin", "Skin", leaf("Version", 101)).oo(100, 10);
        double[] identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        double[] kneeLink = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1};
        double[] kneeTransform = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1};
        f.object("Deformer", 101, "hip", "Cluster", leaf("Version", 100), leaf("Indexes", (Object) new int[] {0, 1, 2, 3}),
                        leaf("Weights", (Object) new double[] {1, 0.5, 0.25, 0.75}),
                        leaf("Transform", (Object) identity), leaf("TransformLink", (Object) identity))
                .oo(101, 100).oo(2, 101);
        f.object("Deformer", 102, "knee", "Cluster", leaf("Version", 100), leaf("Indexes", (Object) new int[] {1, 2, 3}),
                        leaf("Weights", (Object) new double[] {0.5, 0.75, 0.25}),
                        leaf("Transform", (Object) kneeTransform), leaf("TransformLink", (Object) kneeLink))
                .oo(102, 100).oo(3, 102);
        f.object("Pose", 200, "BindPose", "BindPose", leaf("Type", "BindPose"), leaf("Version", 100),
                leaf("NbPoseNodes", 2),
                node("PoseNode", List.of(), leaf("Node", 2L), leaf("Matrix", (Object) identity)),
                node("PoseNode", List.of(), leaf("Node", 3L), leaf("Matrix", (Object) kneeLink)));
        f.object("AnimationStack", 50, "Wave", "", props(p("LocalStart", 0L), p("LocalStop", TPS)))
                .object("AnimationLayer", 51, "Base", "").oo(51, 50)
                .object("AnimationCurveNode", 52, "R", "", props(p("d|X", 0.0), p("d|Y", 0.0), p("d|Z", 0.0)))
                .oo(52, 51).op(52, 3, "Lcl Rotation")
                .object("AnimationCurveNode", 54, "T", "", props(p("d|X", 0.0), p("d|Y", 0.0), p("d|Z", 0.0)))
                .oo(54, 51).op(54, 2, "Lcl Translation");
        f.rawObject("AnimationCurve", List.of(53L, "\0\1AnimCurve", ""), curve(new long[] {0, TPS / 2, TPS},
                new float[] {0, 45, 90}, new int[] {FbxCurves.CUBIC | FbxCurves.TANGENT_AUTO}, new int[] {3}))
                .op(53, 52, "d|X");
        f.rawObject("AnimationCurve", List.of(55L, "\0\1AnimCurve", ""), curve(new long[] {0, TPS},
                new float[] {0, -30}, new int[] {FbxCurves.LINEAR}, new int[] {2}))
                .op(55, 52, "d|Z");
        f.rawObject("AnimationCurve", List.of(56L, "\0\1AnimCurve", ""), curve(new long[] {0, TPS / 4, TPS},
                new float[] {0, 2, 1}, new int[] {FbxCurves.CONSTANT, FbxCurves.LINEAR}, new int[] {1, 2}))
                .op(56, 54, "d|Y");
        return FbxBinaryWriter.write(f.root(), version, compressArrays);
    }

    private static FbxNode[] curve(long[] ticks, float[] values, int[] flags, int[] refCounts) {
        return new FbxNode[] {leaf("Default", 0.0), leaf("KeyVer", 4008), leaf("KeyTime", (Object) ticks),
            leaf("KeyValueFloat", (Object) values), leaf("KeyAttrFlags", (Object) flags),
            leaf("KeyAttrDataFloat", (Object) new float[4 * flags.length]), leaf("KeyAttrRefCount", (Object) refCounts)};
    }

    /** A skinned triangle turning about X over one second, in FBX 7.4 ASCII as the SDK writes it. */
    public static String skinnedAscii() {
        return FbxSceneTest.ASCII;
    }
}
