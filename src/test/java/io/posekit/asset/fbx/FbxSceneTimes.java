package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportWarnings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where each clip of an FBX file starts in the file's scene time, for tests that hold scene times (ufbx's test
 * sources, an OBJ exported at a scene frame): posekit's clip time 0 is the stack's start
 * ({@link FbxAnimation#span}), so scene time t is clip time t − start. The runtime model does not carry the start yet.
 */
public final class FbxSceneTimes {

    /**
     * The stacks of a file in file order.
     *
     * @param starts each stack's name and its start, seconds of scene time
     * @param active the name of the document's active stack ({@code ActiveAnimStackName}), or {@code null}
     */
    public record Stacks(Map<String, Double> starts, String active) {
    }

    private FbxSceneTimes() {
    }

    /** Reads {@code file}'s stacks (any file posekit imports; fails as the import would on one it refuses). */
    public static Stacks of(byte[] file) {
        DecodeBudget budget = ImportLimits.DEFAULT.newBudget();
        FbxReader.Document doc = FbxReader.read(file, ImportLimits.DEFAULT, budget);
        FbxNode root = doc.root();
        int version = doc.version();
        if (version < FbxLegacy.AS_VERSION) {
            root = FbxLegacy.upgrade(root, version, budget, new ImportWarnings());
            version = FbxLegacy.AS_VERSION;
        }
        FbxScene scene = FbxScene.of(root, version, budget, new ImportWarnings());
        Map<String, Double> starts = new LinkedHashMap<>();
        for (FbxScene.FbxObject stack : scene.objects("AnimationStack")) {
            starts.putIfAbsent(stack.name(), FbxAnimation.span(scene, stack)[0] / (double) FbxScene.TICKS_PER_SECOND);
        }
        String active = null;
        FbxNode documents = scene.topLevel("Documents");
        if (documents != null) {
            for (FbxNode d : documents.children("Document")) {
                FbxNode props = d.child("Properties70");
                if (props == null) {
                    continue;
                }
                for (FbxNode p : props.children("P")) {
                    if (p.properties().size() > 4 && "ActiveAnimStackName".equals(p.property(0))
                            && p.property(4) instanceof String s && !s.isEmpty()) {
                        active = s;
                    }
                }
            }
        }
        return new Stacks(starts, active);
    }
}
