package io.posekit.store;

import java.lang.management.ManagementFactory;

/** Heap in use after full collections: the retained size of what is reachable, give or take a few KB. */
final class HeapProbe {

    private HeapProbe() {
    }

    static long usedAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    static String mb(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }
}
