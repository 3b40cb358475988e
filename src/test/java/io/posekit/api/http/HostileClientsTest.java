package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.PosekitClient;
import io.posekit.api.security.ApiKeys;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Clients that do not play by the rules, on raw sockets: headers trickled a byte at a time (slowloris), a body that
 * stalls, a {@code Content-Length} that lies, an upload past the tenant's quota announced by its length, and a
 * thousand uploads at once — none may hold a connection, memory or the other tenants' service for long. The timeouts
 * are shortened for the test; the figures are printed (docs/robustness.md).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}",
        "posekit.http.header-timeout=1500ms",
        "posekit.http.read-timeout=1500ms",
        "posekit.http.max-upload-bytes-in-flight=16MB",
        "posekit.http.request-timeout=3s",
        "posekit.http.write-timeout=1500ms",
        "posekit.quota.tenants.capped.max-bytes=1MB"})
class HostileClientsTest {

    static final String FLOOD = ApiKeys.generate();
    static final String CALM = ApiKeys.generate();
    static final String CAPPED = ApiKeys.generate();
    static Path keys;

    @LocalServerPort
    int port;

    @Autowired
    ApiServer server;

    @Autowired
    io.posekit.store.AssetStore store;

    @DynamicPropertySource
    static void configure(DynamicPropertyRegistry registry) throws IOException {
        keys = Files.createTempFile("hostile-keys", ".txt");
        Files.write(keys, List.of(
                line(FLOOD, "flood"), line(CALM, "calm"), line(CAPPED, "capped")));
        registry.add("posekit.security.api-keys-file", keys::toString);
    }

    static String line(String key, String tenant) {
        return HexFormat.of().formatHex(ApiKeys.sha256(key)) + " " + tenant + " posekit:read,posekit:write";
    }

    @AfterAll
    static void removeKeys() throws IOException {
        Files.deleteIfExists(keys);
    }

    private Socket socket() throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        return s;
    }

    /** Reads what the server sends until it closes the connection (or 10 s pass). */
    private static String readUntilClosed(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder b = new StringBuilder();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                b.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
            }
        } catch (SocketTimeoutException stillOpen) {
            b.append("<still open>");
        }
        return b.toString();
    }

    /** Sends {@code bytes} one at a time, {@code millis} apart, until done or the server ends the connection. */
    private static Thread trickle(OutputStream out, byte[] bytes, long millis) {
        return Thread.ofVirtual().start(() -> {
            try {
                for (byte b : bytes) {
                    out.write(b);
                    out.flush();
                    Thread.sleep(millis);
                }
            } catch (IOException | InterruptedException closed) {
                // the server ended it: what the tests wait for
            }
        });
    }

    @Test
    void headersTrickledAByteAtATimeAre408AndClosedAtTheHeaderDeadline() throws Exception {
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            long start = System.nanoTime();
            byte[] request = ("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                    + "a".repeat(200)).getBytes(StandardCharsets.US_ASCII);
            Thread feeder = trickle(out, request, 100);
            String answer = readUntilClosed(s);
            double seconds = (System.nanoTime() - start) / 1e9;
            feeder.interrupt();
            System.out.printf(Locale.ROOT, "slowloris: 408 and closed after %.2f s (header timeout 1.5 s)%n", seconds);
            assertThat(answer).startsWith("HTTP/1.1 408 Request Timeout");
            // at the deadline, not up to half a timeout after it: the check runs every quarter of the shortest one
            assertThat(seconds).isBetween(1.5, 2.0);
        }
        // an idle kept-alive connection is not a slow request: it is served when its request comes
        try (Socket s = socket()) {
            s.getOutputStream().write("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            Thread.sleep(2500);
            s.getOutputStream().write("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String both = readUntilClosed(s);
            assertThat(both.split("HTTP/1.1 200 OK", -1)).hasSize(3);
        }
    }

    /**
     * Pipelined requests (legal HTTP/1.1, and what a keep-alive client's next request becomes when it arrives before
     * the server has finished with the previous exchange): the first answered later on a worker, the second at once.
     * The connection must read on afterwards. Reactor Netty 1.3.7 stopped reading such a connection for good (the
     * second request's end was delivered after its exchange was over, and nothing asked for the next read:
     * reactor/reactor-netty#4361); the next request then waited until its client gave up.
     */
    @Test
    void aConnectionReadsOnAfterPipelinedRequestsAnsweredOutOfStep() throws Exception {
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            // the listing runs on a worker (answered later); the request without credentials is refused at once
            out.write(("GET /api/v1/assets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + CALM + "\r\n\r\n"
                    + "GET /api/v1/assets HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200");
            assertThat(readResponse(in)).startsWith("HTTP/1.1 401");
            for (int i = 0; i < 3; i++) {
                out.write("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                // a connection that stopped reading leaves this to the socket's 10 s timeout
                assertThat(readResponse(in)).as("request %d after the pipelined pair", i + 1).startsWith("HTTP/1.1 200");
            }
        }
    }

    /** One response with a {@code Content-Length} body, read from {@code in}: its head and body as text. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after '" + head + "'");
            }
            head.append((char) b);
        }
        int length = head.toString().lines()
                .filter(l -> l.regionMatches(true, 0, "Content-Length:", 0, 15))
                .map(l -> Integer.parseInt(l.substring(15).strip())).findFirst()
                .orElseThrow(() -> new AssertionError("no Content-Length in " + head));
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    @Test
    void aBodyThatStallsIsCutOffAtTheReadTimeoutAndALyingLengthHoldsNothing() throws Exception {
        try (Socket s = socket()) {
            long start = System.nanoTime();
            OutputStream out = s.getOutputStream();
            out.write(("POST /api/v1/assets?filename=a.glb HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + CALM + "\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\nglTF")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = readUntilClosed(s);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "stalled body (4 of 100000 bytes): closed after %.2f s, answer '%s'%n",
                    seconds, answer.lines().findFirst().orElse("none"));
            assertThat(answer).doesNotContain("<still open>");
            assertThat(seconds).isLessThan(5);
        }
        awaitNothingHeld();
        // a length past the upload limit: refused at once, nothing read
        try (Socket s = socket()) {
            s.getOutputStream().write(("POST /api/v1/assets?filename=a.glb HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + CALM + "\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: 99999999999\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = readUntilClosed(s);
            assertThat(answer).startsWith("HTTP/1.1 413");
        }
    }

    /**
     * Bodies refused before they are read — no credentials (401), a length past the limit (413) — whose clients go on
     * trickling them: each gets its answer whole, then its connection ends within the swallow time (the server shuts
     * its side and discards what still comes for at most 1 s), whatever the number of them.
     */
    @Test
    void refusedBodiesThatTrickleOnAreAnsweredAndClosedWithinTwoSeconds() throws Exception {
        int clients = 50;
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        try {
            List<Future<double[]>> trickles = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                boolean anonymous = i % 2 == 0;
                trickles.add(threads.submit(() -> {
                    try (Socket s = socket()) {
                        OutputStream out = s.getOutputStream();
                        out.write(("POST /api/v1/assets?filename=a.glb HTTP/1.1\r\nHost: localhost\r\n"
                                + (anonymous ? "" : "Authorization: Bearer " + CALM + "\r\n")
                                + "Content-Type: application/octet-stream\r\nContent-Length: 10000000000\r\n\r\nglTF")
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        InputStream in = s.getInputStream();
                        byte[] head = in.readNBytes(12);
                        long answered = System.nanoTime();
                        Thread feeder = trickle(out, new byte[100], 200);
                        String rest = readUntilClosed(s);
                        feeder.interrupt();
                        String status = new String(head, StandardCharsets.US_ASCII);
                        assertThat(status).isEqualTo(anonymous ? "HTTP/1.1 401" : "HTTP/1.1 413");
                        assertThat(rest).contains("connection: close").doesNotContain("<still open>");
                        return new double[] {(System.nanoTime() - answered) / 1e9};
                    }
                }));
            }
            double worst = 0;
            for (Future<double[]> t : trickles) {
                worst = Math.max(worst, t.get(30, TimeUnit.SECONDS)[0]);
            }
            System.out.printf(Locale.ROOT, "%d refused bodies trickled on: every connection closed at most %.2f s after"
                    + " its answer%n", clients, worst);
            assertThat(worst).isLessThan(2.0);
        } finally {
            threads.shutdownNow();
        }
    }

    /** A body sent a byte at a time, each within the read timeout, is cut at the request timeout all the same. */
    @Test
    void aBodyThatTricklesWithinTheReadTimeoutIsCutAtTheRequestTimeout() throws Exception {
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            long start = System.nanoTime();
            out.write(("POST /api/v1/assets?filename=a.glb HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + CALM + "\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            Thread feeder = trickle(out, new byte[100], 500); // a third of the read timeout apart
            String answer = readUntilClosed(s);
            double seconds = (System.nanoTime() - start) / 1e9;
            feeder.interrupt();
            System.out.printf(Locale.ROOT, "body trickled every 0.5 s: %s after %.2f s (request timeout 3 s)%n",
                    answer.lines().findFirst().orElse("nothing"), seconds);
            assertThat(answer).startsWith("HTTP/1.1 408");
            assertThat(seconds).isBetween(3.0, 3.5);
        }
        awaitNothingHeld();
        awaitNothingSpooled();
    }

    /**
     * Paths that try to climb or smuggle a separator through a variable (dot segments, encoded slashes and
     * backslashes, NULs, bad escapes), on both servers (the API's and WebFlux's: Actuator, static files, the docs):
     * a 4xx every time, never a 5xx.
     */
    @Test
    void encodedPathsNeverMakeAServerError() throws Exception {
        List<String> prefixes = List.of("/actuator/health/", "/actuator/health/liveness/", "/api/v1/assets/",
                "/api/v1/assets/" + "a".repeat(64) + "/skins/", "/actuator/", "/v3/api-docs/", "/", "/webjars/");
        List<String> segments = List.of("..", ".", "%2e%2e", "%2E%2e", ".%2e", "%2e", "..%2f..%2fapi%2fv1%2fassets",
                "%2e%2e%2fprometheus", "..%5c..%5cetc", "%00", "a%00b", "%zz", "%", "..;", "%2f", "%5c", "a%2fb",
                "%c0%ae%c0%ae", "%252e%252e", "..%2f", "x/..%2f..", "%2e%2e/prometheus");
        java.util.Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (String prefix : prefixes) {
            for (String segment : segments) {
                String path = prefix + segment;
                try (Socket s = socket()) {
                    s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    String answer = readUntilClosed(s);
                    int status = answer.startsWith("HTTP/1.1 ") ? Integer.parseInt(answer.substring(9, 12)) : 0;
                    statuses.merge(status, 1, Integer::sum);
                    if (status >= 500 || status == 0) {
                        failures.add(path + " -> " + answer.lines().findFirst().orElse("no answer"));
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d encoded paths: statuses %s%n", prefixes.size() * segments.size(), statuses);
        assertThat(failures).isEmpty();
    }

    @Test
    void anUploadPastTheTenantsQuotaIsRefusedBeforeItsBodyIsSent() throws Exception {
        new PosekitClient(port).as(CAPPED).get("/api/v1/assets"); // the tenant's usage is known from here on
        try (Socket s = socket()) {
            long start = System.nanoTime();
            s.getOutputStream().write(("POST /api/v1/assets?filename=a.glb HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + CAPPED + "\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: 5000000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] head = new byte[12];
            int n = s.getInputStream().readNBytes(head, 0, head.length);
            System.out.printf(Locale.ROOT, "quota: 403 after %.1f ms, no body sent%n", (System.nanoTime() - start) / 1e6);
            assertThat(new String(head, 0, n, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 403");
        }
    }

    @Test
    void aThousandUploadsAtOnceHoldBoundedMemoryAndTheOtherTenantsAreServed() throws Exception {
        int clients = 1000;
        int declared = 256 * 1024;
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        List<Socket> sockets = new ArrayList<>();
        ConcurrentHashMap<String, AtomicLong> answers = new ConcurrentHashMap<>();
        AtomicLong peakHeld = new AtomicLong();
        System.gc();
        long heapBefore = usedHeap();
        try {
            List<Future<?>> floods = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Socket s = new Socket("127.0.0.1", port);
                s.setSoTimeout(30_000);
                sockets.add(s);
                floods.add(threads.submit(() -> {
                    // each declares 256 KB, sends 128 KB and stalls: 250 MB announced, streamed to disk as they
                    // come, nothing of them held in memory
                    OutputStream out = s.getOutputStream();
                    out.write(("POST /api/v1/assets?filename=a.glb HTTP/1.1\r\nHost: localhost\r\nAuthorization: "
                            + "Bearer " + FLOOD + "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
                            + declared + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(new byte[declared / 2]);
                    out.flush();
                    peakHeld.accumulateAndGet(server.edge().uploads().held(), Math::max);
                    byte[] head = new byte[12];
                    int n = s.getInputStream().readNBytes(head, 0, 12);
                    answers.computeIfAbsent(new String(head, 0, n, StandardCharsets.US_ASCII), k -> new AtomicLong())
                            .incrementAndGet();
                    return null;
                }));
            }
            // meanwhile another tenant is served
            PosekitClient calm = new PosekitClient(port).as(CALM);
            long start = System.nanoTime();
            int served = 0;
            for (int i = 0; i < 20; i++) {
                if (calm.get("/api/v1/assets").status() == 200) {
                    served++;
                }
            }
            double calmMs = (System.nanoTime() - start) / 1e6 / 20;
            System.gc(); // what is retained while the floods hold their buffers, not the garbage
            long heapDuring = usedHeap();
            for (Future<?> f : floods) {
                f.get(60, TimeUnit.SECONDS);
            }
            System.out.printf(Locale.ROOT, "1000 stalled uploads: answers %s, peak held %.1f MB of 16 MB allowed, heap "
                    + "retained %+.1f MB, the calm tenant's GET %.1f ms on average (%d/20 served)%n", answers,
                    peakHeld.get() / 1048576.0, (heapDuring - heapBefore) / 1048576.0, calmMs, served);
            assertThat(served).isEqualTo(20);
            assertThat(peakHeld.get()).isZero();
            // every one of them stalls past the read timeout: cut off, whatever the number
            assertThat(answers.keySet()).containsExactly("HTTP/1.1 408");
            assertThat(answers.get("HTTP/1.1 408").get()).isEqualTo(clients);
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
            threads.shutdownNow();
        }
        awaitNothingHeld();
        awaitNothingSpooled();
    }

    /** What the stalled uploads wrote to disk is removed when their exchanges end. */
    private void awaitNothingSpooled() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (spooled() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(spooled()).isZero();
    }

    private long spooled() throws IOException {
        try (var entries = Files.list(store.spoolDirectory())) {
            return entries.filter(p -> p.getFileName().toString().startsWith(io.posekit.store.UploadSpool.PREFIX))
                    .count();
        }
    }

    /** The bytes a request reserved are released when its connection has closed, on the server's side of it. */
    private void awaitNothingHeld() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.edge().uploads().held() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(server.edge().uploads().held()).isZero();
    }

    @Test
    void aBakeWhoseClientStopsReadingIsCutOffAtTheWriteTimeout() throws Exception {
        io.posekit.asset.gltf.GltfBuilder b = io.posekit.asset.gltf.GltfBuilder.skinnedTwoBoneStrip();
        b.setRoot("extras", "HostileClientsTest.bake");
        String asset = new PosekitClient(port).as(CALM).uploadedAssetPath("bake.glb", b.toGlb());
        // 90 000 frames of skinned positions and matrices as NDJSON: ~38 MB, far more than the socket buffers hold
        byte[] spec = ("{\"clip\":\"Bend\",\"times\":{\"start\":0,\"end\":3000,\"fps\":30},"
                + "\"outputs\":[\"skinnedPositions\",\"skinningMatrices\"]}").getBytes(StandardCharsets.US_ASCII);
        long before = server.writeTimeouts();
        try (Socket s = socket()) {
            long start = System.nanoTime();
            OutputStream out = s.getOutputStream();
            out.write(("POST " + asset + "/bake HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + CALM
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + spec.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(spec);
            out.flush();
            // reads nothing until the server has given up on it: its socket buffers (megabytes) fill at the pace the
            // bake is made, which a loaded machine slows, so no fixed pause would be long enough
            while (server.writeTimeouts() == before && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60)) {
                Thread.sleep(50);
            }
            assertThat(server.writeTimeouts()).isEqualTo(before + 1);
            InputStream in = s.getInputStream();
            long received = 0;
            byte[] buf = new byte[65536];
            try {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    received += n;
                }
            } catch (IOException reset) {
                // a reset is a closed connection too
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "bake read by nobody until the server stalled: closed after %.1f s with "
                    + "%.1f MB sent of ~38 MB%n", seconds, received / 1048576.0);
            assertThat(received).isLessThan(30L << 20);
        }
    }

    private static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
