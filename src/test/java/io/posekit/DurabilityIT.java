package io.posekit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.api.PosekitClient;
import io.posekit.asset.SourceFile;
import io.posekit.asset.gltf.GltfBuilder;
import io.posekit.store.ContentId;
import io.posekit.store.GeneratedAssets;
import io.posekit.store.Reference;
import io.posekit.store.StoredAsset;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 7's durability promise, held against the packaged service in a process of its own: an upload answered
 * 2xx survives {@code kill -9}. Each round uploads distinct generated glTF assets (4 KB to 4 MB, every third one
 * as a {@code .gltf} with an external {@code .bin}) from {@value #THREADS} threads, kills the service with SIGKILL
 * while uploads are in flight (at a seeded random moment after {@value #MIN_ACKS} acknowledgements, preferably
 * while the store directory holds an incoming write), starts it again on the same store and checks that every
 * upload acknowledged so far is listed, described, sampled and intact on disk (its files hash to its id), that
 * whatever else is listed is one of the uploads and intact too, and that the store directory holds nothing but
 * the listed assets: no temporary, no partial entry.
 *
 * <p>Needs {@code target/posekit.jar} (the {@code posekit.it.jar} property failsafe sets); no Docker.
 */
class DurabilityIT {

    private static final int ROUNDS = 3;
    private static final int THREADS = 8;
    /** Acknowledged uploads a round needs before its kill may come. */
    private static final int MIN_ACKS = 20;
    private static final long SEED = 7;
    /**
     * C1 only: start-up dominates this test and the machines running it may have two cores; no start-up warm-up: its
     * upload and delete would be one more writer in the store this test audits.
     */
    private static final List<String> DURABILITY_OPTIONS = List.of("-Xmx1g", "-XX:TieredStopAtLevel=1",
            "--add-modules", "jdk.incubator.vector");
    private static final Path LOGS = Path.of("target", "durability-it");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final float HALF_BEND = (float) Math.sin(Math.PI / 8); // Tip's rotation at t=0.5: 22.5° about z

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path store;

    /** The service process currently running, if any; killed whatever happens to the test. */
    private static volatile ServiceProcess service;

    /** One generated upload: what the service must answer and store for it. */
    record Upload(long n, String id, String name, long sizeBytes, int vertices, Map<String, Long> files) {
    }

    /**
     * What one round of uploading and killing saw.
     *
     * @param acked the uploads answered 201, by id
     * @param cutOff the uploads sent before the kill that got no answer: in flight when it came
     * @param refused uploads whose connection the dead service refused (sent in the instant of the kill)
     * @param busy uploads answered 503 (parsing pool full)
     * @param failures anything else: wrong ids, unexpected statuses, I/O errors before the kill
     * @param storeAtKill the store directory's entries right after the kill, temporaries' random part masked
     * @param exitCode the killed process's exit code
     * @param millis from the first upload to the end of the kill
     */
    record Storm(Map<String, Upload> acked, List<Upload> cutOff, int refused, int busy, List<String> failures,
            List<String> storeAtKill, int exitCode, long millis) {
    }

    @AfterAll
    static void killTheService() {
        ServiceProcess running = service;
        if (running != null) {
            running.killHard();
        }
    }

    @Test
    void everyAcknowledgedUploadSurvivesKillMinusNineIntactAndNothingPartialIsVisible() throws Exception {
        long started = System.nanoTime();
        Path jar = Path.of(System.getProperty("posekit.it.jar", "target/posekit.jar")).toAbsolutePath();
        assertThat(jar).exists();
        Files.createDirectories(LOGS);
        Random random = new Random(SEED);
        Map<String, Upload> sent = new ConcurrentHashMap<>();
        Map<String, Upload> ackedSoFar = new LinkedHashMap<>();
        Set<String> described = new HashSet<>();
        int partialsAtKill = 0;
        AtomicLong uploadNumbers = new AtomicLong();

        service = ServiceProcess.start(jar, store, LOGS.resolve("service-0.log"), DURABILITY_OPTIONS);
        for (int round = 1; round <= ROUNDS; round++) {
            Storm storm = storm(service, random, uploadNumbers, sent);
            assertThat(storm.failures()).as("unexpected answers during the uploads").isEmpty();
            assertThat(storm.exitCode()).as("exit code of the killed service: 128 + SIGKILL").isEqualTo(137);
            assertThat(storm.acked()).as("uploads acknowledged before the kill").hasSizeGreaterThanOrEqualTo(MIN_ACKS);
            assertThat(storm.cutOff()).as("uploads the kill cut off").isNotEmpty();
            ackedSoFar.putAll(storm.acked());
            partialsAtKill += (int) storm.storeAtKill().stream().filter(e -> e.startsWith(".incoming-")).count();

            service = ServiceProcess.start(jar, store, LOGS.resolve("service-" + round + ".log"), DURABILITY_OPTIONS);
            List<String> present = verify(service, ackedSoFar, sent, described);
            described.addAll(present);
            Set<String> cutOffButStored = new TreeSet<>(present);
            cutOffButStored.retainAll(storm.cutOff().stream().map(Upload::id).toList());
            System.out.printf("DurabilityIT round %d: %d acknowledged in %d ms (%d busy), killed with %d in flight"
                            + " (%d of them stored nonetheless; %d refused after the kill), store at the kill: %d"
                            + " assets + %s, restart to ready %d ms, %d assets after it%n",
                    round, storm.acked().size(), storm.millis(), storm.busy(), storm.cutOff().size(),
                    cutOffButStored.size(), storm.refused(),
                    storm.storeAtKill().stream().filter(ContentId::isWellFormed).count(),
                    storm.storeAtKill().stream().filter(n -> !ContentId.isWellFormed(n)).toList(),
                    service.readyMillis, present.size());
        }
        // the kills came while writes were half done, so start-up had partial writes to remove
        assertThat(partialsAtKill).as("incoming writes in the store at the kills").isPositive();
        service.killHard();
        service = null;
        System.out.printf("DurabilityIT: %d rounds, %d uploads acknowledged, %d sent, %d s in all%n", ROUNDS,
                ackedSoFar.size(), sent.size(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }

    // ------------------------------------------------------------------------------------------ uploading

    /**
     * Uploads from {@value #THREADS} threads until the kill: at least {@value #MIN_ACKS} acknowledgements, then a
     * random 0 to 1.5 s, then the first moment an incoming write shows in the store directory (or 2 s more).
     */
    private static Storm storm(ServiceProcess target, Random random, AtomicLong uploadNumbers, Map<String, Upload> sent)
            throws Exception {
        long start = System.nanoTime();
        Map<String, Upload> acked = new ConcurrentHashMap<>();
        List<Upload> cutOff = Collections.synchronizedList(new ArrayList<>());
        AtomicLong refused = new AtomicLong();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicLong busy = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean killed = new AtomicBoolean();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        List<String> storeAtKill;
        long killedAt;
        int exitCode;
        try {
            for (int t = 0; t < THREADS; t++) {
                threads.submit(() -> {
                    while (!stop.get()) {
                        long n = uploadNumbers.incrementAndGet();
                        Map<String, byte[]> files = generate(n);
                        if (killed.get()) {
                            return; // generated while the kill came: never sent
                        }
                        Upload upload = describe(n, files);
                        sent.put(upload.id(), upload);
                        try {
                            HttpResponse<byte[]> r = http.send(multipart(target.port, files), HttpResponse.BodyHandlers.ofByteArray());
                            String body = new String(r.body(), StandardCharsets.UTF_8);
                            if (r.statusCode() == 201) {
                                // the whole answer arrived: this upload is acknowledged
                                String id = JSON.readTree(r.body()).get("id").asString();
                                if (id.equals(upload.id())) {
                                    acked.put(id, upload);
                                } else {
                                    failures.add("upload " + n + " answered id " + id + ", expected " + upload.id());
                                }
                            } else if (r.statusCode() == 503) {
                                busy.incrementAndGet(); // the parsing pool was full: not acknowledged, not stored
                            } else {
                                failures.add("upload " + n + " answered " + r.statusCode() + ": " + body);
                            }
                        } catch (ConnectException e) {
                            if (killed.get()) {
                                refused.incrementAndGet();
                            } else {
                                failures.add("upload " + n + " could not connect before the kill: " + e);
                            }
                        } catch (IOException e) {
                            if (killed.get()) {
                                cutOff.add(upload);
                            } else {
                                failures.add("upload " + n + " failed before the kill: " + e);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                });
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acked.size() < MIN_ACKS && failures.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(acked).as("acknowledged within 60 s; failures " + failures).hasSizeGreaterThanOrEqualTo(MIN_ACKS);
            Thread.sleep(random.nextInt(1500));
            // prefer a kill in the middle of a write, so that the store has a partial write to recover from
            long waitForWrite = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (System.nanoTime() < waitForWrite && !incomingWriteVisible()) {
                Thread.onSpinWait();
            }
            stop.set(true);
            killed.set(true);
            exitCode = target.killHard();
            killedAt = System.nanoTime();
            storeAtKill = entries(store).stream().map(DurabilityIT::mask).sorted().toList();
            threads.shutdown();
            assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).as("upload threads ended").isTrue();
        } finally {
            threads.shutdownNow();
            http.close();
        }
        return new Storm(Map.copyOf(acked), List.copyOf(cutOff), (int) refused.get(), (int) busy.get(),
                List.copyOf(failures), storeAtKill, exitCode, TimeUnit.NANOSECONDS.toMillis(killedAt - start));
    }

    private static boolean incomingWriteVisible() {
        try (Stream<Path> entries = Files.list(store)) {
            return entries.anyMatch(p -> p.getFileName().toString().startsWith(".incoming-"));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Upload {@code n}: a skinned mesh of 100 to 90,000 vertices (4 KB to 4 MB, log-uniform), unique by its
     * {@code extras}; every third one as {@code u<n>.gltf} with {@code u<n>.bin}, the others as {@code u<n>.glb}.
     */
    static Map<String, byte[]> generate(long n) {
        GltfBuilder builder = GeneratedAssets.skinnedMeshBuilder(vertices(n), n);
        Map<String, byte[]> files = new LinkedHashMap<>();
        if (n % 3 == 0) {
            GltfBuilder.ExternalGltf gltf = builder.toGltfWithExternalBin("u" + n + ".bin");
            files.put("u" + n + ".gltf", gltf.jsonBytes());
            files.put("u" + n + ".bin", gltf.bin());
        } else {
            files.put("u" + n + ".glb", builder.toGlb());
        }
        return files;
    }

    private static Upload describe(long n, Map<String, byte[]> files) {
        List<SourceFile> sources = files.entrySet().stream().map(f -> new SourceFile(f.getKey(), f.getValue())).toList();
        Map<String, Long> sizes = new LinkedHashMap<>();
        files.forEach((name, bytes) -> sizes.put(name, (long) bytes.length));
        String main = files.keySet().iterator().next();
        return new Upload(n, ContentId.of(sources), main, sizes.values().stream().mapToLong(Long::longValue).sum(),
                Math.max(3, vertices(n) / 3 * 3), sizes); // GeneratedAssets makes whole triangles
    }

    /** The vertex count asked of upload {@code n}. */
    private static int vertices(long n) {
        SplittableRandom random = new SplittableRandom(SEED * 1_000_003 + n);
        return (int) Math.round(Math.exp(random.nextDouble(Math.log(100), Math.log(90_000))));
    }

    private static HttpRequest multipart(int port, Map<String, byte[]> files) {
        String boundary = "durability-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                    + f.getKey() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            body.writeBytes(f.getValue());
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/assets"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                .build();
    }

    // ------------------------------------------------------------------------------------------ checking

    /**
     * Checks the restarted service and its store: every acknowledged upload listed and intact, nothing listed that
     * is not an intact upload, nothing else in the store directory; describes and samples every listed asset not
     * in {@code describedBefore}. Returns the listed ids.
     */
    private static List<String> verify(ServiceProcess restarted, Map<String, Upload> acked, Map<String, Upload> sent,
            Set<String> describedBefore) throws IOException {
        PosekitClient client = new PosekitClient(restarted.port);
        List<JsonNode> items = new ArrayList<>();
        // a page at a time, following `next` (the rounds store more assets than one page of the default size)
        for (String page = "/api/v1/assets?limit=50"; page != null; ) {
            PosekitClient.Response list = client.get(page);
            assertThat(list.status()).as(list.toString()).isEqualTo(200);
            list.json().get("assets").forEach(items::add);
            JsonNode next = list.json().get("next");
            page = next == null || next.isNull() ? null : next.asString();
        }
        List<String> listed = new ArrayList<>();
        for (JsonNode item : items) {
            String id = item.get("id").asString();
            listed.add(id);
            Upload upload = sent.get(id);
            assertThat(upload).as("listed asset %s is one of the uploads", id).isNotNull();
            assertThat(item.get("name").asString()).isEqualTo(upload.name());
            assertThat(item.get("format").asString()).isEqualTo("gltf");
            assertThat(item.get("sizeBytes").asLong()).isEqualTo(upload.sizeBytes());
        }
        assertThat(listed).doesNotHaveDuplicates().containsAll(acked.keySet());

        // the store directory holds the listed assets and nothing else: no temporary, no partial, no corrupt entry
        assertThat(entries(store)).containsExactlyInAnyOrderElementsOf(listed);
        for (String id : listed) {
            assertIntactOnDisk(sent.get(id));
        }
        JsonNode health = client.get("/actuator/health/readiness").json().get("components").get("store").get("details");
        assertThat(health.get("assets").asInt()).isEqualTo(listed.size());
        assertThat(health.get("corrupt").size()).isZero();

        for (String id : listed) {
            if (!describedBefore.contains(id)) {
                assertDescribedAndSampled(client, sent.get(id));
            }
        }
        return listed;
    }

    /** The asset's manifest describes the upload and its files, read back from disk, hash to its id. */
    private static void assertIntactOnDisk(Upload upload) throws IOException {
        Path dir = store.resolve(upload.id());
        StoredAsset meta = JSON.readValue(Files.readAllBytes(dir.resolve("manifest.json")), StoredAsset.class);
        assertThat(meta.id()).isEqualTo(upload.id());
        assertThat(meta.name()).isEqualTo(upload.name());
        assertThat(meta.sizeBytes()).isEqualTo(upload.sizeBytes());
        assertThat(meta.files()).containsExactlyElementsOf(upload.files().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(f -> new StoredAsset.StoredFile(f.getKey(), f.getValue())).toList());
        assertThat(entries(dir)).containsExactlyInAnyOrder("manifest.json", "files", "refs");
        // the service runs open (no credentials), so every upload is the default tenant's and its only reference
        assertThat(entries(dir.resolve("refs"))).containsExactly(Reference.tenantKey(Reference.DEFAULT_TENANT) + ".json");
        Reference ref = JSON.readValue(Files.readAllBytes(dir.resolve("refs")
                .resolve(Reference.tenantKey(Reference.DEFAULT_TENANT) + ".json")), Reference.class);
        assertThat(ref.id()).isEqualTo(upload.id());
        assertThat(ref.name()).isEqualTo(upload.name());
        assertThat(ref.sizeBytes()).isEqualTo(upload.sizeBytes());
        List<String> numbers = new ArrayList<>();
        List<SourceFile> files = new ArrayList<>();
        for (int i = 0; i < meta.files().size(); i++) {
            numbers.add(Integer.toString(i));
            files.add(new SourceFile(meta.files().get(i).name(), Files.readAllBytes(dir.resolve("files").resolve(Integer.toString(i)))));
        }
        assertThat(entries(dir.resolve("files"))).containsExactlyInAnyOrderElementsOf(numbers);
        assertThat(ContentId.of(files)).as("content of stored asset %s (upload %d)", upload.id(), upload.n())
                .isEqualTo(upload.id());
    }

    /** The service parses the stored asset again into the generated scene and samples its clip. */
    private static void assertDescribedAndSampled(PosekitClient client, Upload upload) {
        PosekitClient.Response got = client.get("/api/v1/assets/" + upload.id());
        assertThat(got.status()).as("GET of upload %d: %s", upload.n(), got).isEqualTo(200);
        JsonNode summary = got.json();
        assertThat(summary.get("id").asString()).isEqualTo(upload.id());
        List<String> nodes = new ArrayList<>();
        summary.get("nodes").forEach(node -> nodes.add(node.get("name").asString()));
        assertThat(nodes).containsExactly("Soup", "Root", "Tip");
        assertThat(summary.get("skins").get(0).get("joints").toString()).isEqualTo("[1,2]");
        assertThat(summary.get("meshes").get(0).get("primitives").get(0).get("vertexCount").asInt())
                .isEqualTo(upload.vertices());
        assertThat(summary.get("clips").size()).isEqualTo(1);
        assertThat(summary.get("clips").get(0).get("name").asString()).isEqualTo("Bend");
        assertThat(summary.get("clips").get(0).get("duration").asDouble()).isEqualTo(1.0);

        PosekitClient.Response pose = client.get("/api/v1/assets/" + upload.id() + "/pose?clip=Bend&time=0.5");
        assertThat(pose.status()).as("pose of upload %d: %s", upload.n(), pose).isEqualTo(200);
        JsonNode tip = pose.json().get("nodes").get(2);
        assertThat(tip.get("name").asString()).isEqualTo("Tip");
        float[] rotation = JSON.treeToValue(tip.get("rotation"), float[].class);
        assertThat(rotation).containsExactly(new float[] {0, 0, HALF_BEND, (float) Math.cos(Math.PI / 8)}, within(1e-6f));
    }

    private static List<String> entries(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }

    /** A store entry's name without the random part of a temporary's. */
    private static String mask(String name) {
        return name.replaceAll("^(\\.[a-z]+-).*", "$1*");
    }
}
