package com.orderline.partner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The partner's events as they happen ({@code GET /api/v1/events/stream}, server-sent events):
 * an iterator that reconnects by itself after a dropped connection with Last-Event-ID, so none
 * is lost or repeated, and throws PartnerApiError only for a refusal a retry cannot fix. Close it
 * to stop.
 */
public final class EventStream implements Iterator<StreamEvent>, AutoCloseable {
  private static final long MAX_DELAY_MS = 30_000;

  private final Transport transport;
  private final Session session;
  private final SignedCaller caller;
  private final String target;
  private String lastEventId;
  private Stream<String> lines;
  private Iterator<String> open;
  private StreamEvent next;
  private long retryMs = 1000;
  private volatile boolean closed;

  EventStream(
      Transport transport, Session session, SignedCaller caller, List<String> events, String lastEventId) {
    this.transport = transport;
    this.session = session;
    this.caller = caller;
    this.target =
        "/api/v1/events/stream"
            + (events == null || events.isEmpty() ? "" : "?events=" + SalesOrders.encode(String.join(",", events)));
    this.lastEventId = lastEventId;
  }

  /** The id of the last event read: store it to resume later with {@code lastEventId}. */
  public String lastEventId() {
    return lastEventId;
  }

  @Override
  public boolean hasNext() {
    int failures = 0;
    while (next == null && !closed) {
      if (open == null) {
        try {
          connect();
          failures = 0;
        } catch (IOException e) {
          failures++;
          Transport.sleep(Math.min(MAX_DELAY_MS, 500L << Math.min(failures, 10)));
          continue;
        }
      }
      try {
        next = read();
      } catch (UncheckedIOException e) {
        next = null;
      }
      if (next == null && !closed) {
        // The connection ended or dropped: open it again after the advised delay.
        dropConnection();
        Transport.sleep(retryMs);
      }
    }
    return next != null;
  }

  @Override
  public StreamEvent next() {
    if (!hasNext()) throw new NoSuchElementException();
    StreamEvent event = next;
    next = null;
    return event;
  }

  /** The next complete message with an id, event and data off the open connection, or null. */
  private StreamEvent read() {
    String id = null;
    String event = null;
    StringBuilder data = null;
    while (open.hasNext()) {
      String line = open.next();
      if (line.isEmpty()) {
        if (id != null) lastEventId = id;
        if (id != null && event != null && data != null) return new StreamEvent(id, event, data.toString());
        id = null;
        event = null;
        data = null;
        continue;
      }
      if (line.startsWith(":")) continue;
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) value = value.substring(1);
      switch (field) {
        case "id" -> id = value;
        case "event" -> event = value;
        case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
        case "retry" -> {
          if (value.matches("\\d+")) retryMs = Long.parseLong(value);
        }
        default -> {}
      }
    }
    return null;
  }

  /** Opens one signed connection; retries the refusals a fresh attempt fixes. */
  private void connect() throws IOException {
    Set<String> fixed = new HashSet<>();
    while (!closed) {
      String token = session.token();
      Map<String, String> headers = caller.headers("GET", target, null, token);
      if (lastEventId != null) headers.put("Last-Event-ID", lastEventId);
      HttpResponse<Stream<String>> response;
      try {
        response =
            transport.http.send(
                transport.request(
                    new Transport.Outgoing("GET", target, headers, null),
                    Duration.ofDays(365),
                    "text/event-stream"),
                HttpResponse.BodyHandlers.ofLines());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      if (response.statusCode() == 200) {
        lines = response.body();
        open = lines.iterator();
        return;
      }
      String text;
      try (Stream<String> body = response.body()) {
        text = String.join("\n", body.toList());
      }
      PartnerApiError error = Transport.failureOf(Transport.answerOf(response, text, 1));
      Object serverTime = error.problem().get("server_time");
      if (error.code().equals("token_expired") && fixed.add("token")) {
        session.expired(token);
      } else if (Session.SKEW_CODES.contains(error.code())
          && serverTime instanceof Number seconds
          && fixed.add("skew")) {
        transport.learnServerSeconds(seconds.longValue());
      } else if (response.statusCode() == 429 || response.statusCode() == 503) {
        // Shutting down or too many streams for now: wait as told, then open again.
        Long wait =
            Transport.retryAfterMs(
                response.headers().firstValue("retry-after").orElse(null), System.currentTimeMillis());
        Transport.sleep(wait != null ? wait : 1000);
      } else {
        throw error;
      }
    }
  }

  private void dropConnection() {
    if (lines != null) lines.close();
    lines = null;
    open = null;
  }

  @Override
  public void close() {
    closed = true;
    dropConnection();
  }
}
