package io.posekit.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What one store instance knows of which tenant holds which asset: tenant → id → reference, with when the store last
 * confirmed it. A confirmed entry is trusted for the revalidation interval, then {@link #find} asks the store again
 * (so a reference another replica removed is seen within it); an entry not known here is always looked up in the
 * store (so one another replica made is found at once). Listings come from here; a store shared with other replicas
 * refreshes it by a scan when it is older than the interval. Thread-safe; changes for one asset are serialised by the
 * store's lock for its id.
 */
final class KnownReferences {

    /** The store's own read of one reference: empty when the tenant holds none. */
    @FunctionalInterface
    interface Reader {
        /** @throws StoreUnavailableException when the store cannot be reached */
        Optional<Reference> read(String tenant, String id);
    }

    private record Entry(Reference ref, long confirmedAt) {
    }

    private final Map<String, Map<String, Entry>> byTenant = new ConcurrentHashMap<>();
    private final long revalidateNanos;
    private final LongSupplier ticker;
    private volatile long scannedAt = Long.MIN_VALUE;

    KnownReferences(Duration revalidate, LongSupplier ticker) {
        this.revalidateNanos = revalidate.toNanos();
        this.ticker = ticker;
    }

    /** The reference of {@code tenant} to {@code id}: the known one while fresh, else the store's. */
    Optional<Reference> find(String tenant, String id, Reader reader) {
        Map<String, Entry> mine = byTenant.get(tenant);
        Entry e = mine == null ? null : mine.get(id);
        long now = ticker.getAsLong();
        if (e != null && now - e.confirmedAt() < revalidateNanos) {
            return Optional.of(e.ref());
        }
        Optional<Reference> read;
        try {
            read = reader.read(tenant, id);
        } catch (StoreUnavailableException unreachable) {
            if (e != null) {
                return Optional.of(e.ref()); // known here: answered while the store cannot say otherwise
            }
            throw unreachable;
        }
        if (read.isPresent()) {
            put(read.get());
        } else {
            forget(tenant, id);
        }
        return read;
    }

    /** Whether {@link #find} would answer from memory now (a known, fresh reference). */
    boolean isFresh(String tenant, String id) {
        Map<String, Entry> mine = byTenant.get(tenant);
        Entry e = mine == null ? null : mine.get(id);
        return e != null && ticker.getAsLong() - e.confirmedAt() < revalidateNanos;
    }

    void put(Reference ref) {
        byTenant.computeIfAbsent(ref.tenant(), t -> new ConcurrentHashMap<>())
                .put(ref.id(), new Entry(ref, ticker.getAsLong()));
    }

    void forget(String tenant, String id) {
        Map<String, Entry> mine = byTenant.get(tenant);
        if (mine != null) {
            mine.remove(id);
        }
    }

    /** Forgets every tenant's reference to {@code id} (the asset is gone). */
    void forgetAsset(String id) {
        for (Map<String, Entry> mine : byTenant.values()) {
            mine.remove(id);
        }
    }

    /** Replaces what is known by a scan of the store: every reference it holds. */
    void reconcile(List<Reference> scanned) {
        long now = ticker.getAsLong();
        Map<String, Map<String, Entry>> fresh = new java.util.HashMap<>();
        for (Reference r : scanned) {
            fresh.computeIfAbsent(r.tenant(), t -> new ConcurrentHashMap<>()).put(r.id(), new Entry(r, now));
        }
        byTenant.keySet().retainAll(fresh.keySet());
        for (Map.Entry<String, Map<String, Entry>> t : fresh.entrySet()) {
            Map<String, Entry> mine = byTenant.computeIfAbsent(t.getKey(), k -> new ConcurrentHashMap<>());
            mine.keySet().retainAll(t.getValue().keySet());
            mine.putAll(t.getValue());
        }
        scannedAt = now;
    }

    /** Replaces what is known of one tenant by a listing of its references in the store. */
    void reconcileTenant(String tenant, List<Reference> listed) {
        long now = ticker.getAsLong();
        Map<String, Entry> fresh = new ConcurrentHashMap<>();
        for (Reference r : listed) {
            fresh.put(r.id(), new Entry(r, now));
        }
        byTenant.put(tenant, fresh);
    }

    /** Whether the last scan is older than the revalidation interval. */
    boolean scanIsStale() {
        return ticker.getAsLong() - scannedAt >= revalidateNanos;
    }

    /** The references of {@code tenant}, oldest first. */
    List<Reference> of(String tenant) {
        Map<String, Entry> mine = byTenant.get(tenant);
        if (mine == null) {
            return List.of();
        }
        List<Reference> out = new ArrayList<>(mine.size());
        mine.values().forEach(e -> out.add(e.ref()));
        out.sort(Reference.OLDEST_FIRST);
        return out;
    }

    /** Every known reference, oldest first. */
    List<Reference> all() {
        List<Reference> out = new ArrayList<>();
        byTenant.values().forEach(m -> m.values().forEach(e -> out.add(e.ref())));
        out.sort(Reference.OLDEST_FIRST);
        return out;
    }

    /** The tenants known to hold {@code id}. */
    List<String> holders(String id) {
        List<String> out = new ArrayList<>();
        byTenant.forEach((tenant, mine) -> {
            if (mine.containsKey(id)) {
                out.add(tenant);
            }
        });
        return out;
    }
}
