package io.posekit.fuzz;

import io.posekit.asset.collada.DaeBuilder;
import io.posekit.asset.collada.RobustnessFixture;
import io.posekit.asset.fbx.FbxTestFiles;
import io.posekit.asset.gltf.DracoGlb;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.asset.gltf.Ktx2TextureImportTest;
import io.posekit.asset.gltf.meshopt.MeshoptGlb;
import io.posekit.asset.iqm.IqmBuilder;
import io.posekit.asset.md5.Md5Fixtures;
import io.posekit.asset.x.XTestSupport;
import io.posekit.asset.x.XWriter;
import io.posekit.store.GeneratedAssets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The valid files every mutant starts from, generated in code with the importers' own test builders: several per
 * format (skinned meshes with animation, several clips where the format has them, every container variant), and
 * the multi-file uploads (a glTF with its {@code .bin}, an MD5 mesh with its animations) both as separate parts
 * and as a zip. Each seed imports (UploadFuzzTest checks 201 for every one before fuzzing).
 */
final class Seeds {

    /** What a file's bytes are, which decides the structure-aware mutations it gets. */
    enum Shape {
        /** Binary records (IQM, binary .x and FBX, a .bin buffer). */
        BINARY,
        /** Line- and token-oriented text (.x text, BVH, MD5, FBX ASCII). */
        TEXT,
        /** glTF JSON. */
        JSON,
        /** A GLB container: JSON chunk and BIN chunk. */
        GLB,
        /** COLLADA XML. */
        XML
    }

    /** One file of a seed. */
    record SeedFile(String name, byte[] bytes, Shape shape) {
    }

    /**
     * A valid upload.
     *
     * @param format the format's wire name (the importer it reaches)
     * @param name a short name for reports
     * @param files the files; the first is the model file
     * @param zipped whether the files are uploaded zipped into one part (else one multipart part each)
     */
    record Seed(String format, String name, List<SeedFile> files, boolean zipped) {

        SeedFile main() {
            return files.getFirst();
        }
    }

    /** Every format's wire name, in the order the campaign runs them. */
    static final List<String> FORMATS = List.of("gltf", "collada", "x", "iqm", "bvh", "md5", "fbx");

    private Seeds() {
    }

    /** The seeds of every format, by wire name in {@link #FORMATS} order. */
    static Map<String, List<Seed>> all() {
        Map<String, List<Seed>> all = new LinkedHashMap<>();
        all.put("gltf", gltf());
        all.put("collada", collada());
        all.put("x", x());
        all.put("iqm", iqm());
        all.put("bvh", bvh());
        all.put("md5", md5());
        all.put("fbx", fbx());
        return all;
    }

    static List<Seed> gltf() {
        GltfBuilder strip = GltfBuilder.skinnedTwoBoneStrip();
        GltfBuilder twoClips = GltfBuilder.skinnedTwoBoneStrip();
        // a second clip: Root scales and Tip moves, with CUBICSPLINE (in-tangent, value, out-tangent per key)
        twoClips.animation("Grow")
                .track(1, "scale", "LINEAR", new float[] {0, 0.5f, 1}, new float[] {1, 1, 1, 2, 2, 2, 1, 1, 1})
                .track(2, "translation", "CUBICSPLINE", new float[] {0, 1},
                        new float[] {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0});
        GltfBuilder.ExternalGltf external = GltfBuilder.skinnedTwoBoneStrip().toGltfWithExternalBin("strip.bin");
        return List.of(
                seed("gltf", "strip.glb", false, file("strip.glb", strip.toGlb(), Shape.GLB)),
                seed("gltf", "two-clips.glb", false, file("two-clips.glb", twoClips.toGlb(), Shape.GLB)),
                seed("gltf", "soup.glb", false, file("soup.glb", GeneratedAssets.skinnedMesh(24, 7), Shape.GLB)),
                // every view meshopt-compressed (attribute and index streams), on a fallback buffer without data
                seed("gltf", "meshopt.glb", false, file("meshopt.glb",
                        MeshoptGlb.compress(twoClips.toGlb(), "EXT_meshopt_compression"), Shape.GLB)),
                // KHR_texture_basisu: a UASTC KTX2 texture without fallback, transcoded on import
                seed("gltf", "ktx2.glb", false, file("ktx2.glb", Ktx2TextureImportTest.strip(false).toGlb(), Shape.GLB)),
                // KHR_draco_mesh_compression: the skinned strip sequential (its joints are integers), a grid by edgebreaker
                seed("gltf", "draco.glb", false, file("draco.glb", DracoGlb.compress(withGrid(GltfBuilder.skinnedTwoBoneStrip()).toGlb(),
                        DracoGlb.Options.MIXED), Shape.GLB)),
                seed("gltf", "embedded.gltf", false,
                        file("embedded.gltf", twoClips.toGltfJson().getBytes(StandardCharsets.UTF_8), Shape.JSON)),
                seed("gltf", "external.gltf+bin", false, file("strip.gltf", external.jsonBytes(), Shape.JSON),
                        file("strip.bin", external.bin(), Shape.BINARY)),
                seed("gltf", "external.zip", true, file("strip.gltf", external.jsonBytes(), Shape.JSON),
                        file("strip.bin", external.bin(), Shape.BINARY)));
    }

    /** {@code b} with a second mesh on a node of its scene: {@link DracoGlb#addGrid}'s float-only grid. */
    private static GltfBuilder withGrid(GltfBuilder b) {
        int node = b.node("Grid").mesh(DracoGlb.addGrid(b, false)).index();
        ((tools.jackson.databind.node.ArrayNode) b.json().get("scenes").get(0).get("nodes")).add(node);
        return b;
    }

    static List<Seed> collada() {
        return List.of(
                seed("collada", "quad.dae", false, file("quad.dae", RobustnessFixture.document(), Shape.XML)),
                seed("collada", "triangle.dae", false, file("triangle.dae", triangleDae(), Shape.XML)));
    }

    /**
     * A Y-up skinned triangle on a two-joint chain (root, tip) with two clips: Spin (tip's rotate ANGLE, linear,
     * 0°, 45°, 90° over 2 s) and Move (tip's translate, STEP, and its scale X, linear).
     */
    private static byte[] triangleDae() {
        String mesh = DaeBuilder.floats("tri-pos", "XYZ", 0, 0, 0, 1, 0, 0, 0, 2, 0)
                + DaeBuilder.floats("tri-nrm", "XYZ", 0, 0, 1)
                + "<vertices id=\"tri-v\"><input semantic=\"POSITION\" source=\"#tri-pos\"/></vertices>"
                + "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#tri-v\" offset=\"0\"/>"
                + "<input semantic=\"NORMAL\" source=\"#tri-nrm\" offset=\"1\"/><p>0 0 1 0 2 0</p></triangles>";
        String skin = "<controller id=\"ctrl\" name=\"TriSkin\"><skin source=\"#tri\">"
                + "<bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>"
                + DaeBuilder.names("ctrl-j", "Name_array", "JOINT", "root", "tip")
                + DaeBuilder.matrices("ctrl-ibm", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                        1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, 0, 0, 1)
                + DaeBuilder.floats("ctrl-w", "W", 1, 0.5)
                + "<joints><input semantic=\"JOINT\" source=\"#ctrl-j\"/>"
                + "<input semantic=\"INV_BIND_MATRIX\" source=\"#ctrl-ibm\"/></joints>"
                + "<vertex_weights count=\"3\"><input semantic=\"JOINT\" source=\"#ctrl-j\" offset=\"0\"/>"
                + "<input semantic=\"WEIGHT\" source=\"#ctrl-w\" offset=\"1\"/><vcount>1 2 1</vcount>"
                + "<v>0 0 0 1 1 1 1 0</v></vertex_weights></skin></controller>";
        return new DaeBuilder().upAxis("Y_UP").unit("1")
                .geometry("tri", "Tri", mesh)
                .controller(skin)
                .node("<node id=\"root\" sid=\"root\" name=\"Root\" type=\"JOINT\">"
                        + "<node id=\"tip\" sid=\"tip\" name=\"Tip\" type=\"JOINT\"><translate sid=\"t\">0 1 0</translate>"
                        + "<rotate sid=\"rz\">0 0 1 0</rotate><scale sid=\"s\">1 1 1</scale></node></node>")
                .node("<node id=\"mesh\" name=\"Mesh\"><instance_controller url=\"#ctrl\"><skeleton>#root</skeleton>"
                        + "</instance_controller></node>")
                .animation(DaeBuilder.linear("spin", "tip/rz.ANGLE", new double[] {0, 1, 2}, 1, 0, 45, 90))
                .animation(DaeBuilder.animation("move", "tip/t", new double[] {0, 1}, 3, new double[] {0, 1, 0, 0, 2, 0},
                        DaeBuilder.repeat("STEP", 2), null, null))
                .animation(DaeBuilder.linear("grow", "tip/s.X", new double[] {0, 1}, 1, 1, 2))
                .clip("<animation_clip id=\"clip-spin\" name=\"Spin\" start=\"0\" end=\"2\">"
                        + "<instance_animation url=\"#spin\"/></animation_clip>")
                .clip("<animation_clip id=\"clip-move\" name=\"Move\" start=\"0\" end=\"1\">"
                        + "<instance_animation url=\"#move\"/><instance_animation url=\"#grow\"/></animation_clip>")
                .toBytes();
    }

    static List<Seed> x() {
        XWriter text = XWriter.text();
        XTestSupport.twoJoints(text, true);
        // a second AnimationSet: two clips
        text.open("AnimationSet", "Wave").open("Animation").ref("Child");
        text.open("AnimationKey").ints(0, 2).ints(0, 4).floats(1, 0, 0, 0).sep(";,").ints(5, 4).floats(0, 1, 0, 0)
                .sep(";;").close();
        text.close().close();
        XWriter bin32 = XWriter.binary(32);
        XTestSupport.twoJoints(bin32, true);
        XWriter bin64 = XWriter.binary(64);
        XTestSupport.twoJoints(bin64, false);
        XWriter zipped = XWriter.text();
        XTestSupport.twoJoints(zipped, true);
        XWriter bzip = XWriter.binary(32);
        XTestSupport.twoJoints(bzip, true);
        return List.of(
                seed("x", "text.x", false, file("text.x", text.file(), Shape.TEXT)),
                seed("x", "bin32.x", false, file("bin32.x", bin32.file(), Shape.BINARY)),
                seed("x", "bin64.x", false, file("bin64.x", bin64.file(), Shape.BINARY)),
                seed("x", "tzip.x", false, file("tzip.x", zipped.compressed(64), Shape.BINARY)),
                seed("x", "bzip.x", false, file("bzip.x", bzip.compressed(200), Shape.BINARY)));
    }

    static List<Seed> iqm() {
        return List.of(
                seed("iqm", "triangle.iqm", false, file("triangle.iqm", IqmBuilder.twoJointTriangle().build(), Shape.BINARY)),
                seed("iqm", "two-anims.iqm", false, file("two-anims.iqm",
                        IqmBuilder.twoJointTriangle().anim("tail", 1, 2, 4, 0).build(), Shape.BINARY)));
    }

    static List<Seed> bvh() {
        return List.of(
                seed("bvh", "chain.bvh", false, file("chain.bvh", bvh(3, 4, "Zrotation Xrotation Yrotation", 1), Shape.TEXT)),
                seed("bvh", "tree.bvh", false, file("tree.bvh", bvh(6, 12, "Xrotation Yrotation Zrotation", 2), Shape.TEXT)));
    }

    /**
     * A BVH of {@code joints} joints, {@code J0} the root: each even joint opens a branch the following joints go
     * under, each odd joint (and the last) is a leaf with an end site. Position channels on the root only;
     * {@code frames} frames of angles drawn from {@code seed}.
     */
    static byte[] bvh(int joints, int frames, String rotationOrder, long seed) {
        StringBuilder s = new StringBuilder("HIERARCHY\n");
        int channels = 0;
        List<Integer> open = new ArrayList<>();
        for (int j = 0; j < joints; j++) {
            String indent = "\t".repeat(open.size());
            s.append(indent).append(j == 0 ? "ROOT" : "JOINT").append(" J").append(j).append("\n").append(indent).append("{\n");
            s.append(indent).append("\tOFFSET 0 ").append(j == 0 ? 0 : 1).append(" 0\n");
            if (j == 0) {
                s.append(indent).append("\tCHANNELS 6 Xposition Yposition Zposition ").append(rotationOrder).append('\n');
                channels += 6;
            } else {
                s.append(indent).append("\tCHANNELS 3 ").append(rotationOrder).append('\n');
                channels += 3;
            }
            open.add(j);
            if (j % 2 == 1 || j == joints - 1) {
                // a leaf: an end site, then close this joint unless the chain goes on from it
                s.append(indent).append("\tEnd Site\n").append(indent).append("\t{\n").append(indent)
                        .append("\t\tOFFSET 0 0.5 0\n").append(indent).append("\t}\n");
                s.append(indent).append("}\n");
                open.removeLast();
            }
        }
        while (!open.isEmpty()) {
            s.append("\t".repeat(open.size() - 1)).append("}\n");
            open.removeLast();
        }
        s.append("MOTION\nFrames: ").append(frames).append("\nFrame Time: 0.0333333\n");
        SplittableRandom random = new SplittableRandom(seed);
        for (int f = 0; f < frames; f++) {
            for (int c = 0; c < channels; c++) {
                s.append(c == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.4f", random.nextDouble(-90, 90)));
            }
            s.append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    static List<Seed> md5() {
        byte[] mesh = Md5Fixtures.MESH.getBytes(StandardCharsets.UTF_8);
        byte[] walk = Md5Fixtures.ANIM.getBytes(StandardCharsets.UTF_8);
        byte[] run = Md5Fixtures.ANIM.replace("frameRate 24", "frameRate 30").replace("2 0.5 0", "-2 0.25 -0.5")
                .getBytes(StandardCharsets.UTF_8);
        return List.of(
                seed("md5", "mesh+anim", false, file("body.md5mesh", mesh, Shape.TEXT), file("walk.md5anim", walk, Shape.TEXT)),
                seed("md5", "mesh+anims.zip", true, file("body.md5mesh", mesh, Shape.TEXT),
                        file("walk.md5anim", walk, Shape.TEXT), file("run.md5anim", run, Shape.TEXT)),
                seed("md5", "anim-only", false, file("run.md5anim", run, Shape.TEXT)));
    }

    static List<Seed> fbx() {
        return List.of(
                seed("fbx", "bin7400.fbx", false, file("bin7400.fbx", FbxTestFiles.skinnedBinary(7400, false), Shape.BINARY)),
                seed("fbx", "bin7500z.fbx", false, file("bin7500z.fbx", FbxTestFiles.skinnedBinary(7500, true), Shape.BINARY)),
                seed("fbx", "ascii.fbx", false,
                        file("ascii.fbx", FbxTestFiles.skinnedAscii().getBytes(StandardCharsets.UTF_8), Shape.TEXT)));
    }

    private static SeedFile file(String name, byte[] bytes, Shape shape) {
        return new SeedFile(name, bytes, shape);
    }

    private static Seed seed(String format, String name, boolean zipped, SeedFile... files) {
        return new Seed(format, name, List.of(files), zipped);
    }
}
