package io.posekit.asset.x;

import io.posekit.asset.DecodeBudget;
import java.util.Arrays;

/**
 * An int array that grows as values are appended, charging every growth to the import's {@link DecodeBudget}
 * before allocating, for data whose total size a file does not state up front (the indices of all faces).
 */
final class GrowableInts {

    private final DecodeBudget budget;
    private final String what;
    private int[] values;
    private int size;

    GrowableInts(int initialCapacity, DecodeBudget budget, String what) {
        this.budget = budget;
        this.what = what;
        budget.charge(initialCapacity, 4, what);
        this.values = new int[initialCapacity];
    }

    void add(int value) {
        if (size == values.length) {
            int capacity = (int) Math.min(Integer.MAX_VALUE - 16L, Math.max(16L, values.length * 2L));
            if (capacity == values.length) {
                throw io.posekit.asset.ImportException.tooLarge(what + ": more than " + size + " values do not fit in one array");
            }
            budget.charge(capacity - values.length, 4, what);
            values = Arrays.copyOf(values, capacity);
        }
        values[size++] = value;
    }

    int size() {
        return size;
    }

    /** The values, trimmed to their count. */
    int[] toArray() {
        return size == values.length ? values : Arrays.copyOf(values, size);
    }
}
