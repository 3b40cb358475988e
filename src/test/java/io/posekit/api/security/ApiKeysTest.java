package io.posekit.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiKeysTest {

    @TempDir
    Path dir;

    static String hash(String key) {
        return HexFormat.of().formatHex(ApiKeys.sha256(key));
    }

    @Test
    void aKeyIsFoundByItsHashWithItsTenantScopesAndName() throws Exception {
        Path file = dir.resolve("keys");
        Files.write(file, List.of("# posekit keys", "",
                hash("pk_one") + " acme posekit:read,posekit:write build server  # a comment",
                hash("pk_two").toUpperCase() + "   globex\tposekit:admin"));
        ApiKeys keys = new ApiKeys(file);
        assertThat(keys.size()).isEqualTo(2);
        Caller one = keys.find("pk_one").orElseThrow();
        assertThat(one.tenant()).isEqualTo("acme");
        assertThat(one.scopes()).isEqualTo(EnumSet.of(Scope.READ, Scope.WRITE));
        assertThat(one.principal()).isEqualTo("build server");
        assertThat(keys.find("pk_two").orElseThrow().scopes()).containsExactly(Scope.ADMIN);
        assertThat(keys.find("pk_two").orElseThrow().principal()).isEqualTo("key " + hash("pk_two").substring(0, 8));
        assertThat(keys.find("pk_three")).isEmpty();
        assertThat(keys.find("")).isEmpty();
        // the hash is of the key's UTF-8 bytes: the value `echo -n "$KEY" | sha256sum` prints (FIPS 180-2's example)
        assertThat(hash("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void aMalformedFileIsRefusedAtStartNamingTheLine() throws Exception {
        Path file = dir.resolve("keys");
        Files.write(file, List.of(hash("pk_ok") + " acme posekit:read", "deadbeef acme posekit:read"));
        assertThatThrownBy(() -> new ApiKeys(file)).hasMessageContaining("line 2: the first field must be a key's "
                + "SHA-256 as 64 hex digits");
        Files.write(file, List.of(hash("pk_ok") + " acme posekit:fly"));
        assertThatThrownBy(() -> new ApiKeys(file)).hasMessageContaining("line 1: unknown scope 'posekit:fly'");
        Files.write(file, List.of(hash("pk_ok") + " acme"));
        assertThatThrownBy(() -> new ApiKeys(file)).hasMessageContaining("line 1: expected");
        assertThatThrownBy(() -> new ApiKeys(dir.resolve("missing"))).hasMessageContaining("cannot read the API key file");
    }

    @Test
    void aChangedFileIsReadAgainAndABrokenOneKeepsTheKeysReadBefore() throws Exception {
        Path file = dir.resolve("keys");
        Files.write(file, List.of(hash("pk_old") + " acme posekit:read"));
        ApiKeys keys = new ApiKeys(file);
        assertThat(keys.find("pk_old")).isPresent();
        Files.write(file, List.of(hash("pk_new") + " acme posekit:read"));
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5000));
        keys.reloadIfChanged();
        assertThat(keys.find("pk_old")).isEmpty();
        assertThat(keys.find("pk_new")).isPresent();
        Files.write(file, List.of("broken"));
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 10000));
        keys.reloadIfChanged();
        assertThat(keys.find("pk_new")).isPresent();
    }

    @Test
    void generatedKeysAre256RandomBitsBehindThePrefix() {
        String a = ApiKeys.generate();
        String b = ApiKeys.generate();
        assertThat(a).startsWith("pk_").hasSize(3 + 43).matches("pk_[A-Za-z0-9_-]{43}");
        assertThat(a).isNotEqualTo(b);
    }
}
