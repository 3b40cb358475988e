package io.posekit.asset.md5;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.SourceFile;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of an {@code .md5mesh} file (MD5Version 10, Doom 3):
 *
 * <pre>
 * MD5Version 10
 * commandline "…"
 * numJoints J
 * numMeshes M
 * joints { "name" parent ( px py pz ) ( qx qy qz )   … J entries }
 * mesh {                                              … M blocks
 *     shader "…"
 *     numverts V     vert i ( u v ) firstWeight weightCount   … V entries
 *     numtris T      tri i a b c                              … T entries
 *     numweights W   weight i joint bias ( x y z )            … W entries
 * }
 * </pre>
 *
 * Joints are in model space (position and orientation, w derived by {@link Md5Math#orientation}); a parent must be
 * −1 or an earlier joint. Entries are numbered consecutively from 0. Every count is checked against the characters
 * left in the file (a count that text cannot hold fails before anything is allocated) and charged to the
 * {@link DecodeBudget}; every reference (parent, triangle vertex, weight range, weight joint) is checked.
 */
final class Md5MeshFile {

    /** A joint in model space. */
    record Joint(String name, int parent, double[] position, double[] orientation) {
    }

    /**
     * One mesh block.
     *
     * @param shader the shader (material) name, or {@code null} when empty
     * @param firstWeight per vertex, its first weight
     * @param weightCount per vertex, its number of weights
     * @param triangles three vertex indices per triangle, as stored
     * @param weightJoint per weight, its joint
     * @param weightBias per weight, its bias
     * @param weightPosition per weight, the position in its joint's space (3 floats)
     * @param texcoords per vertex its {@code ( u v )}, 2 floats (top-left origin, as glTF)
     */
    record Mesh(String shader, int[] firstWeight, int[] weightCount, int[] triangles, int[] weightJoint,
            float[] weightBias, float[] weightPosition, float[] texcoords) {

        int vertexCount() {
            return firstWeight.length;
        }
    }

    // the fewest characters one entry can take, e.g. "vert 0(0 0)0 0": bounds counts by the text left
    private static final int MIN_JOINT = 17;
    private static final int MIN_VERT = 14;
    private static final int MIN_TRI = 11;
    private static final int MIN_WEIGHT = 19;
    private static final int MIN_MESH = 6;

    private final List<Joint> joints;
    private final List<Mesh> meshes;

    private Md5MeshFile(List<Joint> joints, List<Mesh> meshes) {
        this.joints = joints;
        this.meshes = meshes;
    }

    List<Joint> joints() {
        return joints;
    }

    List<Mesh> meshes() {
        return meshes;
    }

    /**
     * Parses {@code file}.
     *
     * @throws ImportException invalid (422) at the first malformed token, bad count or reference (with file and
     *     line); unsupported (415) for an MD5Version other than 10; too large (413) past a limit
     */
    static Md5MeshFile parse(SourceFile file, ImportLimits limits, DecodeBudget budget) {
        Md5Lexer lex = new Md5Lexer(file.baseName(), file.bytes(), budget);
        lex.expectVersion10();
        int numJoints = -1;
        int numMeshes = -1;
        List<Joint> joints = null;
        List<Mesh> meshes = new ArrayList<>();
        while (lex.kind() != Md5Lexer.Kind.END) {
            if (lex.isWord("commandline")) {
                lex.advance();
                lex.string("the command line");
            } else if (lex.isWord("numJoints")) {
                String at = lex.where();
                lex.advance();
                numJoints = count(lex, "numJoints", MIN_JOINT, numJoints);
                if (numJoints >= limits.maxNodes()) {
                    throw ImportException.tooLarge(at + ": numJoints " + numJoints
                            + " (plus the root node) exceeds the limit of " + limits.maxNodes() + " nodes ("
                            + ImportLimits.NODES + ")");
                }
                if (numJoints > limits.maxJointsPerSkin()) {
                    // every joint is in the mesh's one skin
                    throw ImportLimits.exceeded(at + ": the skin", numJoints, "joints (numJoints)",
                            limits.maxJointsPerSkin(), ImportLimits.JOINTS_PER_SKIN);
                }
            } else if (lex.isWord("numMeshes")) {
                lex.advance();
                numMeshes = count(lex, "numMeshes", MIN_MESH, numMeshes);
            } else if (lex.isWord("joints")) {
                if (numJoints < 0) {
                    throw lex.error("the joints block comes before numJoints");
                }
                if (joints != null) {
                    throw lex.error("a second joints block");
                }
                lex.advance();
                joints = joints(lex, numJoints, budget);
            } else if (lex.isWord("mesh")) {
                if (numMeshes < 0 || numJoints < 0) {
                    throw lex.error("a mesh block comes before numJoints and numMeshes");
                }
                if (meshes.size() == numMeshes) {
                    throw lex.error("more mesh blocks than numMeshes " + numMeshes);
                }
                lex.advance();
                meshes.add(mesh(lex, meshes.size(), numJoints, budget));
            } else {
                throw lex.error("expected commandline, numJoints, numMeshes, joints or mesh but found " + lex.describe());
            }
        }
        String name = file.baseName();
        if (numJoints < 0) {
            throw ImportException.invalid(name + ": numJoints is missing");
        }
        if (numMeshes < 0) {
            throw ImportException.invalid(name + ": numMeshes is missing");
        }
        if (joints == null) {
            if (numJoints > 0) {
                throw ImportException.invalid(name + ": numJoints is " + numJoints + " but there is no joints block");
            }
            joints = List.of();
        }
        if (meshes.size() != numMeshes) {
            throw ImportException.invalid(name + ": numMeshes is " + numMeshes + " but there "
                    + (meshes.size() == 1 ? "is 1 mesh block" : "are " + meshes.size() + " mesh blocks"));
        }
        return new Md5MeshFile(joints, meshes);
    }

    /**
     * Reads a count: a non-negative integer, declared once, that the rest of the file can hold at
     * {@code minChars} characters per entry.
     */
    static int count(Md5Lexer lex, String what, int minChars, int previous) {
        if (previous >= 0) {
            throw lex.error(what + " is declared twice");
        }
        String at = lex.where();
        int n = lex.integer(what);
        if (n < 0) {
            throw ImportException.invalid(at + ": " + what + " " + n + " is negative");
        }
        long room = (lex.remaining() + 1) / minChars;
        if (n > room) {
            throw ImportException.invalid(at + ": " + what + " " + n + " is more than the rest of the file can hold ("
                    + lex.remaining() + " characters left, room for at most " + room + ")");
        }
        return n;
    }

    private static List<Joint> joints(Md5Lexer lex, int count, DecodeBudget budget) {
        budget.charge(count, 128, "joints");
        lex.expectPunct('{');
        List<Joint> joints = new ArrayList<>(count);
        for (int j = 0; j < count; j++) {
            if (lex.isPunct('}')) {
                throw lex.error("the joints block ends after " + j + " joints but numJoints is " + count);
            }
            String name = lex.string("joint " + j + " name");
            String at = lex.where();
            int parent = lex.integer("joint " + j + " parent");
            if (parent < -1 || parent >= j) {
                throw ImportException.invalid(at + ": joint " + j + " ('" + Md5Lexer.shorten(name) + "') has parent "
                        + parent + ", which is not −1 or an earlier joint");
            }
            double[] position = vector(lex, 3, "joint " + j + " position");
            double[] q = vector(lex, 3, "joint " + j + " orientation");
            joints.add(new Joint(name, parent, position, Md5Math.orientation(q[0], q[1], q[2])));
        }
        if (!lex.isPunct('}')) {
            throw lex.error("expected '}' after " + count + " joints (numJoints) but found " + lex.describe());
        }
        lex.advance();
        return joints;
    }

    /** {@code ( a b … )} with {@code n} numbers. */
    static double[] vector(Md5Lexer lex, int n, String what) {
        lex.expectPunct('(');
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = lex.number(what);
        }
        lex.expectPunct(')');
        return v;
    }

    private static Mesh mesh(Md5Lexer lex, int index, int jointCount, DecodeBudget budget) {
        String mesh = "mesh " + index;
        lex.expectPunct('{');
        String shader = null;
        int[] firstWeight = null;
        int[] weightCount = null;
        int verts = 0;
        int[] triangles = null;
        int tris = 0;
        int[] weightJoint = null;
        float[] weightBias = null;
        float[] weightPosition = null;
        float[] texcoords = null;
        int weights = 0;
        while (!lex.isPunct('}')) {
            if (lex.isWord("shader")) {
                lex.advance();
                shader = lex.string(mesh + " shader");
            } else if (lex.isWord("numverts")) {
                lex.advance();
                int n = count(lex, mesh + " numverts", MIN_VERT, firstWeight == null ? -1 : 0);
                budget.charge(n, 16, mesh + " vertices");
                firstWeight = new int[n];
                weightCount = new int[n];
                texcoords = new float[2 * n];
            } else if (lex.isWord("vert")) {
                if (firstWeight == null) {
                    throw lex.error(mesh + ": vert before numverts");
                }
                lex.advance();
                entry(lex, mesh, "vert", verts, firstWeight.length, "numverts");
                lex.expectPunct('(');
                texcoords[2 * verts] = lex.number(mesh + " vert " + verts + " u");
                texcoords[2 * verts + 1] = lex.number(mesh + " vert " + verts + " v");
                lex.expectPunct(')');
                firstWeight[verts] = nonNegative(lex, mesh + " vert " + verts + " weight start");
                String countAt = lex.where();
                weightCount[verts] = nonNegative(lex, mesh + " vert " + verts + " weight count");
                int maxInfluences = budget.limits().maxInfluencesPerVertex();
                if (weightCount[verts] > maxInfluences) {
                    throw ImportLimits.exceeded(countAt + ": " + mesh + " vert " + verts, weightCount[verts],
                            "weights (joint influences)", maxInfluences, ImportLimits.INFLUENCES_PER_VERTEX);
                }
                verts++;
            } else if (lex.isWord("numtris")) {
                lex.advance();
                int n = count(lex, mesh + " numtris", MIN_TRI, triangles == null ? -1 : 0);
                budget.charge(3L * n, 4, mesh + " triangles");
                triangles = new int[3 * n];
            } else if (lex.isWord("tri")) {
                if (triangles == null) {
                    throw lex.error(mesh + ": tri before numtris");
                }
                lex.advance();
                entry(lex, mesh, "tri", tris, triangles.length / 3, "numtris");
                for (int c = 0; c < 3; c++) {
                    triangles[3 * tris + c] = nonNegative(lex, mesh + " tri " + tris + " vertex");
                }
                tris++;
            } else if (lex.isWord("numweights")) {
                lex.advance();
                int n = count(lex, mesh + " numweights", MIN_WEIGHT, weightJoint == null ? -1 : 0);
                budget.charge(n, 20, mesh + " weights");
                weightJoint = new int[n];
                weightBias = new float[n];
                weightPosition = new float[3 * n];
            } else if (lex.isWord("weight")) {
                if (weightJoint == null) {
                    throw lex.error(mesh + ": weight before numweights");
                }
                lex.advance();
                entry(lex, mesh, "weight", weights, weightJoint.length, "numweights");
                String at = lex.where();
                int joint = lex.integer(mesh + " weight " + weights + " joint");
                if (joint < 0 || joint >= jointCount) {
                    throw ImportException.invalid(at + ": " + mesh + " weight " + weights + " names joint " + joint
                            + ", but there are " + jointCount + " joints");
                }
                weightJoint[weights] = joint;
                weightBias[weights] = lex.number(mesh + " weight " + weights + " bias");
                double[] p = vector(lex, 3, mesh + " weight " + weights + " position");
                for (int c = 0; c < 3; c++) {
                    weightPosition[3 * weights + c] = (float) p[c];
                }
                weights++;
            } else if (lex.kind() == Md5Lexer.Kind.END) {
                throw lex.error(mesh + " is not closed with '}'");
            } else {
                throw lex.error("expected shader, numverts, vert, numtris, tri, numweights, weight or '}' in " + mesh
                        + " but found " + lex.describe());
            }
        }
        String end = lex.where();
        String file = lex.file();
        lex.advance();
        if (firstWeight == null) {
            firstWeight = new int[0];
            weightCount = new int[0];
            texcoords = new float[0];
        }
        if (triangles == null) {
            triangles = new int[0];
        }
        if (weightJoint == null) {
            weightJoint = new int[0];
            weightBias = new float[0];
            weightPosition = new float[0];
        }
        complete(end, mesh, "verts", verts, firstWeight.length, "numverts");
        complete(end, mesh, "tris", tris, triangles.length / 3, "numtris");
        complete(end, mesh, "weights", weights, weightJoint.length, "numweights");
        for (int t = 0; t < triangles.length; t++) {
            if (triangles[t] >= verts) {
                throw ImportException.invalid(file + ": " + mesh + " tri " + t / 3 + " uses vertex " + triangles[t]
                        + ", but the mesh has " + verts + " vertices");
            }
        }
        for (int v = 0; v < verts; v++) {
            if ((long) firstWeight[v] + weightCount[v] > weights) {
                throw ImportException.invalid(file + ": " + mesh + " vert " + v + " uses weights " + firstWeight[v]
                        + " … " + ((long) firstWeight[v] + weightCount[v] - 1) + ", but the mesh has " + weights
                        + " weights");
            }
        }
        return new Mesh(shader == null || shader.isEmpty() ? null : shader, firstWeight, weightCount, triangles,
                weightJoint, weightBias, weightPosition, texcoords);
    }

    /** Reads an entry's index, which must be the next one and within the declared count. */
    static void entry(Md5Lexer lex, String scope, String keyword, int expected, int declared, String countName) {
        String at = lex.where();
        String prefix = scope == null ? "" : scope + " ";
        int i = lex.integer(prefix + keyword + " index");
        if (expected >= declared) {
            throw ImportException.invalid(at + ": " + (scope == null ? "the file" : scope) + " has more " + keyword
                    + " entries than " + countName + " " + declared);
        }
        if (i != expected) {
            throw ImportException.invalid(at + ": " + prefix + keyword + " " + i + " is out of order (expected "
                    + keyword + " " + expected + ")");
        }
    }

    private static void complete(String at, String scope, String entries, int found, int declared, String countName) {
        if (found != declared) {
            throw ImportException.invalid(at + ": " + scope + " ends after " + found + " " + entries + " but "
                    + countName + " is " + declared);
        }
    }

    private static int nonNegative(Md5Lexer lex, String what) {
        String at = lex.where();
        int v = lex.integer(what);
        if (v < 0) {
            throw ImportException.invalid(at + ": " + what + " " + v + " is negative");
        }
        return v;
    }
}
