package io.posekit.motion;

import io.posekit.clip.Clip;
import io.posekit.rig.Rig;
import io.posekit.sampling.LoopMode;
import io.posekit.sampling.Pose;
import java.util.Set;

/**
 * The root motion of one clip: its extractor (the reference is the clip's start, local time 0) and the motion of
 * one whole loop, {@code L = D(duration)}, so that motion accumulates over {@code loop=repeat} cycles: at playback time
 * {@code T = k·d + r} the accumulated motion is {@code A(T) = L^k · D(r)} (a clip that walks forward keeps walking
 * forward; one that turns keeps turning). For {@code clamp} and {@code pingpong} {@code A(T) = D(localTime)}. The
 * motion between two samples is {@code A(T₀)⁻¹ · A(T₁)}, in the character's frame at the first.
 *
 * <p>Immutable once built, but the extractor it hands out is not thread-safe: build one per request.
 */
public final class ClipRootMotion {

    private final RootMotionExtractor extractor;
    private final RigidMotion loop = new RigidMotion();
    private final double duration;

    private ClipRootMotion(RootMotionExtractor extractor, double duration) {
        this.extractor = extractor;
        this.duration = duration;
    }

    /**
     * The root motion of {@code clip} ({@code null}: the rest pose, which does not move) on {@code rig}.
     *
     * @throws IllegalArgumentException for a joint out of range
     */
    public static ClipRootMotion of(Rig rig, Clip clip, int joint, Set<RootMotionComponent> components) {
        ClipRootMotion motion = new ClipRootMotion(new RootMotionExtractor(rig, joint, components,
                Pose.evaluate(rig, clip, 0).modelMatrices()), clip == null ? 0 : clip.duration());
        if (clip != null && clip.duration() > 0) {
            motion.extractor.motion(Pose.evaluate(rig, clip, clip.duration()).modelMatrices(), motion.loop);
        }
        return motion;
    }

    /**
     * Root motion relative to a given reference pose, without loops (for a blend: the reference is the blend with
     * every layer at its start).
     *
     * @param referenceModelMatrices the reference pose's model matrices, 16 per node
     */
    public static ClipRootMotion ofReference(Rig rig, int joint, Set<RootMotionComponent> components,
            float[] referenceModelMatrices) {
        return new ClipRootMotion(new RootMotionExtractor(rig, joint, components, referenceModelMatrices), 0);
    }

    /** The extractor (reference: the clip's start). */
    public RootMotionExtractor extractor() {
        return extractor;
    }

    /** The motion of one whole loop, {@code D(duration)} (the identity for a clip of duration 0). */
    public RigidMotion loopMotion() {
        return new RigidMotion().set(loop);
    }

    /**
     * How many whole loops were played before playback time {@code time} (seconds): {@code floor(time / d)} for
     * {@code repeat}, 0 otherwise (and for a clip of duration 0).
     */
    public long loops(LoopMode mode, double time) {
        if (mode != LoopMode.REPEAT || !(duration > 0)) {
            return 0;
        }
        double k = Math.floor(time / duration);
        // LoopMode maps t = k·d to 0: the same k here (floor of an exact multiple)
        return (long) Math.max(-Long.MAX_VALUE, Math.min(Long.MAX_VALUE, k));
    }

    /** {@code out = L^loops · cycle}: the motion accumulated since the clip's start. */
    public void accumulate(long loops, RigidMotion cycle, RigidMotion out) {
        RigidMotion whole = new RigidMotion().power(loop, loops);
        out.mul(whole, cycle);
    }
}
