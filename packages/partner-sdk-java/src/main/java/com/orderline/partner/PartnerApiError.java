package com.orderline.partner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The gateway refused the request (an RFC 9457 problem). Branch on {@link #code()} (stable,
 * listed in the gateway's errors reference); {@link #detail()} explains this instance; quote
 * {@link #requestId()} to the integration team.
 */
public class PartnerApiError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;
  private final String detail;
  private final String requestId;
  private final Map<String, Object> problem;
  private final List<FieldError> fieldErrors;
  private final int attempts;

  public PartnerApiError(int status, Map<String, Object> problem, String requestId, int attempts) {
    super(messageOf(status, problem, requestId));
    this.status = status;
    this.code = codeOf(status, problem);
    this.detail = detailOf(status, problem);
    this.requestId = requestId;
    this.problem = Collections.unmodifiableMap(problem);
    this.fieldErrors = fieldErrorsOf(problem);
    this.attempts = attempts;
  }

  private static String codeOf(int status, Map<String, Object> problem) {
    return problem.get("code") instanceof String s ? s : "http_" + status;
  }

  private static String detailOf(int status, Map<String, Object> problem) {
    if (problem.get("detail") instanceof String s) return s;
    if (problem.get("title") instanceof String s) return s;
    return "HTTP " + status;
  }

  static List<FieldError> fieldErrorsOf(Map<String, Object> problem) {
    List<FieldError> found = new ArrayList<>();
    if (problem.get("errors") instanceof List<?> errors) {
      for (Object entry : errors) {
        if (entry instanceof Map<?, ?> e
            && e.get("pointer") instanceof String pointer
            && e.get("message") instanceof String message) {
          found.add(new FieldError(e.get("in") instanceof String in ? in : null, pointer, message));
        }
      }
    }
    return Collections.unmodifiableList(found);
  }

  private static String messageOf(int status, Map<String, Object> problem, String requestId) {
    List<FieldError> fields = fieldErrorsOf(problem);
    String text =
        fields.isEmpty()
            ? detailOf(status, problem)
            : fields.stream().map(f -> f.pointer() + " " + f.message()).collect(Collectors.joining("; "));
    return codeOf(status, problem) + ": " + text + (requestId == null ? "" : " (request " + requestId + ")");
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  public String detail() {
    return detail;
  }

  public String requestId() {
    return requestId;
  }

  /** The whole problem, with its extension members (server_time, current_status, hints, …). */
  public Map<String, Object> problem() {
    return problem;
  }

  /** Each refused field with its message (a validation_failed problem's errors), else empty. */
  public List<FieldError> fieldErrors() {
    return fieldErrors;
  }

  /** How many times the request was sent (more than 1 after retries). */
  public int attempts() {
    return attempts;
  }
}
