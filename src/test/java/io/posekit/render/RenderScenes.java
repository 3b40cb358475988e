package io.posekit.render;

import io.posekit.skinning.Material;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.List;

/** Generated scenes for the renderer's known-answer tests: quads and a cube, unskinned (posed = bind shape). */
final class RenderScenes {

    private RenderScenes() {
    }

    /** A camera at (0, 0, {@code z}) looking down −Z with a 90° vertical field of view, square picture. */
    static Camera straightOn(double z) {
        return new Camera(new double[] {0, 0, z}, new double[] {0, 0, 0}, new double[] {0, 1, 0}, 90, 1, 0.1, 100);
    }

    /**
     * A quad at depth {@code z} from ({@code x0}, {@code y0}) to ({@code x1}, {@code y1}), two triangles, normals +Z,
     * texture coordinates (0, 0) at the top-left corner to (1, 1) at the bottom-right; counter-clockwise seen from +Z
     * unless {@code reversed}.
     */
    static Surface quad(float x0, float y0, float x1, float y1, float z, Material material, boolean reversed) {
        float[] positions = {x0, y1, z, x0, y0, z, x1, y0, z, x1, y1, z}; // top-left, bottom-left, bottom-right, top-right
        float[] normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
        float[] uvs = {0, 0, 0, 1, 1, 1, 1, 0};
        int[] indices = reversed ? new int[] {0, 2, 1, 0, 3, 2} : new int[] {0, 1, 2, 0, 2, 3};
        Primitive p = new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "NORMAL", "TEXCOORD_0"), positions,
                normals, null, indices, 0, new int[0], new float[0], uvs, material);
        return new Surface(p, new PosedPrimitive(4, positions, normals, null));
    }

    /** The cube from −h to h on every axis, 24 vertices (4 per face, with face normals), counter-clockwise outside. */
    static Surface cube(float h, Material material) {
        float[][] faces = {
            {0, 0, 1, 1, 0, 0, 0, 1, 0}, {0, 0, -1, -1, 0, 0, 0, 1, 0}, {1, 0, 0, 0, 0, -1, 0, 1, 0},
            {-1, 0, 0, 0, 0, 1, 0, 1, 0}, {0, 1, 0, 1, 0, 0, 0, 0, -1}, {0, -1, 0, 1, 0, 0, 0, 0, 1}};
        float[] positions = new float[72];
        float[] normals = new float[72];
        int[] indices = new int[36];
        for (int f = 0; f < 6; f++) {
            float[] n = {faces[f][0], faces[f][1], faces[f][2]};
            float[] u = {faces[f][3], faces[f][4], faces[f][5]};
            float[] v = {faces[f][6], faces[f][7], faces[f][8]};
            float[][] corners = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}; // counter-clockwise in (u, v), u × v = n
            for (int k = 0; k < 4; k++) {
                for (int a = 0; a < 3; a++) {
                    positions[3 * (4 * f + k) + a] = h * (n[a] + corners[k][0] * u[a] + corners[k][1] * v[a]);
                    normals[3 * (4 * f + k) + a] = n[a];
                }
            }
            int[] quad = {0, 1, 2, 0, 2, 3};
            for (int i = 0; i < 6; i++) {
                indices[6 * f + i] = 4 * f + quad[i];
            }
        }
        Primitive p = new Primitive(PrimitiveMode.TRIANGLES, List.of("POSITION", "NORMAL"), positions, normals, null,
                indices, 0, new int[0], new float[0], null, material);
        return new Surface(p, new PosedPrimitive(24, positions, normals, null));
    }

    /** An opaque, single-sided material of linear colour (r, g, b). */
    static Material colour(float r, float g, float b) {
        return Material.of("c", new float[] {r, g, b, 1}, false);
    }

    /** The exact sRGB code of linear {@code l} (clamped). */
    static int srgb(double l) {
        l = Math.clamp(l, 0, 1);
        return (int) Math.round(255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * Math.pow(l, 1 / 2.4) - 0.055));
    }

    /** The linear value of 8-bit sRGB code {@code c}. */
    static double linear(int c) {
        double v = c / 255.0;
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }

    /** The documented light of a surface facing the camera (normal = towards the viewer). */
    static double facingLight() {
        double key = 0.7 / Math.sqrt(0.4 * 0.4 + 0.6 * 0.6 + 0.7 * 0.7);
        double fill = 0.5 / Math.sqrt(0.6 * 0.6 + 0.1 * 0.1 + 0.5 * 0.5);
        return 0.30 + 0.85 * key + 0.35 * fill;
    }
}
