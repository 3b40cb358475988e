package io.posekit.api.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * API keys for deployments without an OAuth2 issuer: bearer tokens starting with {@value #PREFIX}, each naming a
 * tenant and its scopes. Only their SHA-256 hashes are kept (in the file and in memory): the keys are 256-bit random
 * strings, so a plain hash is as strong as a password hash would be and costs 0.2 µs. A presented key is hashed and
 * looked up by its hash, then compared in constant time ({@link MessageDigest#isEqual}); the time of a lookup depends
 * only on the hash of the guess, which tells nothing of how close the guess was to a key.
 *
 * <p>The file has one key per line: {@code <sha256-hex> <tenant> <scope>[,<scope>…] [name]} ({@code #} starts a
 * comment). It is read again when its modification time or size changes ({@link #reloadIfChanged}, called
 * periodically), so keys are added, rotated and revoked without a restart; a file that cannot be read or parsed keeps
 * the keys last read and logs why. Thread-safe.
 */
public final class ApiKeys {

    /** What every API key starts with (and no JWT can: a JWT starts with its header, {@code eyJ}). */
    public static final String PREFIX = "pk_";
    private static final Logger log = LoggerFactory.getLogger(ApiKeys.class);

    /** One key: its hash and what it grants. */
    record Entry(byte[] hash, Caller caller) {
    }

    private final Path file;
    private volatile List<Entry> entries = List.of();
    /** The entries by their hash. */
    private volatile java.util.Map<java.nio.ByteBuffer, Entry> byHash = java.util.Map.of();
    private volatile FileTime readModified;
    private volatile long readSize = -1;
    /** Why the last reload failed, so that a file gone for good is reported once, not every period. */
    private volatile String lastFailure;

    /**
     * Reads the key file.
     *
     * @throws IllegalStateException when it cannot be read or holds a malformed line (at start-up, a mistake in
     *     the file must not leave the service running with fewer keys than meant)
     */
    public ApiKeys(Path file) {
        this.file = file;
        try {
            load();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the API key file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Keys given in memory (tests). */
    ApiKeys(List<Entry> entries) {
        this.file = null;
        install(entries);
    }

    private void install(List<Entry> parsed) {
        java.util.Map<java.nio.ByteBuffer, Entry> index = new java.util.HashMap<>();
        for (Entry e : parsed) {
            index.putIfAbsent(java.nio.ByteBuffer.wrap(e.hash()), e);
        }
        byHash = java.util.Map.copyOf(index);
        entries = List.copyOf(parsed);
    }

    /** How many keys are known. */
    public int size() {
        return entries.size();
    }

    /** The caller a presented key stands for, or empty when it is not a known key. */
    public Optional<Caller> find(String key) {
        byte[] hash = sha256(key);
        Entry e = byHash.get(java.nio.ByteBuffer.wrap(hash));
        return e != null && MessageDigest.isEqual(hash, e.hash()) ? Optional.of(e.caller()) : Optional.empty();
    }

    /** Reads the file again when it changed since last read; keeps the last keys when it cannot be read. */
    public void reloadIfChanged() {
        if (file == null) {
            return;
        }
        try {
            load();
            lastFailure = null;
        } catch (IOException | IllegalStateException e) {
            String failure = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (!failure.equals(lastFailure)) {
                log.warn("the API key file {} could not be read again, keeping the {} keys read before "
                        + "(reported once until it changes): {}", file, entries.size(), failure);
            }
            lastFailure = failure;
        }
    }

    private void load() throws IOException {
        FileTime modified = Files.getLastModifiedTime(file);
        long size = Files.size(file);
        if (modified.equals(readModified) && size == readSize) {
            return;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Entry> parsed = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hashMark = line.indexOf('#');
            String content = (hashMark < 0 ? line : line.substring(0, hashMark)).strip();
            if (content.isEmpty()) {
                continue;
            }
            parsed.add(parse(content, i + 1));
        }
        boolean changed = readModified != null;
        install(parsed);
        readModified = modified;
        readSize = size;
        log.info("{} {} API keys from {}", changed ? "reloaded" : "read", parsed.size(), file);
    }

    /** One line: hash, tenant, scopes, optional name. */
    static Entry parse(String content, int lineNumber) {
        String[] fields = content.split("\\s+", 4);
        if (fields.length < 3) {
            throw new IllegalStateException("line " + lineNumber + ": expected '<sha256-hex> <tenant> <scopes> [name]'");
        }
        byte[] hash;
        try {
            hash = HexFormat.of().parseHex(fields[0].toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            hash = null;
        }
        if (hash == null || hash.length != 32) {
            throw new IllegalStateException("line " + lineNumber + ": the first field must be a key's SHA-256 as 64 hex digits");
        }
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String s : fields[2].split(",")) {
            scopes.add(Scope.byName(s).orElseThrow(() -> new IllegalStateException("line " + lineNumber
                    + ": unknown scope '" + s + "' (posekit:read, posekit:write, posekit:delete, posekit:admin)")));
        }
        String name = fields.length > 3 ? fields[3].strip() : "key " + HexFormat.of().formatHex(hash, 0, 4);
        try {
            return new Entry(hash, new Caller(fields[1], scopes, name, Instant.MAX));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("line " + lineNumber + ": " + e.getMessage());
        }
    }

    /** The SHA-256 of a key's UTF-8 bytes: what the file holds. */
    public static byte[] sha256(String key) {
        MessageDigest sha = SHA256.get();
        sha.reset();
        return sha.digest(key.getBytes(StandardCharsets.UTF_8));
    }

    /** A digest per thread: {@code MessageDigest.getInstance} costs more than the hash of a key. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    });

    /** A new random key ({@value #PREFIX} and 43 base64url characters: 256 bits). */
    public static String generate() {
        byte[] random = new byte[32];
        new java.security.SecureRandom().nextBytes(random);
        return PREFIX + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
}
