package io.posekit.store;

import io.posekit.asset.SourceFile;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where uploaded files are kept, keyed by content id ({@link ContentId}), so the same content is the same asset
 * wherever it is stored. Two implementations, chosen by configuration: {@link DirectoryAssetStore} (a local or
 * shared directory, the embedded default) and {@link S3AssetStore} (S3-compatible object storage shared by every
 * replica).
 *
 * <p>A store may be shared by several posekit processes (replicas). Each keeps an index of what it has seen; an
 * asset stored by another replica is found on the first {@link #find} for it, and a deletion by another replica is
 * seen at the latest after the store's revalidation interval. Writes are idempotent: the same content stored twice,
 * by one replica or two at once, is one asset, and the first stored copy wins.
 *
 * <p>Reading an asset's files verifies them against its id: a missing file or content that no longer hashes to the
 * id marks the asset corrupt ({@link CorruptAssetException}); it is never served as something else, and stays
 * corrupt until it is deleted or the same content is saved again, which replaces the damaged copy.
 *
 * <p>Assets belong to tenants ({@link Reference}): each tenant that uploads an asset holds a reference to it, stored
 * durably with it, and the asset is deleted when its last reference is removed. A tenant sees only the assets it
 * holds; the bytes are stored once whoever uploads them.
 *
 * <p>Failures to reach the store (a full or unmounted disk, an object store that is down, refusing or timing out)
 * are {@link StoreUnavailableException}s; nothing stored is changed by a failed call. Thread-safe.
 */
public interface AssetStore {

    /** Where the store is, for logs and health: a directory path or {@code s3://bucket/prefix}. */
    String location();

    /**
     * The stored asset with this id: from the index while its entry is fresh, otherwise from the store (so an asset
     * another replica stored is found). When the store cannot be reached, a known asset is answered from the index.
     *
     * @throws StoreUnavailableException when the asset is not known here and the store cannot be reached
     */
    Optional<StoredAsset> find(String id);

    /**
     * Whether {@link #find} and {@link #corruption} would answer {@code id} now from memory, without reading the
     * store or waiting (so a caller on an event loop may ask them); {@code false} when unsure.
     */
    default boolean isFresh(String id) {
        return false;
    }

    /** What is wrong with this asset when it is known to be corrupt. */
    Optional<String> corruption(String id);

    /** The ids of the assets known to be corrupt, sorted. */
    List<String> corruptIds();

    /**
     * Every stored asset, oldest first, as the store holds them now (including those other replicas stored).
     *
     * @throws StoreUnavailableException when the store cannot be reached
     */
    List<StoredAsset> list();

    /**
     * Where an upload's files are written as they arrive ({@link UploadSpool}): a store on a file system gives its
     * own directory, so that staging moves them into place instead of copying them; others the JVM's temporary
     * directory.
     */
    default java.nio.file.Path spoolDirectory() {
        return java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * Files of an upload held for {@link #commit} or {@link #discard}: written under a name no reader sees, or not
     * written yet, depending on the store. Belongs to the store that staged it.
     */
    interface Staged {

        /** The content id the files were staged for. */
        String id();
    }

    /**
     * The first half of {@link #save}: prepares {@code files} (any order), the content {@code id} names, to become an
     * asset. Takes no lock, so it can run while the upload is being parsed; nothing is visible until {@link #commit}.
     *
     * @throws StoreUnavailableException when the files could not be written (nothing is left behind)
     */
    Staged stage(String id, List<SourceFile> files);

    /**
     * {@link #stage(String, List)} when the asset's description is known before its parse ends (the model file and
     * its format follow from the file names): a store may then make the description durable with the files, so that
     * a {@link #commit} with an equal {@code meta} only has to publish them. A commit with another description is
     * still correct (the store writes that one instead); this only moves work off the commit.
     *
     * @throws StoreUnavailableException when the files could not be written (nothing is left behind)
     */
    default Staged stage(StoredAsset meta, List<SourceFile> files) {
        return stage(meta.id(), files);
    }

    /**
     * {@link #stage(StoredAsset, List)} with the uploading tenant's reference: a store may make it durable with the
     * files, so that a {@link #commit} with an equal reference only has to publish them.
     */
    default Staged stage(StoredAsset meta, List<SourceFile> files, Reference ref) {
        return stage(meta, files);
    }

    /** Drops staged files that will not be committed (e.g. the upload failed to parse). */
    void discard(Staged staged);

    /**
     * The second half of {@link #save}: makes the staged files the asset {@code meta} describes, held by
     * {@code ref}'s tenant, atomically (readers see all of it or none) and durably (when it returns, the asset and the
     * reference survive a crash of this process and of the store's host, if need be by {@link #recover} at the next
     * start). When the id is already stored, the staged
     * files are discarded, the stored asset returned unchanged and the reference added to it
     * ({@link #addReference}); a copy known to be corrupt is replaced.
     *
     * @param ref the uploading tenant's reference ({@code ref.id()} is {@code meta.id()})
     * @throws IllegalArgumentException when the files were staged for another id or by another store
     * @throws StoreUnavailableException when the asset could not be written (it is then not stored)
     */
    StoredAsset commit(Staged staged, StoredAsset meta, Reference ref);

    /**
     * Stores {@code files} (any order) under {@code meta.id()}, held by {@code ref}'s tenant:
     * {@link #commit commit}({@link #stage(StoredAsset, List, Reference) stage(meta, files, ref)}, meta, ref).
     */
    default StoredAsset save(StoredAsset meta, List<SourceFile> files, Reference ref) {
        return commit(stage(meta, files, ref), meta, ref);
    }

    /**
     * Decides, for {@link #recover}, whether files a crash left staged are an asset: the repository parses them as it
     * would an upload (same importers, same limits).
     */
    @FunctionalInterface
    interface RecoveryCheck {

        /**
         * Whether {@code files} (read back as {@code meta.id()}, named as {@code meta} says) import. Throws when it
         * cannot tell (the store then keeps the files for the next start).
         */
        boolean importsAgain(StoredAsset meta, List<SourceFile> files);
    }

    /**
     * Publishes the uploads a crash may have left acknowledged but not yet in place (a store whose {@link #commit}
     * leaves part of its durability to recovery): each one whose files read back as its id and that {@code check}
     * accepts becomes an asset, durably, with the references staged with it; what fails a check is removed. Called
     * once at start-up, before the store serves. Stores that need no recovery publish nothing (the default).
     *
     * @return the assets published
     * @throws StoreUnavailableException when what passed could not be published durably
     */
    default List<StoredAsset> recover(RecoveryCheck check) {
        return List.of();
    }

    /**
     * The reference of {@code tenant} to asset {@code id}: from the index while its entry is fresh, otherwise from the
     * store (so one made by another replica is found).
     *
     * @throws StoreUnavailableException when it is not known here and the store cannot be reached
     */
    Optional<Reference> reference(String tenant, String id);

    /** Whether {@link #reference} would answer from memory now, without reading the store. */
    default boolean isReferenceFresh(String tenant, String id) {
        return false;
    }

    /**
     * Adds {@code ref} to its stored asset, durably; the tenant's existing reference is kept when it has one.
     *
     * @return the tenant's reference — {@code ref} itself (the same instance) when it was added now, the one it had
     *     otherwise — or empty when the asset is not stored (deleted meanwhile: the caller stores it again with
     *     {@link #commit})
     * @throws StoreUnavailableException when the store cannot be reached (the reference may then not exist)
     */
    Optional<Reference> addReference(Reference ref);

    /**
     * Removes {@code tenant}'s reference to asset {@code id}, durably; when it was the last one, deletes the asset.
     *
     * @return what happened: nothing (the tenant held none), the reference removed, or the asset deleted with it
     * @throws StoreUnavailableException when the store cannot be reached (the reference may then still exist)
     */
    Removal removeReference(String tenant, String id);

    /** What {@link #removeReference} did. */
    enum Removal {
        /** The tenant held no reference to the asset. */
        NONE,
        /** The reference is gone; other tenants still hold the asset. */
        REFERENCE,
        /** The reference is gone, and with it the asset (it was the last). */
        ASSET
    }

    /**
     * The references {@code tenant} holds, oldest first, as the store holds them now.
     *
     * @throws StoreUnavailableException when the store cannot be reached
     */
    List<Reference> references(String tenant);

    /**
     * Every tenant's references, oldest first (the admin's view).
     *
     * @throws StoreUnavailableException when the store cannot be reached
     */
    List<Reference> references();

    /**
     * Reads the files of a stored asset, with the names they were uploaded under, verified against the id.
     *
     * @return empty when the asset is not stored (or was deleted meanwhile)
     * @throws CorruptAssetException when a file is missing or the content does not hash to the id
     * @throws StoreUnavailableException when the store cannot be reached
     */
    Optional<List<SourceFile>> readFiles(String id);

    /**
     * Deletes a stored asset (corrupt or not), durably.
     *
     * @return false when it was not stored
     * @throws StoreUnavailableException when the store cannot be reached (the asset may then still be stored)
     */
    boolean delete(String id);

    /**
     * Checks now that the store can take writes, for health: the details to report (location, what is known).
     *
     * @throws StoreUnavailableException when it cannot
     */
    Map<String, Object> check();
}
