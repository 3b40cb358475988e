package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.test.context.SpringBootTest;
import reactor.netty.http.server.HttpRequestDecoderSpec;
import reactor.netty.http.server.HttpServer;

/**
 * The server's decoder passes a body on in pieces of a socket read's worth, and keeps the decoder settings Boot
 * applies from its own properties (whose customizer sets a whole new decoder spec, so the order matters).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "posekit.store.dir=target/test-stores/${random.uuid}",
        "server.max-http-request-header-size=20KB",
        "server.netty.max-initial-line-length=5000"})
class BodyPiecesTest {

    @Autowired
    NettyReactiveWebServerFactory factory;

    @Test
    void theServersDecoderHasBootsSettingsAndPiecesOf64KiB() {
        HttpServer server = HttpServer.create();
        for (NettyServerCustomizer c : factory.getServerCustomizers()) {
            server = c.apply(server);
        }
        HttpRequestDecoderSpec decoder = server.configuration().decoder();
        assertThat(decoder.maxChunkSize()).isEqualTo(65_536);
        assertThat(decoder.maxHeaderSize()).isEqualTo(20_480);
        assertThat(decoder.maxInitialLineLength()).isEqualTo(5_000);
    }

    @Test
    void everyOtherSettingIsCopied() {
        HttpRequestDecoderSpec current = HttpServer.create().httpRequestDecoder(spec -> spec.maxInitialLineLength(1_111)
                .maxHeaderSize(2_222).initialBufferSize(333).h2cMaxContentLength(4_444).validateHeaders(false)
                .allowDuplicateContentLengths(true).allowPartialChunks(false).maxChunkSize(8_192))
                .configuration().decoder();
        HttpRequestDecoderSpec spec = HttpServer.create()
                .httpRequestDecoder(s -> ApiConfiguration.bodyPieces(current, s)).configuration().decoder();
        assertThat(spec.maxInitialLineLength()).isEqualTo(1_111);
        assertThat(spec.maxHeaderSize()).isEqualTo(2_222);
        assertThat(spec.initialBufferSize()).isEqualTo(333);
        assertThat(spec.h2cMaxContentLength()).isEqualTo(4_444);
        assertThat(spec.validateHeaders()).isFalse();
        assertThat(spec.allowDuplicateContentLengths()).isTrue();
        assertThat(spec.allowPartialChunks()).isFalse();
        assertThat(spec.maxChunkSize()).isEqualTo(ApiConfiguration.BODY_PIECE_BYTES).isEqualTo(65_536);
    }
}
