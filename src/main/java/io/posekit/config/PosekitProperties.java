package io.posekit.config;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

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
 * @param warmUp the warm-up before readiness and the kernel check
 * @param render how many pictures are drawn at once
 * @param security who may call what: authentication, scopes, tenants
 * @param quota what each tenant may store and how fast it may ask
 * @param cors which other origins' pages may call the API
 * @param http timeouts and caps of the HTTP edge
 */
@ConfigurationProperties("posekit")
public record PosekitProperties(@DefaultValue Cache cache, @DefaultValue Store store,
        @DefaultValue Upload upload, @DefaultValue Limits limits, @DefaultValue Parsing parsing,
        @DefaultValue Bake bake, @DefaultValue Health health, @DefaultValue WarmUp warmUp,
        @DefaultValue Render render, @DefaultValue Security security, @DefaultValue Quota quota,
        @DefaultValue Cors cors, @DefaultValue Http http) {

    /**
     * @param maxBytes Memory budget of parsed assets, at least 1MB. Evicted assets are parsed again from the store.
     */
    public record Cache(@DefaultValue("512MB") DataSize maxBytes) {

        public Cache {
            require(maxBytes != null && maxBytes.toBytes() >= DataSize.ofMegabytes(1).toBytes(),
                    "posekit.cache.max-bytes must be at least 1MB");
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
    public record Store(@DefaultValue("directory") Type type, @DefaultValue("posekit-store") Path dir,
            @DefaultValue("false") boolean shared, @DefaultValue("10s") java.time.Duration revalidate,
            @DefaultValue S3 s3) {

        /** The store implementations. */
        public enum Type {
            DIRECTORY, S3
        }

        public Store {
            require(type != null, "posekit.store.type must be directory or s3");
            require(dir != null, "posekit.store.dir must be set");
            require(type != Type.S3 || (s3 != null && s3.bucket() != null && !s3.bucket().isBlank()),
                    "posekit.store.s3.bucket is required when posekit.store.type is s3");
            require(revalidate != null && !revalidate.isNegative(), "posekit.store.revalidate must not be negative");
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
            @DefaultValue("us-east-1") String region, @DefaultValue("false") boolean pathStyle,
            String accessKeyId, String secretAccessKey, @DefaultValue("false") boolean createBucket,
            @DefaultValue("10s") java.time.Duration timeout) {

        public S3 {
            require(region != null && !region.isBlank(), "posekit.store.s3.region must be set");
            require(timeout != null && positive(timeout), "posekit.store.s3.timeout must be positive");
        }

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
    public record Upload(@DefaultValue("256MB") DataSize maxBytes) {

        public Upload {
            require(maxBytes != null && maxBytes.toBytes() >= 1024 && maxBytes.toBytes() <= Integer.MAX_VALUE - 8,
                    "posekit.upload.max-bytes must be between 1KB and 2GB");
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
     * @param draco Whether glTF's Draco-compressed meshes are decoded (415 otherwise). On by default: the decoder,
     *     Google's as WebAssembly, runs in a memory capped by the upload's budget and stops at the parse time
     *     (docs/formats.md); off for a service that must refuse Draco files.
     */
    public record Limits(@DefaultValue("1GB") DataSize decodedBytes, @DefaultValue("100000") int nodes,
            @DefaultValue("10000") int jointsPerSkin, @DefaultValue("20000000") long vertices,
            @DefaultValue("64") int influencesPerVertex, @DefaultValue("1000000") int keysPerTrack,
            @DefaultValue("10000") int clips, @DefaultValue("256") int xmlDepth,
            @DefaultValue("5000000") int xmlElements, @DefaultValue("1000") int zipEntries,
            @DefaultValue("200") int zipRatio, @DefaultValue("10s") java.time.Duration parseTime,
            @DefaultValue("true") boolean draco) {

        public Limits {
            require(decodedBytes != null && decodedBytes.toBytes() > 0, "posekit.limits.decoded-bytes must be positive");
            require(nodes > 0, "posekit.limits.nodes must be positive");
            require(jointsPerSkin > 0, "posekit.limits.joints-per-skin must be positive");
            require(vertices > 0, "posekit.limits.vertices must be positive");
            require(influencesPerVertex > 0, "posekit.limits.influences-per-vertex must be positive");
            require(keysPerTrack > 0, "posekit.limits.keys-per-track must be positive");
            require(clips > 0, "posekit.limits.clips must be positive");
            require(xmlDepth > 0, "posekit.limits.xml-depth must be positive");
            require(xmlElements > 0, "posekit.limits.xml-elements must be positive");
            require(zipEntries > 0, "posekit.limits.zip-entries must be positive");
            require(zipRatio > 0, "posekit.limits.zip-ratio must be positive");
            require(parseTime != null && positive(parseTime), "posekit.limits.parse-time must be positive");
        }
    }

    /**
     * @param threads Imports that may run at once (uploads and re-parses after cache eviction); 0 = one per core.
     * @param queue Imports that may wait for a thread, uploads and re-parses each (re-parses go first); beyond it
     *     the request is answered 503 with Retry-After.
     * @param nice How many nice levels below the process the parsing threads run on Linux (0: as the process; up to
     *     19, the result at most 19: lower CPU priority), so that on a busy core reads are answered before parses take
     *     their share.
     */
    public record Parsing(@DefaultValue("0") int threads,
            @DefaultValue("16") int queue, @DefaultValue("10") int nice) {

        public Parsing {
            require(threads >= 0, "posekit.parsing.threads must not be negative");
            require(queue >= 0, "posekit.parsing.queue must not be negative");
            require(nice >= 0 && nice <= 19, "posekit.parsing.nice must be 0 to 19");
        }
    }

    /**
     * @param maxFrames Most frames one bake may have (400 beyond it).
     * @param maxBytes Most float32 bytes one bake may stream (400 beyond it); frames are streamed, never held.
     */
    public record Bake(@DefaultValue("100000") int maxFrames, @DefaultValue("4GB") DataSize maxBytes) {

        public Bake {
            require(maxFrames > 0, "posekit.bake.max-frames must be positive");
            require(maxBytes != null, "posekit.bake.max-bytes must be set");
        }
    }

    /**
     * @param refresh How often the health answers ({@code /actuator/health} and its groups) are computed again in the
     *     background; requests are answered from the last one. A change of the store's reachability, an asset found
     *     corrupt, an upload or deletion, or a liveness/readiness change makes the next answer fresh at once.
     */
    public record Health(@DefaultValue("5s") java.time.Duration refresh) {

        public Health {
            require(refresh != null && positive(refresh), "posekit.health.refresh must be positive");
        }
    }

    /**
     * @param duration The safety limit of the start-up warm-up (0 turns it off): before readiness turns UP, posekit
     *     drives its own hot paths over HTTP on a built-in asset (upload and parse, skinning matrices as JSON and
     *     binary, the pose, the skinned mesh, a render) until they run at a steady rate and the compilers are idle, so
     *     the first requests a load balancer sends run at full speed; past this it turns UP anyway, cut short (a
     *     warning says at what rate). Reported in the log and in {@code /actuator/info} ({@code warmUp}).
     * @param quiet The window the warm-up measures in: the rate of each, the compilers idle when they spent less than
     *     5 % of it compiling and the compile queue is empty; steady after three windows without a rise.
     * @param token A bearer token with the read, write and delete scopes the warm-up of a secured service calls the
     *     API with; without one it uses a key of the service's own (in memory only, for the tenant
     *     {@code posekit-internal}, revoked when the warm-up ends).
     * @param rounds How many poses the kernel check computes: the Vector API kernels checked against the scalar
     *     ones, a warning logged when they disagree. Within the warm-up when it runs; else in the background after
     *     start-up (2–3 s of one core at the default on a 2-core VM). 0 turns the check off.
     * @param exit Whether the process exits (status 0) once the warm-up is done instead of serving: the training run
     *     that makes the JDK's AOT cache ({@code -XX:AOTCacheOutput}, see docs/operations.md) runs the warm-up with
     *     this, so the cache holds what serving loads and the method profiles of the hot paths.
     */
    public record WarmUp(@DefaultValue("60s") java.time.Duration duration,
            @DefaultValue("500ms") java.time.Duration quiet, String token,
            @DefaultValue("3000") int rounds, @DefaultValue("false") boolean exit) {

        public WarmUp {
            require(duration != null && !duration.isNegative(), "posekit.warm-up.duration must not be negative");
            require(quiet != null && positive(quiet), "posekit.warm-up.quiet must be positive");
            require(rounds >= 0, "posekit.warm-up.rounds must not be negative");
        }

        /** Without the token. */
        @Override
        public String toString() {
            return "WarmUp[duration=" + duration + ", quiet=" + quiet + ", token=" + (token == null ? null : "******")
                    + ", rounds=" + rounds + ", exit=" + exit + "]";
        }
    }

    /**
     * @param threads Pictures ({@code render.png}, {@code preview.gif}, {@code frames.png}) drawn at once, each on a
     *     render thread of its own; 0 = half the cores, at least one, so rendering never takes every core from sampling.
     * @param queue Renders that may wait for a thread; beyond it the request is answered 503 with Retry-After.
     */
    public record Render(@DefaultValue("0") int threads, @DefaultValue("8") int queue) {

        public Render {
            require(threads >= 0, "posekit.render.threads must not be negative");
            require(queue >= 0, "posekit.render.queue must not be negative");
        }
    }

    /**
     * @param mode {@code auto} (the default): open when no credentials are configured and the server is bound to a
     *     loopback address (a laptop), secured when API keys or a JWT issuer are configured, and a start-up failure
     *     when neither holds (reachable from a network without credentials); {@code secured}: credentials required
     *     everywhere but the open paths; {@code open}: no authentication at all, every caller is the tenant
     *     {@code default} with every scope (say so explicitly to expose an open service to a network).
     * @param apiKeysFile A file of API keys, one per line: {@code <sha256-hex of the key> <tenant> <scope>[,<scope>…]
     *     [name]}; re-read when it changes, so keys rotate without a restart. Keys are bearer tokens starting with
     *     {@code pk_}.
     * @param apiKeysReload How often the API key file is checked for changes.
     * @param tenantClaim The JWT claim naming the caller's tenant ({@code sub} by default: the client of a
     *     client-credentials token).
     * @param openPaths Paths (Spring path patterns) answered without credentials: the viewer's page, the API's
     *     documentation and the health probes by default. Health details are shown only to the admin scope.
     * @param tokenCacheSize Validated tokens kept (until they expire), so a token's signature is checked once.
     */
    public record Security(@DefaultValue("auto") Mode mode, Path apiKeysFile,
            @DefaultValue("5s") java.time.Duration apiKeysReload,
            @DefaultValue("sub") String tenantClaim,
            @DefaultValue({"/", "/index.html", "/*.js", "/*.css", "/favicon.ico", "/webjars/**",
                    "/swagger-ui.html", "/swagger-ui/**", "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml",
                    "/actuator/health", "/actuator/health/**"}) java.util.List<String> openPaths,
            @DefaultValue("10000") int tokenCacheSize) {

        public Security {
            require(mode != null, "posekit.security.mode must be auto, secured or open");
            require(apiKeysReload != null && positive(apiKeysReload), "posekit.security.api-keys-reload must be positive");
            require(tenantClaim != null && !tenantClaim.isBlank(), "posekit.security.tenant-claim must be set");
            require(openPaths != null, "posekit.security.open-paths must be set");
            require(tokenCacheSize > 0, "posekit.security.token-cache-size must be positive");
        }

        /** How callers are authenticated. */
        public enum Mode {
            AUTO, SECURED, OPEN
        }
    }

    /**
     * Per-tenant limits; a tenant named in {@code tenants} has its own, the others these defaults. 0 means no limit.
     *
     * @param maxBytes Most bytes of uploaded files a tenant may hold (an upload past it is refused before its body
     *     is read when its length is declared, else as soon as it passes).
     * @param maxAssets Most assets a tenant may hold.
     * @param requestsPerSecond Requests a tenant may make per second, sustained (429 with Retry-After beyond).
     * @param burst Requests a tenant may make at once above the sustained rate (the bucket's size).
     * @param tenants Limits of named tenants.
     */
    public record Quota(@DefaultValue("10GB") DataSize maxBytes, @DefaultValue("100000") long maxAssets,
            @DefaultValue("0") long requestsPerSecond, @DefaultValue("0") long burst,
            @DefaultValue java.util.Map<String, Tenant> tenants) {

        public Quota {
            require(maxBytes != null, "posekit.quota.max-bytes must be set");
            require(maxAssets >= 0, "posekit.quota.max-assets must not be negative");
            require(requestsPerSecond >= 0, "posekit.quota.requests-per-second must not be negative");
            require(burst >= 0, "posekit.quota.burst must not be negative");
        }

        /** One tenant's limits; unset values are the defaults'. */
        public record Tenant(DataSize maxBytes, Long maxAssets, Long requestsPerSecond, Long burst) {
        }
    }

    /**
     * Cross-origin calls from browsers (CORS). Off until an origin is allowed.
     *
     * @param allowedOrigins Origins whose pages may call the API ({@code https://app.example.com}); patterns such as
     *     {@code https://*.example.com} are allowed; {@code *} allows every origin.
     * @param allowedMethods Methods a cross-origin page may use.
     * @param allowedHeaders Request headers a cross-origin page may send.
     * @param exposedHeaders Answer headers a cross-origin script may read.
     * @param maxAge How long a browser may keep a preflight's answer.
     */
    public record Cors(@DefaultValue java.util.List<String> allowedOrigins,
            @DefaultValue({"GET", "HEAD", "POST", "DELETE", "OPTIONS"}) java.util.List<String> allowedMethods,
            @DefaultValue({"Authorization", "Content-Type", "Accept", "If-None-Match", "X-Request-Id"})
            java.util.List<String> allowedHeaders,
            @DefaultValue({"ETag", "Location", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Request-Id",
                    "WWW-Authenticate", "Link",
                    "Content-Disposition", "Posekit-Layout", "Posekit-Frames", "Posekit-Frame-Times", "Posekit-Camera",
                    "Posekit-Resampled-Keys", "Posekit-Max-Error", "Posekit-Retarget", "Posekit-Warnings"})
            java.util.List<String> exposedHeaders,
            @DefaultValue("30m") java.time.Duration maxAge) {

        public Cors {
            require(allowedMethods != null && allowedHeaders != null && exposedHeaders != null,
                    "posekit.cors.allowed-methods, allowed-headers and exposed-headers must be set");
            require(maxAge != null && !maxAge.isNegative(), "posekit.cors.max-age must not be negative");
        }
    }

    /**
     * @param headerTimeout Longest a client may take to send a request's line and headers (slow clients holding
     *     connections: 408 and closed beyond).
     * @param readTimeout Longest a request body may pause between two pieces (408 and closed beyond).
     * @param requestTimeout Longest a whole request body may take to arrive.
     * @param writeTimeout Longest a streamed answer (a bake) may wait for a client that stopped reading before the
     *     connection is closed.
     * @param maxUploadBytesInFlight Most request body bytes all requests together may hold in memory at once (JSON
     *     bodies, upload receive buffers, the files of uploads being parsed; upload bodies themselves are streamed to
     *     disk): beyond it 503 with Retry-After. 0 (the default): a quarter of the maximum heap.
     * @param swallowSize Most of a refused request's body the server reads (and discards) to keep the connection;
     *     beyond it the answer says Connection: close.
     * @param swallowTime Longest the rest of a refused body is read after the answer before the connection closes.
     * @param maxSpoolBytes Most upload bytes all requests together may have written to disk (the store's directory,
     *     or the temporary directory for S3) before the store takes them: beyond it 503 with Retry-After.
     */
    public record Http(@DefaultValue("10s") java.time.Duration headerTimeout,
            @DefaultValue("30s") java.time.Duration readTimeout,
            @DefaultValue("10m") java.time.Duration requestTimeout,
            @DefaultValue("60s") java.time.Duration writeTimeout,
            @DefaultValue("0") DataSize maxUploadBytesInFlight,
            @DefaultValue("64KB") DataSize swallowSize,
            @DefaultValue("1s") java.time.Duration swallowTime,
            @DefaultValue("8GB") DataSize maxSpoolBytes) {

        /** {@link #maxUploadBytesInFlight()} in bytes, the default (0) resolved against {@code maxHeap}. */
        public long uploadBytesInFlight(long maxHeap) {
            return maxUploadBytesInFlight.toBytes() > 0 ? maxUploadBytesInFlight.toBytes() : maxHeap / 4;
        }

        public Http {
            require(headerTimeout != null && positive(headerTimeout), "posekit.http.header-timeout must be positive");
            require(readTimeout != null && positive(readTimeout), "posekit.http.read-timeout must be positive");
            require(requestTimeout != null && positive(requestTimeout), "posekit.http.request-timeout must be positive");
            require(writeTimeout != null && positive(writeTimeout), "posekit.http.write-timeout must be positive");
            require(maxUploadBytesInFlight != null && maxUploadBytesInFlight.toBytes() >= 0,
                    "posekit.http.max-upload-bytes-in-flight must not be negative");
            require(swallowSize != null && swallowSize.toBytes() >= 0, "posekit.http.swallow-size must not be negative");
            require(swallowTime != null && positive(swallowTime), "posekit.http.swallow-time must be positive");
            require(maxSpoolBytes != null && maxSpoolBytes.toBytes() > 0, "posekit.http.max-spool-bytes must be positive");
        }
    }

    /**
     * Fails the binding, and so the start, with {@code message} (the property and its rule) unless {@code ok}.
     * Checked here rather than by Bean Validation: its bootstrap was 0.4–0.8 s of a one-core start (issue 32).
     */
    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    private static boolean positive(java.time.Duration d) {
        return !d.isNegative() && !d.isZero();
    }
}
