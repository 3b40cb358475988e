package io.posekit.asset.bvh;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the HIERARCHY section up to and including the {@code MOTION} keyword.
 *
 * <pre>
 * HIERARCHY
 * ROOT name { OFFSET x y z  [CHANNELS n c1 … cn]  (JOINT name { … } | End Site { OFFSET x y z })*  }
 * (ROOT …)*
 * MOTION
 * </pre>
 *
 * <p>The grammar is read token by token, so layout does not matter ({@code ROOT Hips {} on one line, values
 * spread over lines, a whole joint on one line, tabs, CRLF); keywords and channel names are case-insensitive. A
 * name is the rest of its line up to a {@code {}, so names with spaces survive. OFFSET is required, CHANNELS optional
 * (none: the joint is not animated), each at most once; a CHANNELS count must match the names listed. Nesting
 * is tracked with an explicit stack (no recursion, so depth is bounded only by the node limit), and every
 * structural error names the line and the joint it concerns.
 *
 * <p>End sites are named {@code <parent name>_end}, made unique against every other name (a suffix {@code 2},
 * {@code 3}, … when taken).
 */
final class HierarchyParser {

    /** The nodes in depth-first file order, and the number of channel values each frame holds. */
    record Hierarchy(List<Joint> joints, int channelCount, int motionLine) {
    }

    private final BvhText text;
    private final int maxNodes;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final List<Joint> joints = new ArrayList<>();
    /** Indices into {@link #joints} of the open ROOT/JOINT/End Site blocks, innermost first. */
    private final Deque<Integer> open = new ArrayDeque<>();

    HierarchyParser(BvhText text, int maxNodes, DecodeBudget budget, ImportWarnings warnings) {
        this.text = text;
        this.maxNodes = maxNodes;
        this.budget = budget;
        this.warnings = warnings;
    }

    Hierarchy parse() {
        String first = text.next();
        if (first == null) {
            throw ImportException.invalid("the file holds no BVH data (expected HIERARCHY)");
        }
        if (!first.equalsIgnoreCase("HIERARCHY")) {
            throw ImportException.invalid("line " + text.tokenLine() + ": expected HIERARCHY, found "
                    + BvhText.quote(first) + " (not a BVH file?)");
        }
        while (true) {
            String token = text.next();
            if (token == null) {
                if (joints.isEmpty()) {
                    throw ImportException.invalid("the HIERARCHY has no ROOT: the file ends at line " + text.line());
                }
                throw ImportException.invalid("the file ends at line " + text.line()
                        + " after the HIERARCHY, without a MOTION section");
            }
            if (token.equalsIgnoreCase("ROOT")) {
                readBlock(Joint.Kind.ROOT, -1);
            } else if (token.equalsIgnoreCase("MOTION")) {
                if (joints.isEmpty()) {
                    throw ImportException.invalid("line " + text.tokenLine() + ": MOTION, but the HIERARCHY has no ROOT");
                }
                break;
            } else if (token.equals("}")) {
                throw ImportException.invalid("line " + text.tokenLine() + ": unbalanced '}' (no ROOT or JOINT is open)");
            } else {
                throw ImportException.invalid("line " + text.tokenLine() + ": expected ROOT or MOTION, found "
                        + BvhText.quote(token));
            }
        }
        int motionLine = text.tokenLine();
        int channels = 0;
        for (Joint j : joints) {
            channels = Math.addExact(channels, j.channelList().size());
        }
        nameEndSites();
        warnAboutNames();
        return new Hierarchy(List.copyOf(joints), channels, motionLine);
    }

    /** Reads the block opened by the ROOT keyword just read, with everything nested in it. */
    private void readBlock(Joint.Kind kind, int parent) {
        open(kind, parent);
        while (!open.isEmpty()) {
            budget.checkTime();
            Joint top = joints.get(open.peek());
            String token = text.next();
            if (token == null) {
                throw ImportException.invalid("the file ends at line " + text.line() + " inside " + top.describe()
                        + ": " + open.size() + " '}' missing");
            }
            int line = text.tokenLine();
            if (token.equals("}")) {
                if (top.offset == null) {
                    throw ImportException.invalid(top.describe() + " has no OFFSET (its '}' is at line " + line + ")");
                }
                open.pop();
            } else if (token.equalsIgnoreCase("OFFSET")) {
                readOffset(top, line);
            } else if (token.equalsIgnoreCase("CHANNELS")) {
                readChannels(top, line);
            } else if (token.equalsIgnoreCase("JOINT") || token.equalsIgnoreCase("End")) {
                if (top.isEndSite()) {
                    throw ImportException.invalid("line " + line + ": " + BvhText.quote(token) + " inside "
                            + top.describe() + "; an End Site has no children (a '}' missing?)");
                }
                open(token.equalsIgnoreCase("JOINT") ? Joint.Kind.JOINT : Joint.Kind.END_SITE, open.peek());
            } else if (token.equalsIgnoreCase("ROOT") || token.equalsIgnoreCase("MOTION")) {
                throw ImportException.invalid("line " + line + ": " + token + " inside " + top.describe() + "; "
                        + open.size() + " '}' missing before it");
            } else if (Channel.byName(token) != null && top.channels != null) {
                throw ImportException.invalid("CHANNELS of " + top.describe() + " at line " + top.channelsLine
                        + " declares " + top.channels.size() + " channels but lists more (" + BvhText.quote(token)
                        + " at line " + line + ")");
            } else {
                throw ImportException.invalid("line " + line + ": unexpected " + BvhText.quote(token) + " in "
                        + top.describe() + " (expected " + (top.isEndSite() ? "OFFSET or '}'" : "OFFSET, CHANNELS, JOINT, End Site or '}'")
                        + ")");
            }
        }
    }

    /** Opens a ROOT, JOINT or End Site whose keyword was just read: its name, then its '{'. */
    private void open(Joint.Kind kind, int parent) {
        int line = text.tokenLine();
        if (joints.size() >= maxNodes) {
            throw ImportException.tooLarge("line " + line + ": the HIERARCHY has more than " + maxNodes
                    + " joints and end sites; the limit is " + maxNodes + " (" + ImportLimits.NODES + ")");
        }
        // the name: the rest of the line up to a '{' (which opens the block, whatever follows it on the line)
        List<String> rest = new ArrayList<>(2);
        boolean brace = false;
        while (!brace && text.nextInLine()) {
            String token = text.token();
            brace = token.equals("{");
            if (!brace) {
                rest.add(token);
            }
        }
        String name = null;
        if (kind == Joint.Kind.END_SITE) {
            if (rest.size() != 1 || !rest.getFirst().equalsIgnoreCase("Site")) {
                throw ImportException.invalid("line " + line + ": expected 'End Site', found 'End"
                        + (rest.isEmpty() ? "'" : " " + BvhText.quote(String.join(" ", rest)).substring(1)));
            }
        } else {
            if (rest.isEmpty()) {
                throw ImportException.invalid("line " + line + ": " + kind.keyword() + " without a name");
            }
            name = String.join(" ", rest);
        }
        Joint joint = new Joint(kind, name, parent, line);
        if (!brace) {
            String token = text.next();
            if (token == null || !token.equals("{")) {
                throw ImportException.invalid((token == null ? "the file ends at line " + text.line()
                        : "line " + text.tokenLine() + ": found " + BvhText.quote(token)) + " where the '{' of "
                        + joint.describe() + " belongs");
            }
        }
        joints.add(joint);
        open.push(joints.size() - 1);
    }

    private void readOffset(Joint joint, int line) {
        if (joint.offset != null) {
            throw ImportException.invalid("line " + line + ": a second OFFSET in " + joint.describe());
        }
        double[] offset = new double[3];
        for (int c = 0; c < 3; c++) {
            String what = "OFFSET of " + joint.describe() + " at line " + line + ", value " + (c + 1);
            String token = text.next();
            offset[c] = BvhText.number(token, what);
            if (!Float.isFinite((float) offset[c])) {
                throw ImportException.invalid(what + ": " + BvhText.quote(token) + " is out of range");
            }
        }
        joint.offset = offset;
    }

    private void readChannels(Joint joint, int line) {
        if (joint.isEndSite()) {
            throw ImportException.invalid("line " + line + ": CHANNELS in " + joint.describe()
                    + "; end sites are not animated");
        }
        if (joint.channels != null) {
            throw ImportException.invalid("line " + line + ": a second CHANNELS in " + joint.describe()
                    + " (the first is at line " + joint.channelsLine + ")");
        }
        String what = "CHANNELS of " + joint.describe() + " at line " + line;
        String countToken = text.next();
        if (countToken == null) {
            throw ImportException.invalid(what + ": the count is missing; the file ends there");
        }
        if (!countToken.chars().allMatch(ch -> ch >= '0' && ch <= '9') || countToken.length() > 18) {
            throw ImportException.invalid(what + ": " + BvhText.quote(countToken) + " is not a channel count");
        }
        long count = Long.parseLong(countToken);
        joint.startChannels(line);
        EnumCounter repeated = new EnumCounter();
        for (long k = 0; k < count; k++) {
            budget.checkTime();
            String token = text.next();
            Channel channel = token == null ? null : Channel.byName(token);
            if (channel == null) {
                if (token == null || isKeyword(token)) {
                    throw ImportException.invalid(what + " declares " + count + " channels but lists " + k
                            + (token == null ? " before the file ends" : " (then " + BvhText.quote(token) + " at line "
                                    + text.tokenLine() + ")"));
                }
                throw ImportException.invalid(what + ": unknown channel " + BvhText.quote(token) + " at line "
                        + text.tokenLine() + " (channels are " + Channel.NAMES + ")");
            }
            joint.channels.add(channel);
            if (!channel.isRotation() && repeated.add(channel) == 2) {
                warnings.add(what + " lists " + channel.fileName() + " more than once; the last value of each frame"
                        + " is used");
            }
        }
    }

    private static boolean isKeyword(String token) {
        return token.equals("{") || token.equals("}") || token.equalsIgnoreCase("JOINT") || token.equalsIgnoreCase("End")
                || token.equalsIgnoreCase("OFFSET") || token.equalsIgnoreCase("CHANNELS")
                || token.equalsIgnoreCase("ROOT") || token.equalsIgnoreCase("MOTION");
    }

    /** Counts of each channel seen in one CHANNELS list. */
    private static final class EnumCounter {
        private final int[] counts = new int[Channel.values().length];

        int add(Channel c) {
            return ++counts[c.ordinal()];
        }
    }

    /** Names every end site {@code <parent name>_end}, unique against all names. */
    private void nameEndSites() {
        Set<String> used = new HashSet<>();
        for (Joint j : joints) {
            if (!j.isEndSite()) {
                used.add(j.name);
            }
        }
        // the next suffix to try per base name: suffixes below it are taken (the set only grows), so many end
        // sites under joints of one name cost linear time, not quadratic
        Map<String, Integer> nextSuffix = new HashMap<>();
        for (Joint j : joints) {
            if (j.isEndSite()) {
                budget.checkTime();
                String base = joints.get(j.parent).name + "_end";
                String name = base;
                if (!used.add(name)) {
                    int k = nextSuffix.getOrDefault(base, 2);
                    do {
                        name = base + k++;
                    } while (!used.add(name));
                    nextSuffix.put(base, k);
                }
                j.name = name;
            }
        }
    }

    private void warnAboutNames() {
        Map<String, List<Integer>> linesByName = new HashMap<>();
        for (Joint j : joints) {
            if (!j.isEndSite()) {
                linesByName.computeIfAbsent(j.name, n -> new ArrayList<>()).add(j.line);
            }
        }
        for (Joint j : joints) {
            List<Integer> lines = linesByName.get(j.name);
            if (!j.isEndSite() && lines.size() > 1 && lines.getFirst() == j.line) {
                warnings.add(lines.size() + " joints are named " + BvhText.quote(j.name) + " (lines "
                        + lines.stream().limit(10).map(String::valueOf).reduce((a, b) -> a + ", " + b).orElseThrow()
                        + (lines.size() > 10 ? ", …" : "") + "); look-ups by name find the first");
            }
        }
    }
}
