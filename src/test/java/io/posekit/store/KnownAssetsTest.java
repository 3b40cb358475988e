package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What a replica knows of a shared store, with a stepped clock and a scripted store. */
class KnownAssetsTest {

    private static final String ID = "a".repeat(64);
    private final AtomicLong now = new AtomicLong();
    private final KnownAssets known = new KnownAssets(Duration.ofSeconds(10), now::get);
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicReference<Object> stored = new AtomicReference<>();

    private static StoredAsset asset(long createdSecond) {
        return new StoredAsset(ID, "a.glb", "gltf", 4, Instant.ofEpochSecond(createdSecond),
                List.of(new StoredAsset.StoredFile("a.glb", 4)));
    }

    /** The scripted store: answers what {@link #stored} holds (a manifest, null, or an exception to throw). */
    private Optional<StoredAsset> read(String id) {
        reads.incrementAndGet();
        Object s = stored.get();
        if (s instanceof RuntimeException e) {
            throw e;
        }
        return Optional.ofNullable((StoredAsset) s);
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void aConfirmedEntryIsTrustedForTheIntervalThenReadAgain() {
        StoredAsset meta = asset(1);
        stored.set(meta);
        assertThat(known.find(ID, this::read)).containsSame(meta);
        advance(Duration.ofSeconds(9));
        assertThat(known.find(ID, this::read)).containsSame(meta);
        assertThat(reads).hasValue(1);

        advance(Duration.ofSeconds(1));
        stored.set(asset(1)); // equal content, another object: the known one keeps its identity
        assertThat(known.find(ID, this::read)).containsSame(meta);
        assertThat(reads).hasValue(2);

        stored.set(null); // deleted by another replica
        advance(Duration.ofSeconds(10));
        assertThat(known.find(ID, this::read)).isEmpty();
        assertThat(known.known(ID)).isEmpty();
        assertThat(reads).hasValue(3);
    }

    @Test
    void aMissIsNeverRememberedSoAnAssetStoredElsewhereIsFoundAtOnce() {
        assertThat(known.find(ID, this::read)).isEmpty();
        StoredAsset meta = asset(1);
        stored.set(meta);
        assertThat(known.find(ID, this::read)).containsSame(meta);
        assertThat(reads).hasValue(2);
    }

    @Test
    void whileTheStoreIsDownAKnownEntryIsAnsweredAndAnUnknownOneFails() {
        StoredAsset meta = asset(1);
        stored.set(meta);
        known.find(ID, this::read);
        advance(Duration.ofMinutes(5));
        stored.set(new StoreUnavailableException("down", new IOException("refused")));
        assertThat(known.find(ID, this::read)).containsSame(meta);
        assertThatThrownBy(() -> known.find("b".repeat(64), this::read)).isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void aCorruptManifestIsRememberedUntilANewCopyAppears() {
        stored.set(new CorruptAssetException(ID, "its manifest is unreadable"));
        assertThat(known.find(ID, this::read)).isEmpty();
        assertThat(known.corruption(ID)).contains("its manifest is unreadable");
        assertThat(known.corruptIds()).containsExactly(ID);

        StoredAsset fresh = asset(2); // uploaded again through another replica
        stored.set(fresh);
        assertThat(known.find(ID, this::read)).containsSame(fresh);
        assertThat(known.corruption(ID)).isEmpty();
    }

    @Test
    void markingCorruptAppliesOnlyToTheCopyThatWasRead() {
        StoredAsset first = asset(1);
        known.put(first);
        StoredAsset replaced = asset(2);
        known.put(replaced);
        known.markCorrupt(ID, first, "content does not match its id"); // a reader of the old copy reports late
        assertThat(known.corruption(ID)).isEmpty();
        known.markCorrupt(ID, replaced, "content does not match its id");
        assertThat(known.corruption(ID)).contains("content does not match its id");
    }

    @Test
    void aListingReplacesWhatIsKnown() {
        StoredAsset kept = asset(1);
        known.put(kept);
        String gone = "c".repeat(64);
        known.put(new StoredAsset(gone, "c.glb", "gltf", 4, Instant.ofEpochSecond(0), List.of()));
        String added = "d".repeat(64);
        StoredAsset addedMeta = new StoredAsset(added, "d.glb", "gltf", 4, Instant.ofEpochSecond(5), List.of());
        known.reconcile(Map.of(ID, kept, added, addedMeta), Set.of());
        assertThat(known.assets()).containsExactly(kept, addedMeta);
        assertThat(known.known(gone)).isEmpty();
    }
}
