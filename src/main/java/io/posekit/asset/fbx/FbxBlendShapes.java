package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.skinning.MorphTargets;
import java.util.ArrayList;
import java.util.List;

/**
 * The blend shapes of a mesh geometry, as morph targets: the {@code Deformer}s of subclass {@code BlendShape}
 * connected to the geometry, each with its {@code BlendShapeChannel}s (in connection order), each channel with its
 * {@code Shape} geometries.
 *
 * <ul>
 *   <li><b>Shape</b>: {@code Indexes} (control points) with {@code Vertices} — position deltas, 3 numbers per index —
 *       and optionally {@code Normals}, normal deltas likewise (as ufbx and assimp read them; three.js does not morph
 *       normals). Every vertex split from a control point gets its deltas; the Model's geometric transform turns them
 *       (its linear part; normals by the inverse transpose).</li>
 *   <li><b>Targets</b>: one morph target per shape, channel after channel. A channel's weight {@code w} (percent) is
 *       spread over its shapes by their {@code FullWeights} {@code f₁ < f₂ < … } (percent, default 100 for a single
 *       shape): up to {@code f₁} the first shape takes {@code w / f₁}; between {@code fₖ} and {@code fₖ₊₁} the two
 *       shapes share it linearly ({@code 1 − s} and {@code s}); past the last the last two extrapolate — FBX's
 *       in-between shapes. (three.js uses a channel's first shape only.)</li>
 *   <li><b>Default weights</b>: each channel's {@code DeformPercent} (the record, else the property; default 0).</li>
 * </ul>
 * Every index and array length is checked; a malformed shape is invalid (422), e.g. {@code Geometry 'Smile':
 * Indexes[4] = 900 is out of range for the 800 control points of Geometry 'Head'}.
 */
final class FbxBlendShapes {

    private FbxBlendShapes() {
    }

    /**
     * One channel: which targets its shapes are and how its weight is spread over them.
     *
     * @param channel the {@code BlendShapeChannel}
     * @param firstTarget the index of its first shape among the geometry's targets
     * @param fullWeights the percent at which each shape is reached, strictly increasing, positive
     * @param defaultPercent {@code DeformPercent}
     */
    record Channel(FbxScene.FbxObject channel, int firstTarget, double[] fullWeights, double defaultPercent) {

        /** Writes the weights of this channel's targets at {@code percent} into {@code out}. */
        void weights(double percent, float[] out) {
            double[] f = fullWeights;
            int n = f.length;
            for (int i = 0; i < n; i++) {
                out[firstTarget + i] = 0;
            }
            if (n == 1 || percent <= f[0]) {
                out[firstTarget] = (float) (percent / f[0]);
                return;
            }
            int k = 0;
            while (k < n - 2 && percent > f[k + 1]) {
                k++;
            }
            double s = (percent - f[k]) / (f[k + 1] - f[k]);
            out[firstTarget + k] = (float) (1 - s);
            out[firstTarget + k + 1] = (float) s;
        }
    }

    /**
     * The morph targets of a geometry.
     *
     * @param targets deltas for the decoded mesh's vertices
     * @param channels the channels, in target order
     * @param defaultWeights the targets' weights at the channels' {@code DeformPercent}
     */
    record Shapes(MorphTargets targets, List<Channel> channels, float[] defaultWeights) {

        int targetCount() {
            return targets.targetCount();
        }
    }

    /**
     * A mesh instance with blend shapes: the node it is placed on (which its weights track drives) and its shapes.
     */
    record Placement(int node, Shapes shapes) {
    }

    /**
     * The blend shapes of {@code geometry} for its decoded {@code mesh}, or {@code null} when it has none.
     *
     * @param geometric the geometric transform applied to the mesh, or {@code null}
     * @throws ImportException invalid (422) for malformed shapes; too large (413) past the budget
     */
    static Shapes read(FbxScene scene, FbxScene.FbxObject geometry, FbxGeometry.Mesh mesh, double[] geometric,
            DecodeBudget budget, ImportWarnings warnings) {
        List<Channel> channels = new ArrayList<>();
        List<float[]> positions = new ArrayList<>();
        List<float[]> normals = new ArrayList<>();
        boolean anyNormals = false;
        double[] normalMatrix = geometric == null ? null : FbxGeometry.normalMatrix(geometric, geometry.label());
        for (FbxScene.FbxObject blendShape : scene.sources(geometry.id(), "Deformer", "BlendShape")) {
            for (FbxScene.FbxObject channel : scene.sources(blendShape.id(), "Deformer", "BlendShapeChannel")) {
                budget.checkTime();
                List<FbxScene.FbxObject> shapes = scene.sources(channel.id(), "Geometry", null);
                if (shapes.isEmpty()) {
                    warnings.add(channel.label() + " has no Shape geometry; ignored");
                    continue;
                }
                int first = positions.size();
                for (FbxScene.FbxObject shape : shapes) {
                    float[][] deltas = shape(shape, geometry, mesh, geometric, normalMatrix, budget);
                    positions.add(deltas[0]);
                    normals.add(deltas[1]);
                    anyNormals |= deltas[1] != null;
                }
                channels.add(new Channel(channel, first, fullWeights(channel, shapes.size(), warnings),
                        deformPercent(scene, channel)));
            }
        }
        if (positions.isEmpty()) {
            return null;
        }
        float[] defaults = new float[positions.size()];
        for (Channel c : channels) {
            c.weights(c.defaultPercent(), defaults);
        }
        MorphTargets targets = new MorphTargets(mesh.vertexCount(), positions.toArray(float[][]::new),
                anyNormals ? normals.toArray(float[][]::new) : null);
        return new Shapes(targets, channels, defaults);
    }

    /** {@code DeformPercent} of a channel: its record, else its property, else 0. */
    static double deformPercent(FbxScene scene, FbxScene.FbxObject channel) {
        FbxNode record = channel.child("DeformPercent");
        double percent = record != null && !record.properties().isEmpty() && !(record.property(0) instanceof String)
                ? record.number(0) : scene.properties(channel).number("DeformPercent", 0);
        if (!Double.isFinite(percent)) {
            throw ImportException.invalid(channel.label() + ": DeformPercent is not finite");
        }
        return percent;
    }

    private static double[] fullWeights(FbxScene.FbxObject channel, int shapes, ImportWarnings warnings) {
        FbxNode record = channel.child("FullWeights");
        double[] f = record == null || record.properties().isEmpty() ? null : record.doubles(0);
        boolean usable = f != null && f.length == shapes;
        for (int i = 0; usable && i < f.length; i++) {
            usable = Double.isFinite(f[i]) && f[i] > (i == 0 ? 0 : f[i - 1]);
        }
        if (usable) {
            return f.clone();
        }
        double[] even = new double[shapes];
        for (int i = 0; i < shapes; i++) {
            even[i] = 100.0 * (i + 1) / shapes;
        }
        if (f != null || shapes > 1) {
            warnings.add(channel.label() + ": its FullWeights are not " + shapes + " increasing positive percentages;"
                    + " its shapes are spread evenly up to 100");
        }
        return even;
    }

    /** Position and normal deltas ({@code null} when the shape has none) for every mesh vertex. */
    private static float[][] shape(FbxScene.FbxObject shape, FbxScene.FbxObject geometry, FbxGeometry.Mesh mesh,
            double[] geometric, double[] normalMatrix, DecodeBudget budget) {
        String where = shape.label();
        FbxNode indexNode = shape.child("Indexes");
        FbxNode vertexNode = shape.child("Vertices");
        if (indexNode == null || vertexNode == null) {
            throw ImportException.invalid(where + " (a blend shape of " + geometry.label() + ") needs Indexes and"
                    + " Vertices");
        }
        int[] indexes = indexNode.ints(0);
        double[] vertices = vertexNode.doubles(0);
        if (vertices.length != 3L * indexes.length) {
            throw ImportException.invalid(where + ": Vertices holds " + vertices.length + " numbers for "
                    + indexes.length + " Indexes (3 each are needed)");
        }
        FbxNode normalNode = shape.child("Normals");
        double[] normals = normalNode == null ? null : normalNode.doubles(0);
        if (normals != null && normals.length != vertices.length) {
            throw ImportException.invalid(where + ": Normals holds " + normals.length + " numbers for "
                    + indexes.length + " Indexes (3 each are needed)");
        }
        int points = mesh.controlPointCount();
        budget.charge((normals == null ? 3L : 6L) * (points + mesh.vertexCount()), 4, where + " deltas");
        float[] byPoint = new float[3 * points];
        float[] normalByPoint = normals == null ? null : new float[3 * points];
        boolean anyNormal = false;
        for (int i = 0; i < indexes.length; i++) {
            budget.checkTime();
            int cp = indexes[i];
            if (cp < 0 || cp >= points) {
                throw ImportException.invalid(where + ": Indexes[" + i + "] = " + cp + " is out of range for the "
                        + points + " control points of " + geometry.label());
            }
            transform(vertices, 3 * i, geometric, 4, byPoint, 3 * cp, where);
            if (normals != null) {
                transform(normals, 3 * i, normalMatrix, 3, normalByPoint, 3 * cp, where);
                anyNormal |= normals[3 * i] != 0 || normals[3 * i + 1] != 0 || normals[3 * i + 2] != 0;
            }
        }
        int[] controlPoints = mesh.controlPoints();
        float[] out = new float[3 * controlPoints.length];
        float[] outNormals = anyNormal ? new float[3 * controlPoints.length] : null;
        for (int v = 0; v < controlPoints.length; v++) {
            System.arraycopy(byPoint, 3 * controlPoints[v], out, 3 * v, 3);
            if (outNormals != null) {
                System.arraycopy(normalByPoint, 3 * controlPoints[v], outNormals, 3 * v, 3);
            }
        }
        return new float[][] {out, outNormals};
    }

    /**
     * {@code src[at..at+2]} times the linear part of {@code m} (column-major, {@code stride} 4 for a 4×4, 3 for a 3×3;
     * {@code null}: the identity) into {@code dst[to..to+2]}.
     */
    private static void transform(double[] src, int at, double[] m, int stride, float[] dst, int to, String where) {
        double x = src[at];
        double y = src[at + 1];
        double z = src[at + 2];
        if (m != null) {
            double tx = m[0] * x + m[stride] * y + m[2 * stride] * z;
            double ty = m[1] * x + m[stride + 1] * y + m[2 * stride + 1] * z;
            double tz = m[2] * x + m[stride + 2] * y + m[2 * stride + 2] * z;
            x = tx;
            y = ty;
            z = tz;
        }
        if (!Double.isFinite(x) || !Double.isFinite(y) || !Double.isFinite(z)) {
            throw ImportException.invalid(where + ": a delta is not finite");
        }
        dst[to] = (float) x;
        dst[to + 1] = (float) y;
        dst[to + 2] = (float) z;
    }
}
