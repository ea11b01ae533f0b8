package com.orderline.partner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code client.requestLog()}: the partner's own refused requests of the last 7 days. */
public final class RequestLog {
  private final SignedCaller caller;

  RequestLog(SignedCaller caller) {
    this.caller = caller;
  }

  /**
   * Refused requests, newest first (limit 1–100 or null for 50), each with what the gateway
   * expected under {@code expected} (string_to_sign and hints for a signature failure).
   */
  @SuppressWarnings("unchecked")
  public List<JsonObject> failed(Integer limit) {
    String query = WebhookEndpoints.limit(limit);
    String target = "/api/v1/request-log?outcome=failed" + (query.isEmpty() ? "" : "&" + query);
    List<JsonObject> refused = new ArrayList<>();
    for (Object r : (List<Object>) ((Map<String, Object>) caller.call("GET", target).body()).get("data")) {
      refused.add(new JsonObject((Map<String, Object>) r));
    }
    return refused;
  }
}
