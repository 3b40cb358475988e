package io.posekit.asset.md5;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** MD5 test files as strings, and helpers to import them. */
public final class Md5Fixtures {

    private Md5Fixtures() {
    }

    /** √½ written the way MD5 exporters do. */
    public static final String S = "0.7071067812";

    /**
     * Two joints: {@code root} at the origin (orientation 0 0 0: w = −1, the identity) and {@code arm} at (1, 0, 0)
     * rotated +90° about z (stored (0, 0, −√½): w = −√½, so q = −(0, 0, √½, √½)). One vertex with two weights:
     * 0.25 × root·(0, 2, 0) + 0.75 × arm·(1, 0, 0) = 0.25·(0, 2, 0) + 0.75·(1, 1, 0) = (0.75, 1.25, 0).
     */
    public static final String MESH = """
            MD5Version 10
            commandline "mesh models/test.ma"   // a comment

            numJoints 2
            numMeshes 1

            joints {
            \t"root"\t-1 ( 0 0 0 ) ( 0 0 0 )\t\t// origin
            \t"arm"\t0 ( 1 0 0 ) ( 0 0 -%s )
            }

            mesh {
            \t// meshes: test
            \tshader "models/skin"

            \tnumverts 3
            \tvert 0 ( 0 0 ) 0 2
            \tvert 1 ( 1 0 ) 2 1
            \tvert 2 ( 0 1 ) 3 1

            \tnumtris 1
            \ttri 0 0 1 2

            \tnumweights 4
            \tweight 0 0 0.25 ( 0 2 0 )
            \tweight 1 1 0.75 ( 1 0 0 )
            \tweight 2 0 1 ( 4 0 0 )
            \tweight 3 1 1 ( 0 0 5 )
            }
            """.formatted(S);

    /**
     * Three frames at 24 fps. {@code root} is not animated (flags 0); {@code arm} has flags 37 = Tx (1) + Tz (4) + Qz
     * (32), read from components 0, 1, 2 of each frame; Ty, Qx, Qy keep the baseframe's values.
     */
    public static final String ANIM = """
            MD5Version 10
            commandline "anim models/walk.ma"

            numFrames 3
            numJoints 2
            frameRate 24
            numAnimatedComponents 3

            hierarchy {
            \t"root"\t-1 0 0\t// (no components)
            \t"arm"\t0 37 0\t// root ( Tx Tz Qz )
            }

            bounds {
            \t( -1 -1 -1 ) ( 1 1 1 )
            \t( -1 -1 -1 ) ( 1 1 1 )
            \t( -1 -1 -1 ) ( 1 1 1 )
            }

            baseframe {
            \t( 0 0 0 ) ( 0 0 0 )
            \t( 1 0.5 0 ) ( 0.1 0 -%s )
            }

            frame 0 {
            \t1 0 -%s
            }

            frame 1 {
            \t2 0.5 0
            }

            frame 2 {
            \t3 1 -1
            }
            """.formatted(S, S);

    /**
     * A humanoid-ish MD5 model written in code (Z up, facing −y, left +x, T-pose): {@code pelvis → spine → chest →
     * neck → head}, {@code chest → clavicle → upperarm → forearm → hand} and {@code pelvis → thigh → calf → foot → toe}
     * per side ({@code _l}, {@code _r}), 21 joints; every joint has its own rest orientation (an axis-angle turn that
     * differs joint by joint, as exporters bake bone axes). One mesh of one triangle whose vertices are weighted to
     * pelvis and thigh_l, chest, and head and hand_r.
     */
    public static final String[] HUMANOID_JOINTS = {"pelvis", "spine", "chest", "neck", "head", "clavicle_l",
        "upperarm_l", "forearm_l", "hand_l", "clavicle_r", "upperarm_r", "forearm_r", "hand_r", "thigh_l", "calf_l",
        "foot_l", "toe_l", "thigh_r", "calf_r", "foot_r", "toe_r"};

    private static final int[] HUMANOID_PARENTS = {-1, 0, 1, 2, 3, 2, 5, 6, 7, 2, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18,
        19};

    private static final double[][] HUMANOID_POSITIONS = {{0, 0, 40}, {0, 0, 46}, {0, 0, 54}, {0, 0, 62},
        {0, -1, 67}, {2, 0, 60}, {8, 0, 60}, {18, 0, 60}, {27, 0, 60}, {-2, 0, 60}, {-8, 0, 60}, {-18, 0, 60},
        {-27, 0, 60}, {5, 0, 38}, {5, -1, 21}, {5, 0, 4}, {5, -6, 1}, {-5, 0, 38}, {-5, -1, 21}, {-5, 0, 4},
        {-5, -6, 1}};

    /**
     * The animated joints of {@link #humanoidAnim()} and their flags: pelvis everything (63 = Tx Ty Tz Qx Qy Qz),
     * spine, head, upperarm_l, thigh_r the three rotation components (56), forearm_l Qx and Qz (40), calf_r Qx (8).
     */
    private static final int[][] HUMANOID_ANIMATED = {{0, 63}, {1, 56}, {4, 56}, {6, 56}, {7, 40}, {17, 56},
        {18, 8}};

    /** Frames of {@link #humanoidAnim()}, at 24 fps. */
    public static final int HUMANOID_FRAMES = 5;

    /** Joint j's rest orientation in MD5 model space: a turn of 0.3 (j + 1) rad about (sin j, cos j, ½). */
    static double[] humanoidRestOrientation(int j) {
        return axisAngle(Math.sin(j), Math.cos(j), 0.5, 0.3 * (j + 1));
    }

    /** The local turn of animated joint number a (in {@link #HUMANOID_ANIMATED}) at frame f, after its rest. */
    static double[] humanoidTurn(int a, int f) {
        return axisAngle(Math.cos(a), 1, Math.sin(2 * a), 0.25 * f * (a % 3 == 0 ? 1 : -1) + 0.05 * a * f);
    }

    static double[] axisAngle(double x, double y, double z, double angle) {
        double n = Math.sqrt(x * x + y * y + z * z);
        double s = Math.sin(angle / 2) / n;
        return new double[] {x * s, y * s, z * s, Math.cos(angle / 2)};
    }

    /** Joint j's rest (translation, orientation) relative to its parent, MD5 model space. */
    private static double[][] humanoidLocal(int j) {
        double[] q = humanoidRestOrientation(j);
        double[] p = HUMANOID_POSITIONS[j];
        int parent = HUMANOID_PARENTS[j];
        if (parent < 0) {
            return new double[][] {p.clone(), q};
        }
        double[] pq = Md5Math.conjugate(humanoidRestOrientation(parent));
        double[] pp = HUMANOID_POSITIONS[parent];
        return new double[][] {Md5Math.rotate(pq, p[0] - pp[0], p[1] - pp[1], p[2] - pp[2]), Md5Math.multiply(pq, q)};
    }

    /** (x, y, z) of a unit quaternion the MD5 way: the sign chosen so that w ≤ 0. */
    private static String md5Quaternion(double[] q) {
        double sign = q[3] > 0 ? -1 : 1;
        return String.format(Locale.ROOT, "%.10f %.10f %.10f", sign * q[0], sign * q[1], sign * q[2]);
    }

    private static String vector(double[] v) {
        return String.format(Locale.ROOT, "%.10f %.10f %.10f", v[0], v[1], v[2]);
    }

    /** The {@code .md5mesh} of the humanoid (joints in model space, as the format stores them). */
    public static String humanoidMesh() {
        StringBuilder b = new StringBuilder("MD5Version 10\ncommandline \"humanoid\"\n\nnumJoints ")
                .append(HUMANOID_JOINTS.length).append("\nnumMeshes 1\n\njoints {\n");
        for (int j = 0; j < HUMANOID_JOINTS.length; j++) {
            b.append("\t\"").append(HUMANOID_JOINTS[j]).append("\"\t").append(HUMANOID_PARENTS[j]).append(" ( ")
                    .append(vector(HUMANOID_POSITIONS[j])).append(" ) ( ")
                    .append(md5Quaternion(humanoidRestOrientation(j))).append(" )\n");
        }
        b.append("""
                }

                mesh {
                \tshader "skin"
                \tnumverts 3
                \tvert 0 ( 0 0 ) 0 2
                \tvert 1 ( 1 0 ) 2 1
                \tvert 2 ( 0 1 ) 3 2
                \tnumtris 1
                \ttri 0 0 1 2
                \tnumweights 5
                \tweight 0 0 0.5 ( 0 0 2 )
                \tweight 1 13 0.5 ( 1 0 0 )
                \tweight 2 2 1 ( 0 -3 0 )
                \tweight 3 4 0.75 ( 0 0 4 )
                \tweight 4 12 0.25 ( 1 1 0 )
                }
                """);
        return b.toString();
    }

    /**
     * The {@code .md5anim} of the humanoid: {@link #HUMANOID_FRAMES} frames at 24 fps; the baseframe is the rest pose
     * (relative to the parents); at frame f each animated joint's local orientation is its rest one followed by
     * {@link #humanoidTurn}, and the pelvis moves by (0.5 f, −2 f, sin f), of which the frames store the components
     * the flags name.
     */
    public static String humanoidAnim() {
        int[] flags = new int[HUMANOID_JOINTS.length];
        int[] start = new int[HUMANOID_JOINTS.length];
        int components = 0;
        for (int[] a : HUMANOID_ANIMATED) {
            flags[a[0]] = a[1];
        }
        for (int j = 0; j < flags.length; j++) {
            start[j] = components;
            components += Integer.bitCount(flags[j]);
        }
        StringBuilder b = new StringBuilder("MD5Version 10\ncommandline \"humanoid\"\n\nnumFrames ")
                .append(HUMANOID_FRAMES).append("\nnumJoints ").append(HUMANOID_JOINTS.length)
                .append("\nframeRate 24\nnumAnimatedComponents ").append(components).append("\n\nhierarchy {\n");
        for (int j = 0; j < HUMANOID_JOINTS.length; j++) {
            b.append("\t\"").append(HUMANOID_JOINTS[j]).append("\"\t").append(HUMANOID_PARENTS[j]).append(' ')
                    .append(flags[j]).append(' ').append(flags[j] == 0 ? 0 : start[j]).append('\n');
        }
        b.append("}\n\nbounds {\n");
        for (int f = 0; f < HUMANOID_FRAMES; f++) {
            b.append("\t( -40 -40 -10 ) ( 40 40 80 )\n");
        }
        b.append("}\n\nbaseframe {\n");
        for (int j = 0; j < HUMANOID_JOINTS.length; j++) {
            double[][] local = humanoidLocal(j);
            b.append("\t( ").append(vector(local[0])).append(" ) ( ").append(md5Quaternion(local[1])).append(" )\n");
        }
        b.append("}\n");
        for (int f = 0; f < HUMANOID_FRAMES; f++) {
            b.append("\nframe ").append(f).append(" {\n");
            for (int a = 0; a < HUMANOID_ANIMATED.length; a++) {
                int j = HUMANOID_ANIMATED[a][0];
                double[][] local = humanoidLocal(j);
                double[] t = local[0].clone();
                if (j == 0) {
                    t[0] += 0.5 * f;
                    t[1] -= 2 * f;
                    t[2] += Math.sin(f);
                }
                double[] q = Md5Math.multiply(local[1], humanoidTurn(a, f));
                if (q[3] > 0) {
                    q = new double[] {-q[0], -q[1], -q[2], -q[3]};
                }
                double[] all = {t[0], t[1], t[2], q[0], q[1], q[2]};
                b.append('\t');
                for (int c = 0; c < 6; c++) {
                    if ((HUMANOID_ANIMATED[a][1] & (1 << c)) != 0) {
                        b.append(String.format(Locale.ROOT, "%.10f ", all[c]));
                    }
                }
                b.append('\n');
            }
            b.append("}\n");
        }
        return b.toString();
    }

    /** The humanoid as uploaded: {@code humanoid.md5mesh} and {@code walk.md5anim}. */
    public static List<SourceFile> humanoidUpload() {
        return List.of(file("humanoid.md5mesh", humanoidMesh()), file("walk.md5anim", humanoidAnim()));
    }

    static SourceFile file(String name, String text) {
        return new SourceFile(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Imports {@code main} uploaded with {@code others}. */
    static ImportScene importFiles(ImportLimits limits, SourceFile main, SourceFile... others) {
        List<SourceFile> all = new ArrayList<>();
        all.add(main);
        all.addAll(List.of(others));
        return new Md5Importer().read(main, new SourceFiles(all), limits);
    }

    static ImportScene importFiles(SourceFile main, SourceFile... others) {
        return importFiles(ImportLimits.DEFAULT, main, others);
    }
}
