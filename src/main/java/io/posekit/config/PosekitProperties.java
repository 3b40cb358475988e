package io.posekit.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * posekit's configuration ({@code posekit.*}); every value has an embedded default so the service runs with
 * no configuration at all.
 *
 * @param cache the parsed-asset cache
 * @param store where uploads are kept
 * @param upload upload limits
 * @param limits caps on what one import may decode (413/422 beyond them)
 * @param parsing where and how many imports run
 * @param bake limits of one bake
 * @param health how health answers are kept
 * @param warmUp the kernel warm-up after start-up
 * @param render how many pictures are drawn at once
 */
@ConfigurationProperties("posekit")
@Validated
public record PosekitProperties(@Valid @DefaultValue Cache cache, @Valid @DefaultValue Store store,
        @Valid @DefaultValue Upload upload, @Valid @DefaultValue Limits limits, @Valid @DefaultValue Parsing parsing,
        @Valid @DefaultValue Bake bake, @Valid @DefaultValue Health health, @Valid @DefaultValue WarmUp warmUp,
        @Valid @DefaultValue Render render) {

    /**
     * @param maxBytes Memory budget of parsed assets, at least 1MB. Evicted assets are parsed again from the store.
     */
    public record Cache(@NotNull @DefaultValue("512MB") DataSize maxBytes) {

        @AssertTrue(message = "posekit.cache.max-bytes must be at least 1MB")
        boolean isAtLeastOneMegabyte() {
            return maxBytes == null || maxBytes.toBytes() >= DataSize.ofMegabytes(1).toBytes();
        }
    }

    /**
     * @param type Where uploads are kept: {@code directory} (the embedded default) or {@code s3} (an S3-compatible
     *     object store shared by every replica).
     * @param dir Directory where uploads are kept (type directory); relative paths are under the working directory.
     * @param shared Whether other posekit processes use the same directory (a volume every replica mounts): start-up
     *     then removes only temporaries older than an hour.
     * @param revalidate How long a replica trusts that an asset it knows is still stored before looking again: a
     *     deletion by another replica is seen within it.
     * @param s3 The object store (type s3).
     */
    public record Store(@NotNull @DefaultValue("directory") Type type, @NotNull @DefaultValue("posekit-store") Path dir,
            @DefaultValue("false") boolean shared, @NotNull @DefaultValue("10s") java.time.Duration revalidate,
            @Valid @DefaultValue S3 s3) {

        /** The store implementations. */
        public enum Type {
            DIRECTORY, S3
        }

        @AssertTrue(message = "posekit.store.s3.bucket is required when posekit.store.type is s3")
        boolean isBucketGivenForS3() {
            return type != Type.S3 || (s3 != null && s3.bucket() != null && !s3.bucket().isBlank());
        }

        @AssertTrue(message = "posekit.store.revalidate must not be negative")
        boolean isRevalidateNotNegative() {
            return revalidate == null || !revalidate.isNegative();
        }
    }

    /**
     * @param bucket The bucket.
     * @param prefix Prepended to every key, e.g. {@code posekit/}.
     * @param endpoint The endpoint of an S3-compatible store, e.g. {@code http://minio:9000}; empty for AWS S3.
     * @param region The signing region.
     * @param pathStyle Path-style requests (http://host/bucket/key), which MinIO and Ceph need.
     * @param accessKeyId The access key; empty to use the AWS SDK's default credentials chain (AWS_ACCESS_KEY_ID and
     *     AWS_SECRET_ACCESS_KEY, web identity tokens, profiles, instance roles).
     * @param secretAccessKey The secret key, with the access key.
     * @param createBucket Whether to create the bucket when it does not exist.
     * @param timeout The longest one store operation may take, retries included.
     */
    public record S3(String bucket, @DefaultValue("") String prefix, java.net.URI endpoint,
            @NotNull @DefaultValue("us-east-1") String region, @DefaultValue("false") boolean pathStyle,
            String accessKeyId, String secretAccessKey, @DefaultValue("false") boolean createBucket,
            @NotNull @DefaultValue("10s") java.time.Duration timeout) {

        /** Without the secret key. */
        @Override
        public String toString() {
            return "S3[bucket=" + bucket + ", prefix=" + prefix + ", endpoint=" + endpoint + ", region=" + region
                    + ", pathStyle=" + pathStyle + ", accessKeyId=" + accessKeyId + ", secretAccessKey="
                    + (secretAccessKey == null ? null : "******") + ", createBucket=" + createBucket + ", timeout="
                    + timeout + "]";
        }
    }

    /**
     * @param maxBytes Largest upload, all files together (1KB to 2GB); a zip may expand to at most this much.
     */
    public record Upload(@NotNull @DefaultValue("256MB") DataSize maxBytes) {

        @AssertTrue(message = "posekit.upload.max-bytes must be between 1KB and 2GB")
        boolean isWithinRange() {
            return maxBytes == null || (maxBytes.toBytes() >= 1024 && maxBytes.toBytes() <= Integer.MAX_VALUE - 8);
        }
    }

    /**
     * @param decodedBytes Most bytes of arrays one import may decode.
     * @param nodes Most scene nodes of an asset.
     * @param jointsPerSkin Most joints of one skin.
     * @param vertices Most vertices of an asset, all primitives together.
     * @param influencesPerVertex Most joint influences of one vertex.
     * @param keysPerTrack Most keys of one animation track or curve.
     * @param clips Most clips of an asset.
     * @param xmlDepth Deepest element nesting of an XML document (COLLADA).
     * @param xmlElements Most elements of an XML document.
     * @param zipEntries Most entries of a zip upload.
     * @param zipRatio Largest uncompressed/compressed ratio of a zip entry or compressed block.
     * @param parseTime Longest one import may take (422 beyond; 503 for a re-parse of a stored asset), and longest
     *     it may wait for a parsing thread (503 beyond).
     */
    public record Limits(@DefaultValue("1GB") DataSize decodedBytes, @DefaultValue("100000") @Positive int nodes,
            @DefaultValue("10000") @Positive int jointsPerSkin, @DefaultValue("20000000") @Positive long vertices,
            @DefaultValue("64") @Positive int influencesPerVertex, @DefaultValue("1000000") @Positive int keysPerTrack,
            @DefaultValue("10000") @Positive int clips, @DefaultValue("256") @Positive int xmlDepth,
            @DefaultValue("5000000") @Positive int xmlElements, @DefaultValue("1000") @Positive int zipEntries,
            @DefaultValue("200") @Positive int zipRatio, @DefaultValue("10s") @NotNull java.time.Duration parseTime) {

        @AssertTrue(message = "posekit.limits.parse-time must be positive")
        boolean isParseTimePositive() {
            return parseTime == null || (!parseTime.isNegative() && !parseTime.isZero());
        }
    }

    /**
     * @param threads Imports that may run at once (uploads and re-parses after cache eviction); 0 = one per core.
     * @param queue Imports that may wait for a thread, uploads and re-parses each (re-parses go first); beyond it
     *     the request is answered 503 with Retry-After.
     */
    public record Parsing(@DefaultValue("0") @PositiveOrZero int threads,
            @DefaultValue("16") @PositiveOrZero int queue) {
    }

    /**
     * @param maxFrames Most frames one bake may have (400 beyond it).
     * @param maxBytes Most float32 bytes one bake may stream (400 beyond it); frames are streamed, never held.
     */
    public record Bake(@DefaultValue("100000") @Positive int maxFrames, @DefaultValue("4GB") @NotNull DataSize maxBytes) {
    }

    /**
     * @param refresh How often the health answers ({@code /actuator/health} and its groups) are computed again in the
     *     background; requests are answered from the last one. A change of the store's reachability, an asset found
     *     corrupt, an upload or deletion, or a liveness/readiness change makes the next answer fresh at once.
     */
    public record Health(@NotNull @DefaultValue("5s") java.time.Duration refresh) {
    }

    /**
     * @param rounds How many poses the kernel warm-up computes in the background after start-up (2–3 s of one core
     *     at the default on a 2-core VM), so the first requests find the pose and skinning kernels compiled; it also checks the
     *     Vector API kernels against the scalar ones and logs a warning when they disagree. 0 turns it off.
     */
    public record WarmUp(@DefaultValue("3000") @PositiveOrZero int rounds) {
    }

    /**
     * @param threads Pictures ({@code render.png}, {@code preview.gif}, {@code frames.png}) drawn at once, each on a
     *     render thread of its own; 0 = half the cores, at least one, so rendering never takes every core from sampling.
     * @param queue Renders that may wait for a thread; beyond it the request is answered 503 with Retry-After.
     */
    public record Render(@DefaultValue("0") @PositiveOrZero int threads, @DefaultValue("8") @PositiveOrZero int queue) {
    }
}
