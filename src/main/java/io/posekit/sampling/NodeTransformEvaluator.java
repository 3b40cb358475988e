package io.posekit.sampling;

import io.posekit.clip.Curve;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.math.Matrices;
import java.util.List;

/**
 * Evaluates a {@link NodeTransformTrack} at a time: every curve exactly ({@link CurveSampler}), each element as a
 * matrix, the product in element order, then decomposed into local translation, rotation and scale. Reuse one
 * instance per thread: it owns its scratch matrices and allocates nothing per call.
 */
public final class NodeTransformEvaluator {

    private final double[] product = new double[16];
    private final double[] element = new double[16];

    /**
     * Writes the node's local TRS at clip-local time {@code t} (seconds) into {@code pose} at the track's node.
     */
    public void evaluate(NodeTransformTrack track, double t, LocalPose pose) {
        identity(product);
        List<NodeTransformTrack.Element> elements = track.elements();
        for (int i = 0, n = elements.size(); i < n; i++) {
            toMatrix(elements.get(i), t, element);
            Matrices.multiply(product, 0, element, 0, product, 0);
        }
        int node = track.node();
        Matrices.decompose(product, 0, pose.translations(), 3 * node, pose.rotations(), 4 * node, pose.scales(), 3 * node);
    }

    /** The matrix of one element at time {@code t}, column-major into {@code m}. */
    static void toMatrix(NodeTransformTrack.Element e, double t, double[] m) {
        switch (e) {
            case NodeTransformTrack.Translate tr -> {
                identity(m);
                m[12] = value(tr.x(), t);
                m[13] = value(tr.y(), t);
                m[14] = value(tr.z(), t);
            }
            case NodeTransformTrack.Scale sc -> {
                identity(m);
                m[0] = value(sc.x(), t);
                m[5] = value(sc.y(), t);
                m[10] = value(sc.z(), t);
            }
            case NodeTransformTrack.Rotate rot -> Matrices.axisAngle(rot.axisX(), rot.axisY(), rot.axisZ(),
                    Math.toRadians(value(rot.angleDegrees(), t)), m);
            case NodeTransformTrack.Matrix mat -> {
                List<Curve> curves = mat.elements();
                for (int i = 0; i < 16; i++) {
                    m[i] = value(curves.get(i), t);
                }
            }
        }
    }

    private static double value(Curve curve, double t) {
        return curve.keyCount() == 1 ? curve.values()[0] : CurveSampler.evaluate(curve, t);
    }

    private static void identity(double[] m) {
        for (int i = 0; i < 16; i++) {
            m[i] = (i % 5 == 0) ? 1 : 0;
        }
    }
}
