package io.posekit.store;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one store instance knows of the assets in a possibly shared store: id → manifest with when the store last
 * confirmed it, and the ids known to be corrupt with what is wrong. An entry is trusted for the revalidation interval;
 * after that {@link #find} asks the store again, so a deletion by another replica is seen within the interval, and an
 * asset another replica stored is found on the first miss. While the store cannot be reached a known entry keeps
 * being answered (a stale read is better than failing an asset that is parsed in memory).
 *
 * <p>Changes for one id are serialised by the caller's {@link #lock lock}; reads of a fresh entry take no lock.
 */
final class KnownAssets {

    private static final Logger log = LoggerFactory.getLogger(KnownAssets.class);

    /** The store's own read of one manifest: empty when the asset is not stored. */
    @FunctionalInterface
    interface ManifestReader {

        /**
         * @throws CorruptAssetException when an entry exists but its manifest cannot be read or names another asset
         * @throws StoreUnavailableException when the store cannot be reached
         */
        Optional<StoredAsset> read(String id);
    }

    private record Entry(StoredAsset meta, long confirmedAt) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Map<String, String> corrupt = new ConcurrentHashMap<>();
    private final Object[] locks = new Object[64];
    private final long revalidateNanos;
    private final LongSupplier ticker;

    /**
     * @param revalidate how long a confirmed entry is trusted (zero: ask the store on every find)
     * @param ticker monotonic nanoseconds ({@code System::nanoTime}; tests step it)
     */
    KnownAssets(Duration revalidate, LongSupplier ticker) {
        this.revalidateNanos = revalidate.toNanos();
        this.ticker = ticker;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
    }

    /** The lock that serialises saves, deletes and re-reads of one id. */
    Object lock(String id) {
        return locks[Math.floorMod(id.hashCode(), locks.length)];
    }

    /** The known entry, fresh or not, without asking the store. */
    Optional<StoredAsset> known(String id) {
        Entry e = entries.get(id);
        return e == null ? Optional.empty() : Optional.of(e.meta());
    }

    /**
     * The asset: the known entry while fresh, else what {@code reader} reads now (remembered); the known entry when
     * the store cannot be reached.
     */
    Optional<StoredAsset> find(String id, ManifestReader reader) {
        Entry e = entries.get(id);
        if (e != null && ticker.getAsLong() - e.confirmedAt() < revalidateNanos) {
            return Optional.of(e.meta());
        }
        synchronized (lock(id)) {
            e = entries.get(id);
            long now = ticker.getAsLong();
            if (e != null && now - e.confirmedAt() < revalidateNanos) {
                return Optional.of(e.meta()); // confirmed by another thread meanwhile
            }
            Optional<StoredAsset> read;
            try {
                read = reader.read(id);
            } catch (StoreUnavailableException down) {
                if (e != null) {
                    log.debug("store unreachable; answering asset {} from the index", id);
                    return Optional.of(e.meta());
                }
                throw down;
            } catch (CorruptAssetException damaged) {
                entries.remove(id);
                markCorrupt(id, null, damaged.reason());
                return Optional.empty();
            }
            if (read.isEmpty()) {
                forget(id); // deleted, here or by another replica
                return Optional.empty();
            }
            if (e != null && e.meta().equals(read.get())) {
                entries.put(id, new Entry(e.meta(), now)); // the same copy: keep its identity for readers
                return Optional.of(e.meta());
            }
            // a new copy (stored by another replica, or replacing a damaged one): what was wrong no longer applies
            corrupt.remove(id);
            entries.put(id, new Entry(read.get(), now));
            return read;
        }
    }

    /** Records a manifest this instance has just written or read (confirmed now). Hold the id's lock. */
    void put(StoredAsset meta) {
        corrupt.remove(meta.id());
        entries.put(meta.id(), new Entry(meta, ticker.getAsLong()));
    }

    /** Forgets an id that is no longer stored. Hold the id's lock. */
    void forget(String id) {
        entries.remove(id);
        corrupt.remove(id);
    }

    /**
     * Replaces what is known with a full listing of the store: ids missing from it are forgotten, new ones added;
     * entries of ids listed are confirmed now.
     */
    void reconcile(Map<String, StoredAsset> listed, Set<String> corruptListed) {
        long now = ticker.getAsLong();
        for (String id : List.copyOf(entries.keySet())) {
            if (!listed.containsKey(id) && !corruptListed.contains(id)) {
                entries.remove(id);
            }
        }
        for (String id : List.copyOf(corrupt.keySet())) {
            if (!listed.containsKey(id) && !corruptListed.contains(id)) {
                corrupt.remove(id);
            }
        }
        listed.forEach((id, meta) -> {
            Entry e = entries.get(id);
            if (e == null || !e.meta().equals(meta)) {
                corrupt.remove(id);
                entries.put(id, new Entry(meta, now));
            } else {
                entries.put(id, new Entry(e.meta(), now));
            }
        });
    }

    /** Every known asset with a readable manifest (corrupt ones too), oldest first. */
    List<StoredAsset> assets() {
        return entries.values().stream().map(Entry::meta)
                .sorted(Comparator.comparing(StoredAsset::createdAt).thenComparing(StoredAsset::id))
                .toList();
    }

    /** How many assets are known. */
    int size() {
        return entries.size();
    }

    Optional<String> corruption(String id) {
        return Optional.ofNullable(corrupt.get(id));
    }

    List<String> corruptIds() {
        return corrupt.keySet().stream().sorted().toList();
    }

    /**
     * Records that the asset read as {@code meta} (null: whatever is stored under the id) is corrupt, unless it was
     * replaced meanwhile; logs it once.
     */
    CorruptAssetException markCorrupt(String id, StoredAsset meta, String reason) {
        Entry e = entries.get(id);
        boolean current = meta == null || (e != null && e.meta() == meta);
        if (current && corrupt.putIfAbsent(id, reason) == null) {
            log.error("asset {} is corrupt in the store ({}): it answers 410 Gone until it is deleted or uploaded"
                    + " again", id, reason);
        }
        return new CorruptAssetException(id, reason);
    }

}
