package com.orderline.partner;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code client.webhookEndpoints()}: the partner's own endpoints. */
public final class WebhookEndpoints {
  private static final String BASE = "/api/v1/webhook-endpoints";
  private final SignedCaller caller;

  WebhookEndpoints(SignedCaller caller) {
    this.caller = caller;
  }

  static String segment(String name, String value) {
    if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " must be a non-empty string");
    return SalesOrders.encode(value);
  }

  static String limit(Integer limit) {
    if (limit == null) return "";
    if (limit < 1 || limit > 100) throw new IllegalArgumentException("limit must be an integer from 1 to 100");
    return "limit=" + limit;
  }

  private static String path(String id) {
    return BASE + "/" + segment("id", id);
  }

  @SuppressWarnings("unchecked")
  private Object data(String method, String target, Map<String, ?> body) {
    byte[] bytes = body == null ? null : Json.write(body).getBytes(StandardCharsets.UTF_8);
    return ((Map<String, Object>) caller.call(method, target, bytes).body()).get("data");
  }

  @SuppressWarnings("unchecked")
  private JsonObject object(String method, String target, Map<String, ?> body) {
    return new JsonObject((Map<String, Object>) data(method, target, body));
  }

  /** Registers an endpoint; its {@code secret} (whsec_…) is in the answer only this once. */
  public JsonObject create(String url, List<String> events) {
    return object("POST", BASE, Map.of("url", url, "events", events));
  }

  @SuppressWarnings("unchecked")
  public List<JsonObject> list() {
    List<JsonObject> endpoints = new ArrayList<>();
    for (Object e : (List<Object>) data("GET", BASE, null)) endpoints.add(new JsonObject((Map<String, Object>) e));
    return endpoints;
  }

  public JsonObject get(String id) {
    return object("GET", path(id), null);
  }

  /** Changes the members given (null: unchanged); enabling clears the failure streak. */
  public JsonObject update(String id, String url, List<String> events, Boolean enabled) {
    Map<String, Object> change = new LinkedHashMap<>();
    if (url != null) change.put("url", url);
    if (events != null) change.put("events", events);
    if (enabled != null) change.put("enabled", enabled);
    return object("PATCH", path(id), change);
  }

  /** Removes the endpoint with its queued deliveries. */
  public void delete(String id) {
    caller.call("DELETE", path(id));
  }

  /** A new secret, shown once; the old one keeps signing beside it for the grace period. */
  public JsonObject rotateSecret(String id) {
    return object("POST", path(id) + "/secret", null);
  }

  /** The endpoint's delivery attempts, newest first (limit 1–100 or null for 20). */
  @SuppressWarnings("unchecked")
  public List<JsonObject> deliveries(String id, Integer limit) {
    String query = limit(limit);
    List<JsonObject> attempts = new ArrayList<>();
    for (Object a : (List<Object>) data("GET", path(id) + "/deliveries" + (query.isEmpty() ? "" : "?" + query), null)) {
      attempts.add(new JsonObject((Map<String, Object>) a));
    }
    return attempts;
  }

  /** Delivers the event (evt_…) to the endpoint again, now. */
  public void resend(String id, String eventId) {
    caller.call("POST", path(id) + "/deliveries/" + segment("eventId", eventId) + "/resend");
  }

  /** Fires a webhook.test event at the endpoint; its event id once queued. */
  public String test(String id) {
    return object("POST", path(id) + "/test", null).string("event_id");
  }
}
