package com.orderline.partner;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The partner's access token: logged in on first use, refreshed a margin before it expires (by
 * the server's clock), logged in again when a refresh is refused. One renewal at a time.
 */
final class Session {
  static final Set<String> SKEW_CODES = Set.of("timestamp_too_old", "timestamp_in_future");

  private final Transport transport;
  private final String clientId;
  private final String clientSecret;
  private final long marginSeconds;
  /** The signature headers of a login attempt, or null when logins go unsigned. */
  private final Supplier<Map<String, String>> loginProof;

  private String token;
  private long expiredAt;

  Session(
      Transport transport,
      String clientId,
      String clientSecret,
      long marginSeconds,
      Supplier<Map<String, String>> loginProof) {
    this.transport = transport;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.marginSeconds = marginSeconds;
    this.loginProof = loginProof;
  }

  private Map<String, Object> post(String target, Map<String, Object> body, boolean signed) {
    byte[] data = Json.write(body).getBytes(StandardCharsets.UTF_8);
    Transport.Answer answer =
        transport.send(
            () ->
                new Transport.Outgoing(
                    "POST",
                    target,
                    signed && loginProof != null ? loginProof.get() : Map.of(),
                    data));
    if (answer.status() != 200) throw Transport.failureOf(answer);
    @SuppressWarnings("unchecked")
    Map<String, Object> tokenResponse = (Map<String, Object>) answer.body();
    token = (String) tokenResponse.get("token");
    expiredAt = ((Number) tokenResponse.get("expired_at")).longValue();
    return tokenResponse;
  }

  synchronized Map<String, Object> login() {
    Map<String, Object> credentials = new LinkedHashMap<>();
    credentials.put("client_id", clientId);
    credentials.put("client_secret", clientSecret);
    try {
      return post("/api/v1/auth/login", credentials, true);
    } catch (PartnerApiError error) {
      // A signed login carries a timestamp: a clock off by more than the window is corrected
      // once from the refusal's server_time, as for order requests.
      if (!SKEW_CODES.contains(error.code())
          || !(error.problem().get("server_time") instanceof Number serverTime)) throw error;
      transport.learnServerSeconds(serverTime.longValue());
      return post("/api/v1/auth/login", credentials, true);
    }
  }

  private String renew() {
    if (token != null) {
      try {
        return (String) post("/api/v1/auth/refresh", Map.of("token", token), false).get("token");
      } catch (PartnerApiError error) {
        // A refused refresh (reused, window closed, session too old) ends the session.
        if (error.status() != 401) throw error;
      }
    }
    return (String) login().get("token");
  }

  /** A token valid for at least the margin, renewing it when needed. */
  synchronized String token() {
    long nowSeconds = Math.floorDiv(transport.serverNow(), 1000);
    if (token != null && expiredAt - marginSeconds > nowSeconds) return token;
    return renew();
  }

  /** The gateway said {@code stale} expired: renew unless another caller already did. */
  synchronized String expired(String stale) {
    if (stale.equals(token)) expiredAt = 0;
    return token();
  }
}
