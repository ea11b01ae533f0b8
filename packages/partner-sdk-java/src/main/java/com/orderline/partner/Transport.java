package com.orderline.partner;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * HTTP to the gateway: a fresh request per attempt (fresh timestamp and signature), retries of
 * 429, 503, timeouts and network errors with exponential backoff and full jitter or as
 * Retry-After says, and the server's clock offset learned from every {@code Date}.
 */
final class Transport {
  record Outgoing(String method, String target, Map<String, String> headers, byte[] body) {}

  record Answer(
      int status, HttpResponse<?> response, Object body, String requestId, int attempts) {}

  final String baseUrl;
  final HttpClient http;
  final LongSupplier now;
  final int maxRetries;
  final long retryBaseDelayMs;
  final long maxRetryAfterMs;
  final Duration timeout;
  final String userAgent;
  /** Server clock minus local clock, in ms. */
  private volatile long offsetMs;

  Transport(
      String baseUrl,
      LongSupplier now,
      int maxRetries,
      long retryBaseDelayMs,
      long maxRetryAfterMs,
      Duration timeout,
      String userAgent) {
    this.baseUrl = baseUrl;
    this.http =
        HttpClient.newBuilder()
            // HTTP/1.1 as the gateway speaks it: no h2c upgrade attempt on plain http.
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    this.now = now;
    this.maxRetries = maxRetries;
    this.retryBaseDelayMs = retryBaseDelayMs;
    this.maxRetryAfterMs = maxRetryAfterMs;
    this.timeout = timeout;
    this.userAgent = userAgent;
  }

  /** The server's current time as best known, Unix ms. */
  long serverNow() {
    return now.getAsLong() + offsetMs;
  }

  /** Learns from a server time known to the second (a problem's server_time). */
  void learnServerSeconds(long seconds) {
    learnSecond(seconds * 1000);
  }

  private void learnDate(HttpResponse<?> response) {
    Optional<String> date = response.headers().firstValue("date");
    if (date.isEmpty()) return;
    try {
      learnSecond(
          ZonedDateTime.parse(date.get(), DateTimeFormatter.RFC_1123_DATE_TIME)
              .toInstant()
              .toEpochMilli());
    } catch (RuntimeException ignored) {
      // an unreadable Date teaches nothing
    }
  }

  /** An estimate inside the second is kept; outside it, the second's midpoint is the best. */
  private void learnSecond(long secondStartMs) {
    long estimate = serverNow();
    if (estimate >= secondStartMs && estimate < secondStartMs + 1000) return;
    offsetMs = secondStartMs + 500 - now.getAsLong();
  }

  /** Retry-After as delta-seconds or an HTTP date, in ms; null when absent or unreadable. */
  static Long retryAfterMs(String header, long nowMs) {
    if (header == null || header.isBlank()) return null;
    String value = header.trim();
    if (value.matches("\\d+")) return Long.parseLong(value) * 1000;
    try {
      long at =
          ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
      return Math.max(0, at - nowMs);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private long backoff(int attempt) {
    return (long) (ThreadLocalRandom.current().nextDouble() * retryBaseDelayMs * Math.pow(2, attempt));
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(Math.max(0, ms));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PartnerNetworkError("interrupted while waiting to retry", 0, e);
    }
  }

  HttpRequest request(Outgoing out, Duration attemptTimeout, String accept) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(baseUrl + out.target()))
            .timeout(attemptTimeout)
            .header("Accept", accept)
            .header("User-Agent", userAgent);
    Map<String, String> headers = new LinkedHashMap<>(out.headers());
    if (out.body() != null) headers.putIfAbsent("Content-Type", "application/json");
    headers.forEach(builder::header);
    HttpRequest.BodyPublisher body =
        out.body() == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(out.body());
    return builder.method(out.method(), body).build();
  }

  Answer send(Supplier<Outgoing> build) {
    for (int attempt = 0; ; attempt++) {
      Outgoing out = build.get();
      HttpResponse<byte[]> response;
      try {
        response =
            http.send(request(out, timeout, "application/json"), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        if (attempt < maxRetries) {
          sleep(backoff(attempt));
          continue;
        }
        throw new PartnerNetworkError(
            out.method() + " " + baseUrl + out.target() + " failed after " + (attempt + 1)
                + " attempt(s): " + e,
            attempt + 1,
            e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new PartnerNetworkError("interrupted", attempt + 1, e);
      }
      learnDate(response);
      int status = response.statusCode();
      if ((status == 429 || status == 503) && attempt < maxRetries) {
        Long wait =
            retryAfterMs(response.headers().firstValue("retry-after").orElse(null), now.getAsLong());
        if (wait == null || wait <= maxRetryAfterMs) {
          sleep(wait != null ? wait : backoff(attempt));
          continue;
        }
      }
      return answerOf(response, new String(response.body(), StandardCharsets.UTF_8), attempt + 1);
    }
  }

  static Answer answerOf(HttpResponse<?> response, String text, int attempts) {
    Object body = text;
    String type = response.headers().firstValue("content-type").orElse("");
    if (type.toLowerCase().contains("json") && !text.isEmpty()) {
      try {
        body = Json.parse(text);
      } catch (IllegalArgumentException e) {
        body = text;
      }
    }
    String requestId = response.headers().firstValue("x-request-id").orElse(null);
    if (requestId == null && body instanceof Map<?, ?> map && map.get("request_id") != null) {
      requestId = String.valueOf(map.get("request_id"));
    }
    return new Answer(response.statusCode(), response, body, requestId, attempts);
  }

  /** Turns a non-2xx answer into the typed error. */
  @SuppressWarnings("unchecked")
  static PartnerApiError failureOf(Answer answer) {
    Map<String, Object> problem;
    if (answer.body() instanceof Map<?, ?> map) {
      problem = (Map<String, Object>) map;
    } else {
      String text = answer.body() instanceof String s ? s : "";
      problem = new LinkedHashMap<>();
      problem.put("detail", text.length() > 500 ? text.substring(0, 500) : text);
    }
    return new PartnerApiError(answer.status(), problem, answer.requestId(), answer.attempts());
  }
}
