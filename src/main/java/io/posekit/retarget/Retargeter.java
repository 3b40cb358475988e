package io.posekit.retarget;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.LocalToModelJob;
import io.posekit.sampling.SamplingJob;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Plays clips made for one skeleton on another of different proportions and rest pose: each chosen clip of the source
 * is sampled at its {@link SampleTimes} and written as a new clip of the target, of LINEAR tracks (rotations slerped),
 * appended to the target's clips. The target's rig, skins and meshes are untouched.
 *
 * <p>Per key time, in model space (see {@code docs/retargeting.md} for the derivation):
 * <ul>
 *   <li>a mapped target joint j, following source joint s: {@code Qt(j) = D · Qs(s) · Rs(s)⁻¹ · A(j) · Rt(j)}, the
 *       source's rotation from its rest pose applied to the target's rest pose aligned to the source's
 *       ({@link RetargetPlan}); D is the identity unless unmapped source joints lie on the bone from s to its primary
 *       mapped child, when it is the shortest arc that puts that bone on the source's actual chord;</li>
 *   <li>a chain joint m (unmapped, between mapped a above and e below): {@code Qt(m) = slerp(Δa, Δe, f) · Ra(m)},
 *       where {@code Δx = Qt(x) · Ra(x)⁻¹} and f is m's distance along the rest chain from a to e;</li>
 *   <li>any other joint keeps its rest local rotation;</li>
 *   <li>local rotations follow as {@code q(j) = Qt(parent)⁻¹ · Qt(j)};</li>
 *   <li>the root joint's model position is its rest position plus the source root's displacement from its rest
 *       position times the root-motion scale, brought into its parent's rest frame.</li>
 * </ul>
 *
 * <p>Scales are assumed uniform: model rotations are composed from local rotations alone. Source scale and morph
 * weight tracks are not carried over.
 */
public final class Retargeter {

    private Retargeter() {
    }

    /**
     * The result.
     *
     * @param model the target with the retargeted clips appended
     * @param report what was paired and made
     */
    public record Result(Model model, RetargetReport report) {
    }

    /**
     * Retargets the request's clips of {@code source} onto {@code target}.
     *
     * @param maxClips the most clips the result may have
     * @throws RetargetException for a bad joint map, an unknown clip or root joint, no joint in common, or a source
     *     without clips
     * @throws io.posekit.asset.ImportException (too large) past {@code maxClips}
     */
    public static Result retarget(Model target, Model source, RetargetRequest request, int maxClips) {
        if (source.clips().isEmpty()) {
            throw new RetargetException(RetargetException.Kind.NOTHING_TO_RETARGET, "the source asset has no clips",
                    List.of());
        }
        List<Clip> chosen = chosenClips(source, request.clips());
        JointMap map = JointMatcher.match(target, source, request.jointMap());
        RetargetPlan plan = new RetargetPlan(target.rig(), source.rig(), map, request.rootJoint(), request.rootMotion(),
                facesMinusZ(target) != facesMinusZ(source));
        if (target.clips().size() + chosen.size() > maxClips) {
            throw ImportLimits.exceeded("the retargeted asset", target.clips().size() + chosen.size(), "clips",
                    maxClips, ImportLimits.CLIPS);
        }
        Set<String> names = new HashSet<>();
        target.clips().forEach(c -> names.add(c.name()));
        List<Clip> clips = new ArrayList<>(target.clips());
        List<RetargetReport.ClipReport> reports = new ArrayList<>();
        ClipWriter writer = new ClipWriter(plan, request.keepTranslations(), request.rootMotion().mode()
                != RetargetRequest.RootMotion.Mode.NONE);
        for (Clip clip : chosen) {
            String name = unique(clip.name(), names);
            names.add(name);
            Clip made = writer.write(clip, name);
            clips.add(made);
            reports.add(new RetargetReport.ClipReport(name, clip.name(), made.tracks().getFirst().keyCount(),
                    made.tracks().size()));
        }
        Model model = new Model(target.format(), target.rig(), target.skins(), target.meshes(), clips,
                target.warnings(), target.humanoid(), target.space());
        return new Result(model, RetargetReport.of(target, source, plan, reports));
    }

    /** Whether the model faces −Z: a VRM 0.x avatar (every other model faces glTF's +Z). */
    static boolean facesMinusZ(Model model) {
        return model.humanoid() != null && model.humanoid().facesMinusZ();
    }

    private static List<Clip> chosenClips(Model source, List<String> requested) {
        if (requested.isEmpty()) {
            return source.clips();
        }
        List<Clip> chosen = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String name : requested) {
            source.findClip(name).ifPresentOrElse(i -> chosen.add(source.clips().get(i)), () -> unknown.add(name));
        }
        if (!unknown.isEmpty()) {
            throw new RetargetException(RetargetException.Kind.BAD_REQUEST, "the source asset has no clip named "
                    + String.join(", ", unknown.stream().map(n -> "'" + n + "'").toList()) + "; it has "
                    + String.join(", ", source.clips().stream().map(c -> "'" + c.name() + "'").toList()), unknown);
        }
        return chosen;
    }

    private static String unique(String name, Set<String> taken) {
        if (!taken.contains(name)) {
            return name;
        }
        for (int k = 2; ; k++) {
            String candidate = name + " (" + k + ")";
            if (!taken.contains(candidate)) {
                return candidate;
            }
        }
    }

    /** Samples source clips and writes target clips; one per request, its buffers reused across clips and keys. */
    private static final class ClipWriter {

        private final RetargetPlan plan;
        private final boolean keepTranslations;
        private final boolean rootMotion;
        private final Rig target;
        private final Rig source;
        private final int[] sourceOf;
        private final SamplingJob sampling = new SamplingJob();
        private final LocalToModelJob toModel = new LocalToModelJob();
        private final LocalPose sourcePose;
        private final float[] sourceMatrices;
        private final double[] sourceModel;
        private final double[] targetModel;
        private final double[] q = new double[4];
        private final double[] d = new double[4];
        private final double[] v = new double[6];

        ClipWriter(RetargetPlan plan, boolean keepTranslations, boolean rootMotion) {
            this.plan = plan;
            this.keepTranslations = keepTranslations;
            this.rootMotion = rootMotion;
            this.target = plan.target;
            this.source = plan.source;
            this.sourceOf = plan.map.sourceOf();
            sourcePose = new LocalPose(source.nodeCount());
            sourceMatrices = new float[16 * source.nodeCount()];
            sourceModel = new double[4 * source.nodeCount()];
            targetModel = new double[4 * target.nodeCount()];
            sampling.rig = source;
            sampling.output = sourcePose;
            toModel.rig = source;
            toModel.input = sourcePose;
            toModel.output = sourceMatrices;
        }

        Clip write(Clip clip, String name) {
            float[] times = SampleTimes.of(clip);
            int keys = times.length;
            int n = target.nodeCount();
            float[][] rotations = new float[n][];
            float[][] translations = new float[n][];
            for (int t = 0; t < n; t++) {
                if (plan.kind[t] != RetargetPlan.REST) {
                    rotations[t] = new float[4 * keys];
                }
                boolean moves = t == plan.root ? rootMotion : keepTranslations && plan.kind[t] == RetargetPlan.MAPPED;
                if (moves) {
                    translations[t] = new float[3 * keys];
                }
            }
            sampling.clip = clip;
            for (int k = 0; k < keys; k++) {
                sampleSource(times[k]);
                targetModelRotations();
                writeKey(k, rotations, translations);
            }
            List<Track> tracks = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                if (rotations[t] != null) {
                    tracks.add(new Track(t, TrackProperty.ROTATION, Interpolation.LINEAR, 4, times, rotations[t]));
                }
                if (translations[t] != null) {
                    tracks.add(new Track(t, TrackProperty.TRANSLATION, Interpolation.LINEAR, 3, times,
                            translations[t]));
                }
            }
            return new Clip(name, clip.duration(), tracks, List.of());
        }

        /** Samples the source at {@code time}: local pose, model matrices, and model rotations in double. */
        private void sampleSource(double time) {
            sampling.time = time;
            sampling.run();
            toModel.run();
            float[] local = sourcePose.rotations();
            for (int i = 0; i < source.nodeCount(); i++) {
                RetargetPlan.asDouble(local, i, q);
                Rotations.normalize(q, 0);
                int p = source.parent(i);
                if (p >= 0) {
                    Rotations.multiply(sourceModel, 4 * p, q, 0, sourceModel, 4 * i);
                    Rotations.normalize(sourceModel, 4 * i);
                } else {
                    Rotations.copy(q, 0, sourceModel, 4 * i);
                    if (plan.turnSource) {
                        RetargetPlan.turnQuaternion(sourceModel, 4 * i); // its descendants follow
                    }
                }
            }
            if (plan.turnSource) {
                // model positions (the translation columns are all the sampling reads of the matrices)
                for (int i = 0; i < source.nodeCount(); i++) {
                    sourceMatrices[16 * i + 12] = -sourceMatrices[16 * i + 12];
                    sourceMatrices[16 * i + 14] = -sourceMatrices[16 * i + 14];
                }
            }
        }

        /** Fills {@link #targetModel}: mapped joints first, then chains, then the rest parent-first. */
        private void targetModelRotations() {
            int n = target.nodeCount();
            for (int t = 0; t < n; t++) {
                if (plan.kind[t] != RetargetPlan.MAPPED) {
                    continue;
                }
                int s = sourceOf[t];
                Rotations.multiply(sourceModel, 4 * s, plan.transfer, 4 * t, targetModel, 4 * t);
                int c = plan.correctionChild[t];
                if (c >= 0) {
                    Rotations.rotate(sourceModel, 4 * s, plan.correctionChord, 3 * t, v, 0);
                    v[3] = sourceMatrices[16 * c + 12] - sourceMatrices[16 * s + 12];
                    v[4] = sourceMatrices[16 * c + 13] - sourceMatrices[16 * s + 13];
                    v[5] = sourceMatrices[16 * c + 14] - sourceMatrices[16 * s + 14];
                    if (Rotations.length(v, 3) > Rotations.EPSILON) {
                        Rotations.arc(v, 0, v, 3, d, 0);
                        Rotations.multiply(d, 0, targetModel, 4 * t, targetModel, 4 * t);
                    }
                }
                Rotations.normalize(targetModel, 4 * t);
            }
            for (int t = 0; t < n; t++) {
                if (plan.kind[t] == RetargetPlan.CHAIN) {
                    int a = plan.chainStart[t];
                    int e = plan.chainEnd[t];
                    Rotations.multiplyConjugateRight(targetModel, 4 * a, plan.alignedRest, 4 * a, q, 0);
                    Rotations.multiplyConjugateRight(targetModel, 4 * e, plan.alignedRest, 4 * e, d, 0);
                    Rotations.slerp(q, 0, d, 0, plan.chainFraction[t], q, 0);
                    Rotations.multiply(q, 0, plan.alignedRest, 4 * t, targetModel, 4 * t);
                    Rotations.normalize(targetModel, 4 * t);
                }
            }
            for (int t = 0; t < n; t++) {
                if (plan.kind[t] == RetargetPlan.REST) {
                    RetargetPlan.asDouble(target.restRotations(), t, q);
                    int p = target.parent(t);
                    if (p >= 0) {
                        Rotations.multiply(targetModel, 4 * p, q, 0, targetModel, 4 * t);
                        Rotations.normalize(targetModel, 4 * t);
                    } else {
                        Rotations.copy(q, 0, targetModel, 4 * t);
                    }
                }
            }
        }

        /** Writes key {@code k}: local rotations of driven joints, the root's translation, kept translations. */
        private void writeKey(int k, float[][] rotations, float[][] translations) {
            int n = target.nodeCount();
            for (int t = 0; t < n; t++) {
                float[] out = rotations[t];
                if (out != null) {
                    int p = target.parent(t);
                    if (p >= 0) {
                        Rotations.multiplyConjugateLeft(targetModel, 4 * p, targetModel, 4 * t, q, 0);
                    } else {
                        Rotations.copy(targetModel, 4 * t, q, 0);
                    }
                    Rotations.normalize(q, 0);
                    // the same hemisphere as the previous key, so exported curves do not flip sign
                    double sign = 1;
                    if (k > 0 && q[0] * out[4 * k - 4] + q[1] * out[4 * k - 3] + q[2] * out[4 * k - 2]
                            + q[3] * out[4 * k - 1] < 0) {
                        sign = -1;
                    }
                    for (int c = 0; c < 4; c++) {
                        out[4 * k + c] = (float) (sign * q[c]);
                    }
                }
                if (translations[t] != null) {
                    if (t == plan.root) {
                        rootTranslation(translations[t], k);
                    } else {
                        keptTranslation(t, translations[t], k);
                    }
                }
            }
        }

        private void rootTranslation(float[] out, int k) {
            int s = plan.sourceRoot;
            int r = plan.root;
            double x = plan.restPositionTarget[3 * r]
                    + plan.rootScale * (sourceMatrices[16 * s + 12] - plan.restPositionSource[3 * s]);
            double y = plan.restPositionTarget[3 * r + 1]
                    + plan.rootScale * (sourceMatrices[16 * s + 13] - plan.restPositionSource[3 * s + 1]);
            double z = plan.restPositionTarget[3 * r + 2]
                    + plan.rootScale * (sourceMatrices[16 * s + 14] - plan.restPositionSource[3 * s + 2]);
            float[] m = plan.rootParentInverse;
            if (m != null) {
                double lx = m[0] * x + m[4] * y + m[8] * z + m[12];
                double ly = m[1] * x + m[5] * y + m[9] * z + m[13];
                double lz = m[2] * x + m[6] * y + m[10] * z + m[14];
                x = lx;
                y = ly;
                z = lz;
            }
            out[3 * k] = (float) x;
            out[3 * k + 1] = (float) y;
            out[3 * k + 2] = (float) z;
        }

        /**
         * A kept translation: the target's rest translation plus the source joint's translation change from its rest,
         * turned from the source parent's rest frame into the target parent's aligned rest frame and scaled.
         */
        private void keptTranslation(int t, float[] out, int k) {
            int s = sourceOf[t];
            float[] local = sourcePose.translations();
            float[] rest = source.restTranslations();
            v[0] = local[3 * s] - rest[3 * s];
            v[1] = local[3 * s + 1] - rest[3 * s + 1];
            v[2] = local[3 * s + 2] - rest[3 * s + 2];
            int sp = source.parent(s);
            if (sp >= 0) {
                Rotations.rotate(plan.restModelSource, 4 * sp, v, 0, v, 0);
            } else if (plan.turnSource) {
                RetargetPlan.turnVector(v, 0);
            }
            int tp = target.parent(t);
            if (tp >= 0) {
                Rotations.rotateInverse(plan.alignedRest, 4 * tp, v, 0, v, 0);
            }
            float[] restT = target.restTranslations();
            double scale = plan.rootScale == 0 ? 1 : plan.rootScale;
            out[3 * k] = (float) (restT[3 * t] + scale * v[0]);
            out[3 * k + 1] = (float) (restT[3 * t + 1] + scale * v[1]);
            out[3 * k + 2] = (float) (restT[3 * t + 2] + scale * v[2]);
        }
    }
}
