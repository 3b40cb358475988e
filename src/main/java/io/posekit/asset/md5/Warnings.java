package io.posekit.asset.md5;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings of one import, deduplicated and capped at {@link #MAX} (a hostile file could otherwise produce
 * one per element); past the cap a final line counts the ones left out.
 */
final class Warnings {

    static final int MAX = 200;

    private final Set<String> warnings = new LinkedHashSet<>();
    private int dropped;

    void add(String warning) {
        if (warnings.contains(warning)) {
            return;
        }
        if (warnings.size() < MAX) {
            warnings.add(warning);
        } else {
            dropped++;
        }
    }

    List<String> list() {
        List<String> out = new ArrayList<>(warnings);
        if (dropped > 0) {
            out.add("… and " + dropped + " more warnings");
        }
        return out;
    }
}
