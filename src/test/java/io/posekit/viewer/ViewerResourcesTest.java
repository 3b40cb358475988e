package io.posekit.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.api.PosekitClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the viewer needs from the server, checked without a browser (so it runs everywhere): {@code /} is the page,
 * every module it imports is served from the jar (three.js through its WebJar, by version-less paths), and no
 * static file refers to another host.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class ViewerResourcesTest {

    private static final Path STATIC = Path.of("src", "main", "resources", "static");
    private static final Pattern IMPORT_MAP = Pattern.compile("<script type=\"importmap\">(.*?)</script>", Pattern.DOTALL);
    private static final Pattern LOCAL_REFS = Pattern.compile("(?:src|href)=\"([^\"#]+)\"");

    @LocalServerPort
    int port;

    @Test
    void rootIsTheViewerAndEverythingItLoadsIsServed() {
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response page = client.get("/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.text()).contains("<title>posekit viewer</title>");

        Matcher map = IMPORT_MAP.matcher(page.text());
        assertThat(map.find()).isTrue();
        JsonNode imports = JsonMapper.builder().build().readTree(map.group(1)).get("imports");
        assertThat(imports.get("three").asString()).isEqualTo("./webjars/three/build/three.module.js");
        List<String> served = new ArrayList<>(List.of(imports.get("three").asString(),
                // what viewer.js and stage.js import through "three/addons/"
                imports.get("three/addons/").asString() + "loaders/GLTFLoader.js",
                imports.get("three/addons/").asString() + "controls/OrbitControls.js",
                imports.get("three/addons/").asString() + "environments/RoomEnvironment.js",
                // three.module.js imports it relatively
                "./webjars/three/build/three.core.js"));
        Matcher refs = LOCAL_REFS.matcher(page.text());
        while (refs.find()) {
            served.add(refs.group(1));
        }
        assertThat(served).contains("viewer.js", "viewer.css", "swagger-ui.html");
        for (String path : served) {
            PosekitClient.Response r = client.get("/" + path.replaceFirst("^\\./", ""));
            // swagger-ui.html (the header's link to the API docs) is springdoc's redirect to its page
            assertThat(r.status()).as(path).isEqualTo(path.equals("swagger-ui.html") ? 302 : 200);
            if (path.endsWith(".js")) {
                assertThat(r.contentType()).as(path).startsWith("text/javascript");
            }
        }
        for (String module : List.of("api.js", "player.js", "stage.js")) {
            assertThat(client.get("/" + module).status()).as(module).isEqualTo(200);
        }
    }

    @Test
    void noStaticFileRefersToAnotherHost() throws IOException {
        try (Stream<Path> files = Files.walk(STATIC)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(file, StandardCharsets.UTF_8)).as(file.toString())
                        .doesNotContainPattern("(?i)(https?:)?//[a-z0-9.-]+\\.[a-z]{2,}[/\"']");
            }
        }
    }
}
