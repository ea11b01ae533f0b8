package com.orderline.partner;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Request signatures: the string-to-sign of versions 1 and 2 and the X-SIGNATURE value. */
public final class Signing {
  private Signing() {}

  /** Version 1, the seed's: {@code client_id|timestamp}. Covers neither the body nor the path. */
  public static String stringToSignV1(String clientId, String timestamp) {
    return clientId + "|" + timestamp;
  }

  /** Lowercase hex SHA-256 of the exact body bytes (of nothing for a request without one). */
  public static String bodyDigest(byte[] body) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Version 2: {@code v2}, client_id, X-TIMESTAMP, METHOD, path with query, hex SHA-256 of the
   * body, joined by "\n" with no trailing newline.
   */
  public static String stringToSignV2(
      String clientId, String timestamp, String method, String target, byte[] body) {
    return String.join(
        "\n",
        "v2",
        clientId,
        timestamp,
        method.toUpperCase(Locale.ROOT),
        target,
        bodyDigest(body == null ? new byte[0] : body));
  }

  public static String stringToSign(
      int version, String clientId, String timestamp, String method, String target, byte[] body) {
    return version == 2
        ? stringToSignV2(clientId, timestamp, method, target, body)
        : stringToSignV1(clientId, timestamp);
  }

  /** base64(SHA256withRSA(privateKey, text)): the X-SIGNATURE value. */
  public static String signText(PrivateKey privateKey, String text) {
    try {
      Signature signature = Signature.getInstance("SHA256withRSA");
      signature.initSign(privateKey);
      signature.update(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(signature.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot sign with this key: " + e.getMessage(), e);
    }
  }

  /** X-CLIENT-ID, X-TIMESTAMP, X-SIGNATURE and, for version 2, X-SIGNATURE-VERSION. */
  public static Map<String, String> signatureHeaders(
      PrivateKey key,
      int version,
      String clientId,
      String timestamp,
      String method,
      String target,
      byte[] body) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("X-CLIENT-ID", clientId);
    headers.put("X-TIMESTAMP", timestamp);
    headers.put(
        "X-SIGNATURE",
        signText(key, stringToSign(version, clientId, timestamp, method, target, body)));
    if (version == 2) headers.put("X-SIGNATURE-VERSION", "2");
    return headers;
  }

  /** An RSA private key from PKCS#8 ("BEGIN PRIVATE KEY") or PKCS#1 ("BEGIN RSA PRIVATE KEY") PEM. */
  public static PrivateKey privateKeyFromPem(String pem) {
    boolean pkcs1 = pem.contains("BEGIN RSA PRIVATE KEY");
    String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    byte[] der = Base64.getDecoder().decode(base64);
    if (pkcs1) der = pkcs8Of(der);
    try {
      return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an RSA private key in PEM: " + e.getMessage(), e);
    }
  }

  /** Wraps a PKCS#1 RSAPrivateKey in the PKCS#8 PrivateKeyInfo the JDK reads. */
  private static byte[] pkcs8Of(byte[] pkcs1) {
    byte[] algorithm = {
      0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01,
      0x01, 0x05, 0x00
    };
    byte[] version = {0x02, 0x01, 0x00};
    byte[] octets = concat(new byte[] {0x04}, length(pkcs1.length), pkcs1);
    byte[] body = concat(version, algorithm, octets);
    return concat(new byte[] {0x30}, length(body.length), body);
  }

  private static byte[] length(int n) {
    if (n < 0x80) return new byte[] {(byte) n};
    if (n < 0x100) return new byte[] {(byte) 0x81, (byte) n};
    if (n < 0x10000) return new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
    return new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
  }

  private static byte[] concat(byte[]... parts) {
    int size = 0;
    for (byte[] part : parts) size += part.length;
    byte[] out = new byte[size];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    return out;
  }
}
