package io.posekit.asset;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings of one import, as importers collect them: deduplicated and capped at {@link #MAX} (a hostile file
 * could otherwise produce one per element); past the cap a final line counts the ones left out. Not thread-safe:
 * one per import.
 */
public final class ImportWarnings {

    public static final int MAX = 200;

    private final Set<String> warnings = new LinkedHashSet<>();
    private int dropped;

    public void add(String warning) {
        if (warnings.contains(warning)) {
            return;
        }
        if (warnings.size() < MAX) {
            warnings.add(warning);
        } else {
            dropped++;
        }
    }

    public List<String> list() {
        List<String> out = new ArrayList<>(warnings);
        if (dropped > 0) {
            out.add("… and " + dropped + " more warnings");
        }
        return out;
    }
}
