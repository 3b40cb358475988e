package io.posekit.asset.bvh;

import java.util.ArrayList;
import java.util.List;

/**
 * One node of the HIERARCHY as parsed: a ROOT, a JOINT or an End Site, with its parent (index in depth-first file
 * order, {@code -1} for a root), its OFFSET and its CHANNELS in the order the frame data lists them. Filled in by
 * {@link HierarchyParser}, read-only afterwards.
 */
final class Joint {

    /** What the node was declared as. */
    enum Kind {
        ROOT, JOINT, END_SITE;

        /** As in the file: {@code ROOT}, {@code JOINT}, {@code End Site}. */
        String keyword() {
            return this == END_SITE ? "End Site" : name();
        }
    }

    final Kind kind;
    final int parent;
    /** The line of the ROOT, JOINT or End keyword. */
    final int line;
    /** The file's name for ROOT and JOINT; for an end site the name given by {@link HierarchyParser}. */
    String name;
    /** OFFSET x, y, z; {@code null} until read. */
    double[] offset;
    /** The CHANNELS, in file order; {@code null} when the joint has no CHANNELS line. */
    List<Channel> channels;
    /** The line of the CHANNELS keyword, or 0. */
    int channelsLine;

    Joint(Kind kind, String name, int parent, int line) {
        this.kind = kind;
        this.name = name;
        this.parent = parent;
        this.line = line;
    }

    boolean isEndSite() {
        return kind == Kind.END_SITE;
    }

    /** The channels, empty when there are none. */
    List<Channel> channelList() {
        return channels == null ? List.of() : channels;
    }

    /** Starts the channel list (a CHANNELS keyword at {@code line}). */
    void startChannels(int line) {
        channels = new ArrayList<>();
        channelsLine = line;
    }

    /** E.g. {@code JOINT 'LeftLeg' (line 14)} or {@code End Site (line 25)}, for messages. */
    String describe() {
        return kind == Kind.END_SITE
                ? "End Site (line " + line + ")"
                : kind.keyword() + " " + BvhText.quote(name) + " (line " + line + ")";
    }
}
