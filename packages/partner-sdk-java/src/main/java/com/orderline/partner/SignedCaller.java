package com.orderline.partner;

import java.security.PrivateKey;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Signed calls with their one-time corrections: token renewal, clock, signature version. */
final class SignedCaller {
  private final Transport transport;
  private final Session session;
  private final PrivateKey key;
  private final String clientId;
  private long lastTimestamp;
  /** 1 turns into 2 for good on signature_version_required. */
  volatile int version;

  SignedCaller(Transport transport, Session session, PrivateKey key, String clientId, int version) {
    this.transport = transport;
    this.session = session;
    this.key = key;
    this.clientId = clientId;
    this.version = version;
  }

  /**
   * X-TIMESTAMP in Unix milliseconds on the server's clock, never the same twice: each attempt
   * (a retry included) is a request of its own, which the gateway refuses to see twice.
   */
  synchronized String nextTimestamp() {
    long now = transport.serverNow();
    // After the estimate moved back (a correction), start again from it: the timestamps ahead
    // were refused as out of the window, so none of them was ever accepted.
    lastTimestamp = now > lastTimestamp || lastTimestamp - now > 1000 ? now : lastTimestamp + 1;
    return Long.toString(lastTimestamp);
  }

  /** One attempt's authorization and signature headers, signed afresh. */
  Map<String, String> headers(String method, String target, byte[] body, String token) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Authorization", "Bearer " + token);
    headers.putAll(
        Signing.signatureHeaders(key, version, clientId, nextTimestamp(), method, target, body));
    return headers;
  }

  /** The signature headers of a login: always the seed's client_id|X-TIMESTAMP (version 1). */
  Map<String, String> loginProof() {
    return Signing.signatureHeaders(
        key, 1, clientId, nextTimestamp(), "POST", "/api/v1/auth/login", null);
  }

  /**
   * A 2xx answer, or the typed error. Every attempt carries its own token, timestamp and
   * signature; {@code extra} headers (an Idempotency-Key) stay the same on every attempt.
   */
  Transport.Answer call(String method, String target, byte[] body, Map<String, String> extra) {
    Set<String> done = new HashSet<>();
    int attempts = 0;
    while (true) {
      String[] token = {""};
      Transport.Answer answer =
          transport.send(
              () -> {
                token[0] = session.token();
                Map<String, String> headers = headers(method, target, body, token[0]);
                headers.putAll(extra);
                return new Transport.Outgoing(method, target, headers, body);
              });
      if (answer.status() < 300) return answer;
      attempts += answer.attempts();
      PartnerApiError error =
          Transport.failureOf(
              new Transport.Answer(
                  answer.status(), answer.response(), answer.body(), answer.requestId(), attempts));
      Object serverTime = error.problem().get("server_time");
      if (error.code().equals("token_expired") && done.add("renew_token")) {
        session.expired(token[0]);
      } else if (Session.SKEW_CODES.contains(error.code())
          && serverTime instanceof Number seconds
          && done.add("fix_clock")) {
        transport.learnServerSeconds(seconds.longValue());
      } else if (error.code().equals("signature_version_required") && version == 1) {
        version = 2;
      } else {
        throw error;
      }
    }
  }

  Transport.Answer call(String method, String target) {
    return call(method, target, null, Map.of());
  }

  Transport.Answer call(String method, String target, byte[] body) {
    return call(method, target, body, Map.of());
  }
}
