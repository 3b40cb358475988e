package io.posekit.export;

import io.posekit.asset.gltf.GltfBuilder;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * glTF assets made in code for the posed-GLB tests, on top of {@link GltfBuilder#skinnedTwoBoneStrip()} (6 vertices,
 * two bones, clip Bend of 2 s).
 */
public final class PosedFixtures {

    /** The strip's texture coordinates: u across, v down the strip (glTF convention). */
    public static final float[] STRIP_UV = {0, 1, 1, 1, 0, 0.5f, 1, 0.5f, 0, 0, 1, 0};
    public static final float[] SKIN_BASE_COLOR = {0.8f, 0.6f, 0.4f, 1};

    private PosedFixtures() {
    }

    /** A 2×2 RGBA PNG. */
    public static byte[] png() {
        BufferedImage image = new BufferedImage(2, 2, BufferedImage.TYPE_INT_ARGB);
        image.setRGB(0, 0, 0xFFFF0000);
        image.setRGB(1, 0, 0xFF00FF00);
        image.setRGB(0, 1, 0xFF0000FF);
        image.setRGB(1, 1, 0x80FFFFFF);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    private static final class ImageIO {
        static void write(BufferedImage image, String format, ByteArrayOutputStream out) throws IOException {
            javax.imageio.ImageIO.write(image, format, out);
        }
    }

    /**
     * The skinned strip with {@code TEXCOORD_0} and material 0 "Skin" (base colour {@link #SKIN_BASE_COLOR}, metallic
     * 0, roughness 0.5, double-sided, base colour texture: {@link #png()} in a buffer view); plus a second,
     * non-indexed LINES primitive along the strip's left edge (vertices 0, 2, 4, skinned like them) with material 1
     * "Edge" (red, BLEND); the mesh is named Strip.
     */
    public static GltfBuilder texturedStrip() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        int uv = b.addFloatAccessor(STRIP_UV, "VEC2");
        ObjectNode prim = (ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0);
        ((ObjectNode) prim.get("attributes")).put("TEXCOORD_0", uv);
        prim.put("material", 0);
        int pos = b.addFloatAccessor(new float[] {-0.5f, 0, 0, -0.5f, 1, 0, -0.5f, 1, 0, -0.5f, 2, 0}, "VEC3");
        int joints = b.addIntAccessor(new int[] {0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0},
                GltfBuilder.UNSIGNED_BYTE, "VEC4");
        int weights = b.addFloatAccessor(new float[] {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0}, "VEC4");
        ObjectNode lines = ((ArrayNode) b.json().get("meshes").get(0).get("primitives")).addObject();
        ObjectNode a = lines.putObject("attributes");
        a.put("POSITION", pos);
        a.put("JOINTS_0", joints);
        a.put("WEIGHTS_0", weights);
        lines.put("mode", GltfBuilder.LINES);
        lines.put("material", 1);
        int view = b.addBufferView(png());
        ObjectNode image = b.json().putArray("images").addObject();
        image.put("bufferView", view);
        image.put("mimeType", "image/png");
        b.json().putArray("textures").addObject().put("source", 0);
        ArrayNode materials = b.json().putArray("materials");
        ObjectNode skin = materials.addObject();
        skin.put("name", "Skin");
        ObjectNode pbr = skin.putObject("pbrMetallicRoughness");
        ArrayNode color = pbr.putArray("baseColorFactor");
        for (float f : SKIN_BASE_COLOR) {
            color.add(f);
        }
        pbr.put("metallicFactor", 0.0);
        pbr.put("roughnessFactor", 0.5);
        pbr.putObject("baseColorTexture").put("index", 0);
        skin.put("doubleSided", true);
        ObjectNode edge = materials.addObject();
        edge.put("name", "Edge");
        ArrayNode red = edge.putObject("pbrMetallicRoughness").putArray("baseColorFactor");
        red.add(1.0).add(0.0).add(0.0).add(0.5);
        edge.put("alphaMode", "BLEND");
        return b;
    }

    /** The PNG as a base64 data URI. */
    public static String pngDataUri() {
        return "data:image/png;base64," + Base64.getEncoder().encodeToString(png());
    }

    /**
     * Two rigid instances beside the skinned strip: node "Marker" (translated to (2,0,0), rotated 90° about Y) with a
     * mesh "Points" of 3 points and no material, and node "Tri" with a non-indexed triangle mesh "Tri" (no normals).
     */
    public static GltfBuilder multiMesh() {
        GltfBuilder b = texturedStrip();
        int pts = b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 0, 1}, "VEC3");
        int points = b.mesh("Points").primitive(GltfBuilder.attributes("POSITION", pts), -1, GltfBuilder.POINTS).index();
        int tri = b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
        int triangle = b.mesh("Tri").primitive(GltfBuilder.attributes("POSITION", tri)).index();
        float s = (float) Math.sqrt(0.5);
        int marker = b.node("Marker").translation(2, 0, 0).rotation(0, s, 0, s).mesh(points).index();
        int t = b.node("Tri").mesh(triangle).index();
        ArrayNode nodes = (ArrayNode) b.json().get("scenes").get(0).get("nodes");
        nodes.add(marker).add(t);
        return b;
    }
}
