package io.posekit.store;

import io.posekit.asset.SourceFile;
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
         * @param revalidating true when the asset is known and only being confirmed (a store may then give up
         *     sooner: the known entry is answered if it cannot be reached)
         * @throws CorruptAssetException when an entry exists but its manifest cannot be read or names another asset
         * @throws StoreUnavailableException when the store cannot be reached
         */
        Optional<StoredAsset> read(String id, boolean revalidating);
    }

    /** The store's own read of an asset's files. */
    @FunctionalInterface
    interface FileReader {

        /**
         * The files of the copy {@code meta} describes, in its order, each with the name it was uploaded under; null
         * where a file is missing.
         *
         * @throws CorruptAssetException when a file is there but cannot be the one stored (another length)
         * @throws StoreUnavailableException when the store cannot be reached
         */
        SourceFile[] read(StoredAsset meta);
    }

    private record Entry(StoredAsset meta, long confirmedAt) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Map<String, String> corrupt = new ConcurrentHashMap<>();
    /** Known ids a request is confirming now. */
    private final Set<String> revalidating = ConcurrentHashMap.newKeySet();
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
     * The asset: the known entry while fresh, else what {@code reader} reads now (remembered). A known entry is
     * answered without waiting while another request confirms it, and when the store cannot be reached (it then
     * counts as confirmed, so one request per interval, not every one, tries the store).
     */
    Optional<StoredAsset> find(String id, ManifestReader reader) {
        Entry e = entries.get(id);
        if (e != null && ticker.getAsLong() - e.confirmedAt() < revalidateNanos) {
            return Optional.of(e.meta());
        }
        if (e != null && !revalidating.add(id)) {
            return Optional.of(e.meta()); // being confirmed by another request
        }
        try {
            return read(id, reader);
        } finally {
            if (e != null) {
                revalidating.remove(id);
            }
        }
    }

    private Optional<StoredAsset> read(String id, ManifestReader reader) {
        synchronized (lock(id)) {
            Entry e = entries.get(id);
            long now = ticker.getAsLong();
            if (e != null && now - e.confirmedAt() < revalidateNanos) {
                return Optional.of(e.meta()); // confirmed by another thread meanwhile
            }
            Optional<StoredAsset> read;
            try {
                read = reader.read(id, e != null);
            } catch (StoreUnavailableException down) {
                if (e != null) {
                    log.debug("store unreachable; answering asset {} from the index", id);
                    entries.put(id, new Entry(e.meta(), now));
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

    /**
     * Reads the files of asset {@code id} and verifies them against the id, the same for every store: a file missing
     * from a copy that is still stored marks it corrupt, and so does content that does not hash to the id; a copy
     * deleted or replaced while it was read is read again (or answered as gone).
     *
     * @return empty when the asset is not stored (or was deleted meanwhile)
     * @throws CorruptAssetException when a file is missing or the content does not hash to the id
     */
    Optional<List<SourceFile>> readFiles(String id, ManifestReader manifests, FileReader files) {
        for (int attempt = 0; ; attempt++) {
            Optional<String> damage = corruption(id);
            if (damage.isPresent()) {
                throw new CorruptAssetException(id, damage.get());
            }
            StoredAsset meta = find(id, manifests).orElse(null);
            if (meta == null) {
                return Optional.empty();
            }
            SourceFile[] read = files.read(meta);
            int missing = java.util.Arrays.asList(read).indexOf(null);
            if (missing >= 0) {
                if (stillStored(id, meta, manifests)) {
                    throw markCorrupt(id, meta, "file " + missing + " (" + meta.files().get(missing).name()
                            + ") is missing");
                }
                if (attempt < 2) {
                    continue; // deleted, or replaced by a fresh copy, while reading (here or by another replica)
                }
                return Optional.empty();
            }
            List<SourceFile> out = List.of(read);
            if (!ContentId.of(out).equals(id)) {
                throw markCorrupt(id, meta, "content does not match its id");
            }
            return Optional.of(out);
        }
    }

    /** Whether the store still holds the copy of the asset read as {@code meta} (else: deleted or replaced). */
    private boolean stillStored(String id, StoredAsset meta, ManifestReader manifests) {
        synchronized (lock(id)) {
            try {
                Optional<StoredAsset> now = manifests.read(id, false);
                if (now.isEmpty()) {
                    forget(id);
                }
                return now.isPresent() && now.get().equals(meta);
            } catch (CorruptAssetException e) {
                return true;
            }
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

    /** Whether {@link #find} would answer {@code id} from the index now, without reading the store. */
    boolean isFresh(String id) {
        Entry e = entries.get(id);
        return e != null && ticker.getAsLong() - e.confirmedAt() < revalidateNanos && !corrupt.containsKey(id);
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
