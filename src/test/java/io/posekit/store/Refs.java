package io.posekit.store;

/** References for store tests: the default tenant's hold on an asset as its manifest describes it. */
final class Refs {

    private Refs() {
    }

    static Reference of(StoredAsset meta) {
        return of(Reference.DEFAULT_TENANT, meta);
    }

    static Reference of(String tenant, StoredAsset meta) {
        return new Reference(tenant, meta.id(), meta.name(), meta.format(), meta.sizeBytes(), meta.createdAt());
    }
}
