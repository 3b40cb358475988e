package io.posekit.asset;

/**
 * The one rule every importer applies to the vertex colours it reads, so that {@code COLOR_0} means the same
 * whatever the upload's format: linear RGBA floats, 4 per vertex (an RGB source gets alpha 1), values kept as
 * stored when finite — also outside 0–1, as glTF's importer keeps them (HDR colours and the exporter's float
 * accessors carry them unchanged) — and the whole colour set dropped with one warning when a value is not finite,
 * because no single vertex's colour can be repaired without inventing one.
 */
public final class VertexColors {

    private VertexColors() {
    }

    /**
     * {@code rgba} when every value is finite, else {@code null} after a warning naming the first vertex that is
     * not, e.g. {@code mesh 'Cube' primitive 0: COLOR_0 of vertex 3 is not finite; the colours are not carried}.
     *
     * @param rgba 4 floats per vertex, or {@code null} (returned as is)
     * @param where names the primitive in the warning
     */
    public static float[] finiteOrWarn(float[] rgba, String where, ImportWarnings warnings) {
        if (rgba == null) {
            return null;
        }
        for (int i = 0; i < rgba.length; i++) {
            if (!Float.isFinite(rgba[i])) {
                warnings.add(where + ": COLOR_0 of vertex " + i / 4 + " is not finite; the colours are not carried");
                return null;
            }
        }
        return rgba;
    }
}
