package io.posekit.api.http;

import tools.jackson.databind.json.JsonMapper;

/**
 * JSON request and response bodies of the operations that are not hot enough to write by hand: read with and written
 * by the application's JSON mapper (with posekit's float-array module).
 */
public final class JsonBodies {

    private final JsonMapper mapper;

    public JsonBodies(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The request body as {@code type}.
     *
     * @throws ApiException 400 when the body is empty, not JSON, or not of the expected shape
     */
    public <T> T read(Exchange exchange, Class<T> type) {
        byte[] body = exchange.body();
        if (body.length == 0) {
            throw ApiException.badRequest("Invalid body", "the body is empty; a JSON object is expected");
        }
        try {
            return mapper.readValue(body, type);
        } catch (tools.jackson.core.JacksonException e) {
            throw ApiException.badRequest("Invalid body", "the body is not the JSON expected here: " + e.getOriginalMessage());
        }
    }

    /** {@code body} as an {@code application/json} answer. */
    public Reply reply(int status, Object body) {
        return Reply.of(status, Negotiation.JSON, mapper.writeValueAsBytes(body));
    }

    public JsonMapper mapper() {
        return mapper;
    }
}
