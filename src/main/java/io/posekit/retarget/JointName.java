package io.posekit.retarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A joint name reduced to what naming conventions agree on: its side (left, right or none) and its base, lower case
 * without separators. {@code mixamorig:LeftForeArm}, {@code LeftForeArm}, {@code left_fore_arm}, {@code ForeArm.L},
 * {@code forearm_l}, {@code L_ForeArm} and {@code DEF-forearm.L} all become {@code left forearm}.
 *
 * <p>The rules, in order: the namespace before the last {@code :} or {@code |} is dropped (Mixamo, Maya, FBX
 * {@code Armature|}); then a known rig prefix ({@code mixamorig}, Rigify's {@code DEF-}/{@code ORG-}/{@code MCH-},
 * VRoid's {@code J_Bip_} with its centre marker {@code C_}, Character Creator's {@code CC_Base_}, 3ds Max Biped's
 * {@code Bip01}); then the side: a separated token {@code l}/{@code r}/{@code left}/{@code right} anywhere (so
 * {@code L_Arm}, {@code Arm.L}, {@code arm_l}, {@code Bip01 L UpperArm}), or a leading {@code Left}/{@code Right},
 * or a leading capital {@code L}/{@code R} followed by another capital ({@code LHipJoint}, {@code RThumb}); the rest,
 * lower case with {@code _ - . space} removed, is the base.
 *
 * @param side the side
 * @param base the base name, lower case, letters and digits only; may be empty for a name that is only a side
 * @param rigify whether the name had a Rigify deform/original/mechanism prefix (Rigify calls the pelvis "spine")
 */
record JointName(Side side, String base, boolean rigify) {

    /** A joint's side. */
    enum Side {
        NONE, LEFT, RIGHT;

        String prefix() {
            return this == NONE ? "" : this == LEFT ? "left " : "right ";
        }
    }

    /** The normalised key: side and base, e.g. {@code left forearm}. */
    String key() {
        return side.prefix() + base;
    }

    /** Normalises one joint name. */
    static JointName of(String name) {
        String s = name;
        int ns = Math.max(s.lastIndexOf(':'), s.lastIndexOf('|'));
        if (ns >= 0 && ns < s.length() - 1) {
            s = s.substring(ns + 1);
        }
        boolean rigify = false;
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.startsWith("def-") || lower.startsWith("org-") || lower.startsWith("mch-")) {
            rigify = true;
            s = s.substring(4);
        } else if (lower.startsWith("mixamorig")) {
            s = stripLeadingSeparators(s.substring("mixamorig".length()).replaceFirst("^[0-9]+", ""));
        } else if (lower.startsWith("j_bip_")) {
            s = s.substring(6);
            if (s.length() > 2 && (s.charAt(0) == 'C' || s.charAt(0) == 'c') && s.charAt(1) == '_') {
                s = s.substring(2);
            }
        } else if (lower.startsWith("cc_base_")) {
            s = s.substring(8);
        } else if (lower.startsWith("bip01")) {
            s = stripLeadingSeparators(s.substring(5));
        }
        List<String> tokens = new ArrayList<>();
        for (String t : s.split("[ _.\\-]+")) {
            if (!t.isEmpty()) {
                tokens.add(t);
            }
        }
        Side side = Side.NONE;
        for (int i = 0; i < tokens.size(); i++) {
            Side named = sideToken(tokens.get(i));
            if (named != Side.NONE && tokens.size() > 1) {
                side = named;
                tokens.remove(i);
                break;
            }
        }
        if (side == Side.NONE && !tokens.isEmpty()) {
            String first = tokens.getFirst();
            String firstLower = first.toLowerCase(Locale.ROOT);
            if (firstLower.startsWith("left") && first.length() > 4) {
                side = Side.LEFT;
                tokens.set(0, first.substring(4));
            } else if (firstLower.startsWith("right") && first.length() > 5) {
                side = Side.RIGHT;
                tokens.set(0, first.substring(5));
            } else if (first.length() > 1 && (first.charAt(0) == 'L' || first.charAt(0) == 'R')
                    && Character.isUpperCase(first.charAt(1))) {
                side = first.charAt(0) == 'L' ? Side.LEFT : Side.RIGHT;
                tokens.set(0, first.substring(1));
            }
        }
        String base = String.join("", tokens).toLowerCase(Locale.ROOT);
        return new JointName(side, base, rigify);
    }

    private static Side sideToken(String token) {
        return switch (token.toLowerCase(Locale.ROOT)) {
            case "l", "left" -> Side.LEFT;
            case "r", "right" -> Side.RIGHT;
            default -> Side.NONE;
        };
    }

    private static String stripLeadingSeparators(String s) {
        int i = 0;
        while (i < s.length() && " _.-".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        return s.substring(i);
    }
}
