package io.posekit.retarget;

import io.posekit.asset.HumanoidMap;
import io.posekit.asset.Model;
import io.posekit.rig.Rig;
import io.posekit.rig.Skin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Pairs target joints with source joints: by an explicit map, or else by humanoid bone map, name and humanoid role.
 *
 * <p>When a side declares a humanoid bone map (a VRM avatar or animation, {@link HumanoidMap}), its humanoid bones
 * are taken from the map first ({@link MatchRule#HUMANOID_MAP}): with maps on both sides the same bone pairs; with
 * one, the mapped side's bone role (from the map) pairs with the other side's role (from its names), chains end to
 * end as below. The name-based role rule then does not run (the names of a mapped side's other joints are not
 * guessed at); exact and normalised names still pair the joints the maps leave (hair, skirts).
 *
 * <p>Without a map the rules are tried in order, each only on joints still unpaired: {@link MatchRule#EXACT} (the same
 * name), {@link MatchRule#NORMALISED} (the same {@link JointName#key()}), {@link MatchRule#ROLE} (the same
 * {@link HumanoidRole}; spine and neck chains paired end to end: all in order when both have as many joints, else the
 * first with the first and the last with the last, counting joints an earlier rule paired). A name (or key, or role) only pairs when it is unique on both
 * sides, and a pair only counts when it keeps the hierarchy: the source joint must descend from the source joint of
 * the target joint's nearest mapped ancestor, and be an ancestor of those of its mapped descendants. Automatic
 * matching only considers joints: the skin joints, or every named node when the asset has no skin.
 */
final class JointMatcher {

    private JointMatcher() {
    }

    /**
     * Pairs the joints.
     *
     * @param map {@code targetJoint → sourceJoint} names, or empty to match automatically
     * @throws RetargetException (bad request) when the map names a joint that does not exist or several nodes, maps
     *     two target joints to one source joint, or inverts the hierarchy; (nothing to retarget) when nothing pairs
     */
    static JointMap match(Model target, Model source, Map<String, String> map) {
        Rig t = target.rig();
        Rig s = source.rig();
        JointMap result = map.isEmpty() ? automatic(target, source) : explicit(t, s, map);
        if (result.mappedCount() == 0) {
            throw new RetargetException(RetargetException.Kind.NOTHING_TO_RETARGET,
                    "no joint of the target matches a joint of the source by name or humanoid role; target joints: "
                            + listed(names(t, joints(target))) + "; source joints: " + listed(names(s, joints(source)))
                            + "; give a joint map {\"targetJoint\": \"sourceJoint\"}",
                    List.of());
        }
        return result;
    }

    private static JointMap explicit(Rig t, Rig s, Map<String, String> map) {
        int[] sourceOf = new int[t.nodeCount()];
        Arrays.fill(sourceOf, -1);
        MatchRule[] rules = new MatchRule[t.nodeCount()];
        List<String> unknown = new ArrayList<>();
        List<String> ambiguous = new ArrayList<>();
        Map<Integer, String> bySource = new HashMap<>();
        for (Map.Entry<String, String> e : map.entrySet()) {
            int ti = unique(t, e.getKey(), "target", unknown, ambiguous);
            int si = unique(s, e.getValue(), "source", unknown, ambiguous);
            if (ti < 0 || si < 0) {
                continue;
            }
            String other = bySource.putIfAbsent(si, e.getKey());
            if (other != null) {
                ambiguous.add("target joints '" + other + "' and '" + e.getKey() + "' both map to source joint '"
                        + e.getValue() + "'");
                continue;
            }
            sourceOf[ti] = si;
            rules[ti] = MatchRule.MAP;
        }
        if (!unknown.isEmpty()) {
            throw new RetargetException(RetargetException.Kind.BAD_REQUEST,
                    "the joint map names joints that do not exist: " + String.join(", ", unknown), unknown);
        }
        if (!ambiguous.isEmpty()) {
            throw new RetargetException(RetargetException.Kind.BAD_REQUEST,
                    "the joint map is ambiguous: " + String.join("; ", ambiguous), ambiguous);
        }
        JointMap result = new JointMap(sourceOf, rules);
        for (int b = 0; b < sourceOf.length; b++) {
            if (sourceOf[b] < 0) {
                continue;
            }
            for (int a = t.parent(b); a >= 0; a = t.parent(a)) {
                if (sourceOf[a] >= 0 && (JointMap.isAncestor(s, sourceOf[b], sourceOf[a]))) {
                    List<String> joints = List.of(t.name(a), t.name(b));
                    throw new RetargetException(RetargetException.Kind.BAD_REQUEST, "the joint map makes a cycle: target '"
                            + t.name(a) + "' is an ancestor of '" + t.name(b) + "' but their source joints '"
                            + s.name(sourceOf[a]) + "' and '" + s.name(sourceOf[b]) + "' are the other way round",
                            joints);
                }
            }
        }
        return result;
    }

    /** The one node named {@code name}, or −1 after noting it as unknown or ambiguous. */
    private static int unique(Rig rig, String name, String side, List<String> unknown, List<String> ambiguous) {
        int found = -1;
        int count = 0;
        for (int i = 0; i < rig.nodeCount(); i++) {
            if (name.equals(rig.name(i))) {
                found = i;
                count++;
            }
        }
        if (count == 0) {
            unknown.add(side + " '" + name + "'");
        } else if (count > 1) {
            ambiguous.add(count + " " + side + " nodes are named '" + name + "'");
        }
        return count == 1 ? found : -1;
    }

    private static JointMap automatic(Model target, Model source) {
        Rig t = target.rig();
        Rig s = source.rig();
        int[] tj = joints(target);
        int[] sj = joints(source);
        int[] sourceOf = new int[t.nodeCount()];
        Arrays.fill(sourceOf, -1);
        MatchRule[] rules = new MatchRule[t.nodeCount()];
        boolean[] used = new boolean[s.nodeCount()];
        JointMap map = new JointMap(sourceOf, rules);
        HumanoidMap th = target.humanoid();
        HumanoidMap sh = source.humanoid();
        if (th != null && sh != null) {
            // both maps: the same bone
            pairUnique(map, t, s, tj, sj, used, MatchRule.HUMANOID_MAP, (rig, i) -> th.boneOf(i),
                    (rig, i) -> sh.boneOf(i));
        }
        if (th != null || sh != null) {
            // one map (or bones only one map has): a bone's role from its map, the other side's by name
            pairUnique(map, t, s, tj, sj, used, MatchRule.HUMANOID_MAP, roleKey(th), roleKey(sh));
            pairChains(map, t, s, tj, sj, used, MatchRule.HUMANOID_MAP, th, sh);
        }
        pairUnique(map, t, s, tj, sj, used, MatchRule.EXACT, Rig::name);
        pairUnique(map, t, s, tj, sj, used, MatchRule.NORMALISED, (rig, i) -> JointName.of(rig.name(i)).key());
        // roles: one-per-skeleton roles by (role, side), chains end to end
        if (th == null && sh == null) {
            // with a map, a side's humanoid bones are the map's, not guessed from names
            pairUnique(map, t, s, tj, sj, used, MatchRule.ROLE, roleKey(null));
            pairChains(map, t, s, tj, sj, used, MatchRule.ROLE, null, null);
        }
        return map;
    }

    /**
     * The key of the role rules: {@code role side} of a joint's humanoid role (chains left out), from the bone
     * {@code humanoid} names it when there is a map (joints the map does not name have none), else from its name.
     */
    private static java.util.function.BiFunction<Rig, Integer, String> roleKey(HumanoidMap humanoid) {
        return (rig, i) -> {
            JointName name = humanoid == null ? JointName.of(rig.name(i)) : boneName(humanoid, i);
            if (name == null) {
                return null;
            }
            return HumanoidRole.of(name).filter(r -> !r.chain).map(r -> r + " " + name.side()).orElse(null);
        };
    }

    /**
     * A VRM bone name ({@code leftUpperArm}) as a joint name: capitalised, it is Unity's humanoid name
     * ({@code LeftUpperArm}), which the role table knows; {@code null} for a node the map does not name.
     */
    private static JointName boneName(HumanoidMap humanoid, int node) {
        String bone = humanoid.boneOf(node);
        if (bone == null || bone.isEmpty()) {
            return null;
        }
        return JointName.of(Character.toUpperCase(bone.charAt(0)) + bone.substring(1));
    }

    /** The spine and neck chains (roles from a side's humanoid map when it has one, else from names), end to end. */
    private static void pairChains(JointMap map, Rig t, Rig s, int[] tj, int[] sj, boolean[] used, MatchRule rule,
            HumanoidMap th, HumanoidMap sh) {
        for (HumanoidRole chain : new HumanoidRole[] {HumanoidRole.SPINE, HumanoidRole.NECK}) {
            // whole chains, paired or not, so that their ends are the chains' ends (pair() skips paired joints)
            List<Integer> tc = withRole(t, tj, chain, th);
            List<Integer> sc = withRole(s, sj, chain, sh);
            if (tc.isEmpty() || sc.isEmpty()) {
                continue;
            }
            if (tc.size() == sc.size()) {
                for (int k = 0; k < tc.size(); k++) {
                    pair(map, t, s, used, tc.get(k), sc.get(k), rule);
                }
            } else {
                pair(map, t, s, used, tc.getFirst(), sc.getFirst(), rule);
                if (tc.size() > 1 && sc.size() > 1) {
                    pair(map, t, s, used, tc.getLast(), sc.getLast(), rule);
                }
            }
        }
    }

    private static List<Integer> withRole(Rig rig, int[] joints, HumanoidRole role, HumanoidMap humanoid) {
        List<Integer> found = new ArrayList<>();
        for (int j : joints) {
            JointName name = humanoid == null ? JointName.of(rig.name(j)) : boneName(humanoid, j);
            if (name != null && HumanoidRole.of(name).orElse(null) == role) {
                found.add(j);
            }
        }
        return found;
    }

    /** Pairs joints whose {@code key} is the same and unique on both sides (among joints still unpaired). */
    private static void pairUnique(JointMap map, Rig t, Rig s, int[] tj, int[] sj, boolean[] used, MatchRule rule,
            java.util.function.BiFunction<Rig, Integer, String> key) {
        pairUnique(map, t, s, tj, sj, used, rule, key, key);
    }

    /** As above, with a key function per side. */
    private static void pairUnique(JointMap map, Rig t, Rig s, int[] tj, int[] sj, boolean[] used, MatchRule rule,
            java.util.function.BiFunction<Rig, Integer, String> targetKey,
            java.util.function.BiFunction<Rig, Integer, String> sourceKey) {
        Map<String, Integer> sources = byUniqueKey(s, sj, i -> !used[i], sourceKey);
        Map<String, Integer> targets = byUniqueKey(t, tj, i -> map.sourceOf()[i] < 0, targetKey);
        for (Map.Entry<String, Integer> e : targets.entrySet()) {
            Integer si = sources.get(e.getKey());
            if (si != null) {
                pair(map, t, s, used, e.getValue(), si, rule);
            }
        }
    }

    /** Unpaired joints by key, in node order, leaving out keys that several have. */
    private static Map<String, Integer> byUniqueKey(Rig rig, int[] joints, java.util.function.IntPredicate free,
            java.util.function.BiFunction<Rig, Integer, String> key) {
        Map<String, Integer> found = new LinkedHashMap<>();
        Map<String, Boolean> repeated = new HashMap<>();
        for (int j : joints) {
            if (!free.test(j)) {
                continue;
            }
            String k = key.apply(rig, j);
            if (k == null || k.isEmpty()) {
                continue;
            }
            if (found.putIfAbsent(k, j) != null) {
                repeated.put(k, true);
            }
        }
        repeated.keySet().forEach(found::remove);
        return found;
    }

    /** Pairs target {@code ti} with source {@code si} if that keeps the hierarchy's order. */
    private static void pair(JointMap map, Rig t, Rig s, boolean[] used, int ti, int si, MatchRule rule) {
        int[] sourceOf = map.sourceOf();
        if (used[si] || sourceOf[ti] >= 0) {
            return;
        }
        int a = map.mappedAncestor(t, ti);
        if (a >= 0 && !JointMap.isAncestor(s, sourceOf[a], si)) {
            return;
        }
        for (int d = ti + 1; d < sourceOf.length; d++) {
            if (sourceOf[d] >= 0 && JointMap.isAncestor(t, ti, d) && !JointMap.isAncestor(s, si, sourceOf[d])) {
                return;
            }
        }
        sourceOf[ti] = si;
        map.rules()[ti] = rule;
        used[si] = true;
    }

    /** The joints automatic matching and the report consider: skin joints (parent-first), or every named node. */
    static int[] joints(Model model) {
        TreeSet<Integer> set = new TreeSet<>();
        for (Skin skin : model.skins()) {
            for (int j : skin.jointNodes()) {
                if (model.rig().name(j) != null) {
                    set.add(j);
                }
            }
        }
        if (set.isEmpty()) {
            for (int i = 0; i < model.rig().nodeCount(); i++) {
                if (model.rig().name(i) != null) {
                    set.add(i);
                }
            }
        }
        if (model.humanoid() != null) {
            // every bone of a humanoid map (a VRM animation's bones need no skin and no name)
            for (int node : model.humanoid().bones().values()) {
                if (node >= 0 && node < model.rig().nodeCount()) {
                    set.add(node);
                }
            }
        }
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    static List<String> names(Rig rig, int[] nodes) {
        List<String> names = new ArrayList<>(nodes.length);
        for (int n : nodes) {
            names.add(rig.name(n));
        }
        return names;
    }

    private static String listed(List<String> names) {
        int shown = Math.min(names.size(), 20);
        String list = String.join(", ", names.subList(0, shown));
        return names.size() > shown ? list + "… (" + names.size() + " in all)" : list.isEmpty() ? "none" : list;
    }
}
