package com.orderline.partner;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/** A JSON object the gateway returned, with typed reads; {@link #raw()} has every member. */
public class JsonObject {
  private final Map<String, Object> raw;

  public JsonObject(Map<String, Object> raw) {
    this.raw = Collections.unmodifiableMap(raw);
  }

  public Map<String, Object> raw() {
    return raw;
  }

  public String string(String name) {
    return raw.get(name) instanceof String s ? s : null;
  }

  public long number(String name) {
    return raw.get(name) instanceof Number n ? n.longValue() : 0;
  }

  public boolean bool(String name) {
    return Boolean.TRUE.equals(raw.get(name));
  }

  @SuppressWarnings("unchecked")
  public List<Object> list(String name) {
    return raw.get(name) instanceof List<?> l ? (List<Object>) l : List.of();
  }

  @SuppressWarnings("unchecked")
  public Map<String, Object> object(String name) {
    return raw.get(name) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  @Override
  public String toString() {
    return Json.write(raw);
  }
}
