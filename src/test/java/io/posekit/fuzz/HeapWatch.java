package io.posekit.fuzz;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * The heap of the JVM running the server and the fuzzer: the largest heap retained after a full collection (what
 * the server keeps: its cache, the store's index, whatever a mutant leaked) sampled between batches, and the peak
 * of heap use including garbage (the sum of the heap pools' peaks since {@link #reset}).
 */
final class HeapWatch {

    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).toList();
    private long maxRetained;

    /** Forgets the peaks and samples so far. */
    void reset() {
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        maxRetained = 0;
    }

    /** Collects garbage and records the heap still in use. */
    void sample() {
        System.gc();
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        maxRetained = Math.max(maxRetained, used);
    }

    /** The most heap retained after a collection at any sample. */
    long maxRetained() {
        return maxRetained;
    }

    /** The most heap in use, garbage included, since the reset (the sum of each pool's own peak). */
    long peak() {
        return pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    }

    /** The heap's limit ({@code -Xmx}). */
    long max() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
    }
}
