package io.posekit.asset;

import io.posekit.clip.Curve;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.skinning.Primitive;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Checks an importer's {@link ImportScene} against the structural caps of {@link ImportLimits}, once, whatever the
 * format: nodes, clips, joints per skin, vertices (of all distinct primitives together), influences per vertex, keys
 * per track and per curve. Importers check what they can earlier, before they allocate; this is the net under all of
 * them. Each failure is a 413 naming the element, the count, the limit and its configuration property, e.g.
 * {@code skin 0 has 12000 joints; the limit is 10000 (posekit.limits.joints-per-skin)}.
 */
public final class SceneLimits {

    private SceneLimits() {
    }

    /**
     * Checks {@code scene}, read from the file {@code fileName}.
     *
     * @throws ImportException (too large) naming the first cap exceeded
     */
    public static void check(ImportScene scene, ImportLimits limits, String fileName) {
        if (scene.nodes().size() > limits.maxNodes()) {
            throw ImportLimits.exceeded(fileName, scene.nodes().size(), "nodes", limits.maxNodes(), ImportLimits.NODES);
        }
        if (scene.clips().size() > limits.maxClips()) {
            throw ImportLimits.exceeded(fileName, scene.clips().size(), "clips", limits.maxClips(), ImportLimits.CLIPS);
        }
        for (int s = 0; s < scene.skins().size(); s++) {
            ImportScene.Skin skin = scene.skins().get(s);
            if (skin.joints().length > limits.maxJointsPerSkin()) {
                throw ImportLimits.exceeded("skin " + s + name(skin.name()), skin.joints().length, "joints",
                        limits.maxJointsPerSkin(), ImportLimits.JOINTS_PER_SKIN);
            }
        }
        checkMeshes(scene.meshes(), limits);
        for (int c = 0; c < scene.clips().size(); c++) {
            checkClip(scene, c, limits);
        }
    }

    private static void checkMeshes(List<ImportScene.MeshInstance> meshes, ImportLimits limits) {
        Set<Primitive> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        long vertices = 0;
        for (ImportScene.MeshInstance m : meshes) {
            for (int p = 0; p < m.primitives().size(); p++) {
                Primitive prim = m.primitives().get(p);
                if (!seen.add(prim)) {
                    continue;
                }
                vertices += prim.vertexCount();
                if (vertices > limits.maxVertices()) {
                    throw ImportLimits.exceeded("the meshes", vertices, "vertices (or more) in all",
                            limits.maxVertices(), ImportLimits.VERTICES);
                }
                if (prim.influencesPerVertex() > limits.maxInfluencesPerVertex()) {
                    int used = mostInfluences(prim);
                    if (used > limits.maxInfluencesPerVertex()) {
                        throw ImportLimits.exceeded(describe(m) + " primitive " + p + " vertex " + vertexWith(prim, used),
                                used, "joint influences", limits.maxInfluencesPerVertex(),
                                ImportLimits.INFLUENCES_PER_VERTEX);
                    }
                }
            }
        }
    }

    /** The most influence slots with a non-zero weight any vertex of {@code p} uses (its last such slot, 1-based). */
    private static int mostInfluences(Primitive p) {
        int k = p.influencesPerVertex();
        float[] w = p.weights();
        int most = 0;
        for (int v = 0; v < p.vertexCount(); v++) {
            for (int i = k - 1; i >= most; i--) {
                if (w[v * k + i] != 0) {
                    most = i + 1;
                    break;
                }
            }
        }
        return most;
    }

    private static int vertexWith(Primitive p, int influences) {
        int k = p.influencesPerVertex();
        for (int v = 0; v < p.vertexCount(); v++) {
            if (p.weights()[v * k + influences - 1] != 0) {
                return v;
            }
        }
        return 0;
    }

    private static void checkClip(ImportScene scene, int c, ImportLimits limits) {
        ImportScene.Clip clip = scene.clips().get(c);
        String name = "clip " + c + name(clip.name());
        int max = limits.maxKeysPerTrack();
        for (Track t : clip.tracks()) {
            if (t.keyCount() > max) {
                throw ImportLimits.exceeded(name + ": the " + t.property().wireName() + " track of "
                        + node(scene, t.node()), t.keyCount(), "keys", max, ImportLimits.KEYS_PER_TRACK);
            }
        }
        for (NodeTransformTrack n : clip.nodeTransforms()) {
            for (NodeTransformTrack.Element e : n.elements()) {
                for (Curve curve : e.parameters()) {
                    if (curve.keyCount() > max) {
                        throw ImportLimits.exceeded(name + ": a curve of " + node(scene, n.node()), curve.keyCount(),
                                "keys", max, ImportLimits.KEYS_PER_TRACK);
                    }
                }
            }
        }
    }

    private static String describe(ImportScene.MeshInstance m) {
        return m.sourceMesh() >= 0 ? "mesh " + m.sourceMesh() + name(m.name())
                : "mesh" + (m.name() == null ? "" : " '" + shorten(m.name()) + "'");
    }

    private static String node(ImportScene scene, int i) {
        if (i < 0 || i >= scene.nodes().size()) {
            return "node " + i;
        }
        ImportScene.Node n = scene.nodes().get(i);
        return "node " + (n.sourceIndex() >= 0 ? n.sourceIndex() : i) + name(n.name());
    }

    private static String name(String name) {
        return name == null || name.isEmpty() ? "" : " ('" + shorten(name) + "')";
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "…";
    }
}
