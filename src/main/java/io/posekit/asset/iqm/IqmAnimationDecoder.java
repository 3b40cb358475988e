package io.posekit.asset.iqm;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes IQM poses, frames and anims into clips, one per anim in table order, named after it.
 *
 * <p>Pose {@code j} animates joint {@code j} (its {@code parent} must be the joint's). A frame holds
 * {@code num_framechannels} unsigned shorts; pose by pose, every channel {@code c} (0–2 translation, 3–6
 * quaternion x y z w, 7–9 scale) whose {@code channelmask} bit is set takes the next one, and its value is
 * {@code channeloffset[c] + ushort · channelscale[c]}; a channel without its bit is {@code channeloffset[c]}.
 *
 * <p>Anim {@code a} covers frames {@code first_frame … first_frame + num_frames − 1}; frame {@code f} of it is
 * keyed at {@code f / framerate} seconds, and the clip lasts {@code (num_frames − 1) / framerate}. Every joint gets
 * a LINEAR translation, rotation and scale track; a track none of whose channels is in the mask is constant and
 * has a single key. Rotation keys are normalised and made hemisphere-continuous (each key on the same side as
 * the previous one). The anim's loop flag is not represented: callers choose the loop mode when sampling.
 */
final class IqmAnimationDecoder {

    private static final int CHANNELS = 10;

    private final IqmFile file;
    private final IqmSkeleton skeleton;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;

    IqmAnimationDecoder(IqmFile file, IqmSkeleton skeleton, DecodeBudget budget, ImportWarnings warnings) {
        this.file = file;
        this.skeleton = skeleton;
        this.budget = budget;
        this.warnings = warnings;
    }

    /** One pose: which channels are stored, where its first stored channel is within a frame, offsets, scales. */
    private record Pose(int mask, int firstChannel, double[] offset, double[] scale) {
    }

    /**
     * Every anim.
     *
     * @throws ImportException invalid (422) naming the pose, anim or frame range at fault; unsupported (415) for an
     *     animation-only file (poses without joints)
     */
    List<ImportScene.Clip> decode() {
        if (file.numAnims == 0 && file.numPoses == 0) {
            return List.of();
        }
        int joints = skeleton.jointCount();
        if (joints == 0) {
            throw ImportException.unsupported("animation-only IQM files (poses but no joints) are not supported;"
                    + " upload the model together with its skeleton");
        }
        if (file.numPoses != joints) {
            throw ImportException.invalid("header: num_poses " + file.numPoses + " differs from num_joints " + joints
                    + "; every joint needs its pose");
        }
        Pose[] poses = readPoses(joints);
        if (file.numAnims > budget.limits().maxClips()) {
            throw ImportLimits.exceeded("header: the file", file.numAnims, "anims", budget.limits().maxClips(),
                    ImportLimits.CLIPS);
        }
        budget.charge(file.numAnims, 64, "anims");
        List<ImportScene.Clip> clips = new ArrayList<>();
        for (int a = 0; a < file.numAnims; a++) {
            budget.checkTimeNow();
            clips.add(anim(a, poses));
        }
        return clips;
    }

    private Pose[] readPoses(int count) {
        budget.charge(count, 2 * CHANNELS * 8 + 32, "poses");
        Pose[] poses = new Pose[count];
        long channel = 0;
        for (int j = 0; j < count; j++) {
            budget.checkTime();
            long at = file.ofsPoses + (long) j * IqmFile.POSE_SIZE;
            String where = "pose " + j;
            int parent = Math.max(file.i32(at), -1);
            if (parent != skeleton.parent(j)) {
                throw ImportException.invalid(where + ": parent " + parent + " differs from joint " + j + "'s parent "
                        + skeleton.parent(j));
            }
            long mask = file.u32(at + 4);
            if ((mask & ~0x3FFL) != 0) {
                warnings.add(where + ": channel mask bits above channel 9 are ignored");
            }
            int used = (int) (mask & 0x3FF);
            double[] offset = new double[CHANNELS];
            double[] scale = new double[CHANNELS];
            for (int c = 0; c < CHANNELS; c++) {
                offset[c] = file.f32(at + 8 + 4L * c);
                scale[c] = file.f32(at + 48 + 4L * c);
                if (!Double.isFinite(offset[c]) || !Double.isFinite(scale[c])) {
                    throw ImportException.invalid(where + ": channel " + c + " offset or scale is not finite");
                }
            }
            poses[j] = new Pose(used, (int) channel, offset, scale);
            channel += Integer.bitCount(used);
        }
        if (channel > file.numFrameChannels) {
            throw ImportException.invalid("poses: the channel masks select " + channel
                    + " channels per frame but the header's num_framechannels is " + file.numFrameChannels);
        }
        if (channel < file.numFrameChannels && file.numFrames > 0) {
            warnings.add("poses: the channel masks select " + channel + " channels per frame; the other "
                    + (file.numFrameChannels - channel) + " of num_framechannels " + file.numFrameChannels + " are ignored");
        }
        return poses;
    }

    private ImportScene.Clip anim(int index, Pose[] poses) {
        long at = file.ofsAnims + (long) index * IqmFile.ANIM_SIZE;
        String name = file.text(file.u32(at), "anim " + index + " name");
        String where = "anim " + index + (name == null ? "" : " ('" + name + "')");
        long first = file.u32(at + 4);
        long count = file.u32(at + 8);
        float framerate = file.f32(at + 12);
        if (first > file.numFrames || count > file.numFrames - first) {
            throw ImportException.invalid(where + ": frames " + first + " + " + count + " exceed the file's num_frames "
                    + file.numFrames);
        }
        if (count == 0) {
            warnings.add(where + " has no frames; its clip is empty");
            return new ImportScene.Clip(name, List.of(), List.of(), 0.0);
        }
        if (count > 1 && !(framerate > 0 && Float.isFinite(framerate))) {
            throw ImportException.invalid(where + ": framerate " + framerate + " is not a positive number");
        }
        if (count > 1 && !Float.isFinite((float) ((count - 1) / (double) framerate))) {
            throw ImportException.invalid(where + ": framerate " + framerate + " is too small: the anim would last forever");
        }
        if (count > budget.limits().maxKeysPerTrack()) {
            throw ImportLimits.exceeded(where, count, "frames (keys per track)", budget.limits().maxKeysPerTrack(),
                    ImportLimits.KEYS_PER_TRACK);
        }
        int frames = (int) count;
        budget.charge(frames, 4, where + " key times");
        float[] times = new float[frames];
        for (int f = 0; f < frames; f++) {
            times[f] = f == 0 ? 0f : (float) (f / (double) framerate);
        }
        float[] zero = {0f};
        List<Track> tracks = new ArrayList<>(3 * poses.length);
        for (int j = 0; j < poses.length; j++) {
            int node = IqmSkeleton.node(j);
            tracks.add(track(poses[j], 0, 3, TrackProperty.TRANSLATION, node, first, frames, times, zero, where, j));
            tracks.add(track(poses[j], 3, 4, TrackProperty.ROTATION, node, first, frames, times, zero, where, j));
            tracks.add(track(poses[j], 7, 3, TrackProperty.SCALE, node, first, frames, times, zero, where, j));
        }
        double duration = frames == 1 ? 0 : (frames - 1) / (double) framerate;
        return new ImportScene.Clip(name, tracks, List.of(), duration);
    }

    private Track track(Pose pose, int channel0, int width, TrackProperty property, int node, long firstFrame, int frames,
            float[] times, float[] zero, String where, int joint) {
        int bits = ((1 << width) - 1) << channel0;
        boolean animated = (pose.mask() & bits) != 0;
        int keys = animated ? frames : 1;
        budget.charge((long) keys * width, 4, where + " joint " + joint + " " + property.wireName() + " keys");
        float[] values = new float[keys * width];
        double[] v = new double[width];
        double[] previous = null;
        for (int f = 0; f < keys; f++) {
            budget.checkTime();
            long frameStart = file.ofsFrames + 2 * ((firstFrame + f) * file.numFrameChannels + pose.firstChannel());
            // stored channels of this pose before channel0 come first within its block
            int stored = Integer.bitCount(pose.mask() & ((1 << channel0) - 1));
            for (int c = 0; c < width; c++) {
                int ch = channel0 + c;
                double x = pose.offset()[ch];
                if ((pose.mask() & (1 << ch)) != 0) {
                    x += file.u16(frameStart + 2L * stored++) * pose.scale()[ch];
                }
                v[c] = x;
            }
            if (property == TrackProperty.ROTATION) {
                double len = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
                if (!(len > 0) || !Double.isFinite(len)) {
                    throw ImportException.invalid(where + " frame " + f + " joint " + joint
                            + ": the rotation channels decode to a zero quaternion");
                }
                double sign = previous != null
                        && previous[0] * v[0] + previous[1] * v[1] + previous[2] * v[2] + previous[3] * v[3] < 0 ? -1 : 1;
                for (int c = 0; c < 4; c++) {
                    v[c] = sign * v[c] / len;
                }
                previous = v.clone();
            }
            for (int c = 0; c < width; c++) {
                float value = (float) v[c];
                if (!Float.isFinite(value)) {
                    throw ImportException.invalid(where + " frame " + f + " joint " + joint + ": " + property.wireName()
                            + " component " + c + " is not finite");
                }
                values[f * width + c] = value;
            }
        }
        try {
            return new Track(node, property, Interpolation.LINEAR, width, animated ? times : zero, values);
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + " joint " + joint + ": " + e.getMessage());
        }
    }
}
