package io.posekit.clip;

import java.util.List;

/**
 * Drives a node's whole local transform from a stack of transform elements composed in order
 * ({@code local = E0 · E1 · … · En}), each element's parameters a constant or a {@link Curve} — the way
 * COLLADA ({@code <translate>}, {@code <rotate>}, {@code <scale>}, {@code <matrix>} with channels on their
 * members) and FBX (per-axis curves) animate. Sampling evaluates every curve exactly at the time, composes the
 * matrix and decomposes it into the node's local translation, rotation and scale.
 *
 * @param node the rig node index (or, in an import tree, the import node index)
 * @param elements the transform elements, in composition order
 */
public record NodeTransformTrack(int node, List<Element> elements) {

    public NodeTransformTrack {
        elements = List.copyOf(elements);
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("a node transform track needs at least one element");
        }
    }

    /** A copy driving another node (import indices remapped to rig order). */
    public NodeTransformTrack withNode(int newNode) {
        return new NodeTransformTrack(newNode, elements);
    }

    /** The largest key time of any curve, seconds (0 when all parameters are constant). */
    public double endTime() {
        double end = 0;
        for (Element e : elements) {
            for (Curve c : e.parameters()) {
                end = Math.max(end, c.endTime());
            }
        }
        return end;
    }

    /** Approximate heap footprint in bytes. */
    public long footprintBytes() {
        long bytes = 64;
        for (Element e : elements) {
            bytes += 32;
            for (Curve c : e.parameters()) {
                bytes += c.footprintBytes();
            }
        }
        return bytes;
    }

    /** One transform element; every parameter is a curve ({@link Curve#constant} for a fixed value). */
    public sealed interface Element permits Translate, Rotate, Scale, Matrix {

        /** The element's parameters, in a fixed order per element type. */
        List<Curve> parameters();
    }

    /** Translation by (x, y, z). */
    public record Translate(Curve x, Curve y, Curve z) implements Element {
        @Override
        public List<Curve> parameters() {
            return List.of(x, y, z);
        }
    }

    /** Rotation by {@code angle} degrees about the fixed axis (x, y, z), normalised at evaluation. */
    public record Rotate(float axisX, float axisY, float axisZ, Curve angleDegrees) implements Element {
        @Override
        public List<Curve> parameters() {
            return List.of(angleDegrees);
        }
    }

    /** Non-uniform scale by (x, y, z). */
    public record Scale(Curve x, Curve y, Curve z) implements Element {
        @Override
        public List<Curve> parameters() {
            return List.of(x, y, z);
        }
    }

    /** A full 4×4 matrix, 16 curves in column-major order (element row r, column c at 4c + r). */
    public record Matrix(List<Curve> elements) implements Element {
        public Matrix {
            elements = List.copyOf(elements);
            if (elements.size() != 16) {
                throw new IllegalArgumentException("a matrix element needs 16 curves");
            }
        }

        @Override
        public List<Curve> parameters() {
            return elements;
        }
    }
}
