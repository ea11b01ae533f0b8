package com.orderline.partner;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Webhook signatures: {@link #verify} for a receiver, {@link #sign} to test one. */
public final class Webhooks {
  /** The header that carries a delivery's timestamp and signatures. */
  public static final String SIGNATURE_HEADER = "Orderline-Signature";

  public static final long DEFAULT_TOLERANCE_SECONDS = 300;

  private Webhooks() {}

  /** HMAC-SHA256 keyed by the secret's UTF-8 bytes (whsec_ included) over {@code <t>.<body>}. */
  static byte[] v1(String secret, String timestamp, byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static WebhookSignatureError malformed(String detail) {
    return new WebhookSignatureError("header_malformed", "Orderline-Signature is malformed: " + detail);
  }

  private static List<String> checked(List<String> secrets) {
    if (secrets == null || secrets.isEmpty() || secrets.stream().anyMatch(s -> s == null || s.isEmpty())) {
      throw new IllegalArgumentException("give the endpoint's secret, or its secrets during a rotation");
    }
    return secrets;
  }

  /** Checks a delivery with one secret, tolerance 300 s; see the full form. */
  public static Map<String, Object> verify(byte[] payload, String header, String secret) {
    return verify(payload, header, List.of(secret), DEFAULT_TOLERANCE_SECONDS, System.currentTimeMillis());
  }

  /**
   * Checks a delivery and returns its event: a {@code v1} signature one of the secrets makes over
   * {@code <t>.<raw body>} (compared in constant time), {@code t} within {@code toleranceSeconds}
   * of {@code nowMs}. Anything else throws WebhookSignatureError with its reason. Pass the body's
   * bytes exactly as received.
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> verify(
      byte[] payload, String header, List<String> secrets, long toleranceSeconds, long nowMs) {
    if (toleranceSeconds < 0) throw new IllegalArgumentException("toleranceSeconds must be 0 or more");
    checked(secrets);
    if (header == null || header.isBlank()) {
      throw new WebhookSignatureError("header_missing", "The Orderline-Signature header is missing.");
    }
    String timestamp = null;
    List<byte[]> signatures = new ArrayList<>();
    for (String entry : header.split(",", -1)) {
      int at = entry.indexOf('=');
      if (at <= 0) {
        String shown = entry.trim();
        throw malformed("'" + (shown.length() > 40 ? shown.substring(0, 40) : shown) + "' is not key=value");
      }
      String key = entry.substring(0, at).trim();
      String value = entry.substring(at + 1).trim();
      if (key.equals("t")) {
        if (timestamp != null) throw malformed("more than one t=");
        if (!value.matches("\\d{1,12}")) throw malformed("t= must be Unix seconds");
        timestamp = value;
      } else if (key.equals("v1")) {
        if (!value.matches("[0-9a-fA-F]{64}")) throw malformed("v1= must be 64 hexadecimal digits");
        signatures.add(HexFormat.of().parseHex(value));
      }
    }
    if (timestamp == null) throw malformed("no t= timestamp");
    if (signatures.isEmpty()) throw malformed("no v1= signature");

    // Every secret against every signature: a rotation sends one v1 per active secret.
    boolean matched = false;
    for (String secret : secrets) {
      byte[] expected = v1(secret, timestamp, payload);
      for (byte[] candidate : signatures) matched |= MessageDigest.isEqual(candidate, expected);
    }
    if (!matched) {
      throw new WebhookSignatureError(
          "no_matching_signature",
          "No v1 signature matches the body with the given secret(s): a forged or altered delivery,"
              + " the wrong secret, or a body changed before verification.");
    }
    // Checked after the signature, so only an authentic delivery is reported as old.
    double age = Math.abs(nowMs / 1000.0 - Long.parseLong(timestamp));
    if (age > toleranceSeconds) {
      throw new WebhookSignatureError(
          "timestamp_outside_tolerance",
          "The delivery's timestamp (t=" + timestamp + ") is " + Math.round(age) + " s from now, beyond the "
              + toleranceSeconds + " s tolerance: a replay, or a clock that is off.");
    }
    try {
      Object event = Json.parse(new String(payload, StandardCharsets.UTF_8));
      if (event instanceof Map<?, ?> map) return (Map<String, Object>) map;
    } catch (IllegalArgumentException ignored) {
      // reported below
    }
    throw new WebhookSignatureError("payload_not_json", "The signature matches but the body is not a JSON object.");
  }

  /** An Orderline-Signature value, {@code t=<seconds>,v1=<hex>[,v1=…]}, for testing a receiver. */
  public static String sign(byte[] payload, List<String> secrets, long timestampSeconds) {
    StringBuilder header = new StringBuilder("t=").append(timestampSeconds);
    for (String secret : checked(secrets)) {
      header.append(",v1=").append(HexFormat.of().formatHex(v1(secret, Long.toString(timestampSeconds), payload)));
    }
    return header.toString();
  }
}
