package com.orderline.partner;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the gateway speaks, without a dependency: objects become {@code Map<String, Object>}
 * (insertion order kept), arrays {@code List<Object>}, numbers {@code Long} or {@code BigDecimal}.
 */
public final class Json {
  private Json() {}

  /** Parses JSON text; throws IllegalArgumentException on anything else. */
  public static Object parse(String text) {
    Parser parser = new Parser(text);
    parser.space();
    Object value = parser.value();
    parser.space();
    if (parser.at < text.length()) throw parser.error("trailing characters");
    return value;
  }

  /** Serialises maps, lists, strings, numbers, booleans and null. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      quote(s, out);
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) out.append(',');
        first = false;
        quote(String.valueOf(entry.getKey()), out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof Iterable<?> list) {
      out.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) out.append(',');
        first = false;
        write(item, out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
    }
  }

  private static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }

  private static final class Parser {
    final String text;
    int at;

    Parser(String text) {
      this.text = text;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("invalid JSON at " + at + ": " + what);
    }

    void space() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
    }

    Object value() {
      if (at >= text.length()) throw error("unexpected end");
      char c = text.charAt(at);
      if (c == '{') return object();
      if (c == '[') return array();
      if (c == '"') return string();
      if (text.startsWith("true", at)) {
        at += 4;
        return Boolean.TRUE;
      }
      if (text.startsWith("false", at)) {
        at += 5;
        return Boolean.FALSE;
      }
      if (text.startsWith("null", at)) {
        at += 4;
        return null;
      }
      return number();
    }

    Map<String, Object> object() {
      Map<String, Object> map = new LinkedHashMap<>();
      at++;
      space();
      if (at < text.length() && text.charAt(at) == '}') {
        at++;
        return map;
      }
      while (true) {
        space();
        if (at >= text.length() || text.charAt(at) != '"') throw error("expected a key");
        String key = string();
        space();
        if (at >= text.length() || text.charAt(at) != ':') throw error("expected ':'");
        at++;
        space();
        map.put(key, value());
        space();
        if (at >= text.length()) throw error("unexpected end");
        char c = text.charAt(at++);
        if (c == '}') return map;
        if (c != ',') throw error("expected ',' or '}'");
      }
    }

    List<Object> array() {
      List<Object> list = new ArrayList<>();
      at++;
      space();
      if (at < text.length() && text.charAt(at) == ']') {
        at++;
        return list;
      }
      while (true) {
        space();
        list.add(value());
        space();
        if (at >= text.length()) throw error("unexpected end");
        char c = text.charAt(at++);
        if (c == ']') return list;
        if (c != ',') throw error("expected ',' or ']'");
      }
    }

    String string() {
      StringBuilder out = new StringBuilder();
      at++;
      while (at < text.length()) {
        char c = text.charAt(at++);
        if (c == '"') return out.toString();
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (at >= text.length()) break;
        char e = text.charAt(at++);
        switch (e) {
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'u' -> {
            if (at + 4 > text.length()) throw error("short \\u escape");
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            at += 4;
          }
          default -> out.append(e);
        }
      }
      throw error("unterminated string");
    }

    Object number() {
      int start = at;
      while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
      String token = text.substring(start, at);
      if (token.isEmpty()) throw error("unexpected character");
      try {
        if (token.matches("-?\\d{1,18}")) return Long.parseLong(token);
        return new BigDecimal(token);
      } catch (NumberFormatException e) {
        throw error("bad number '" + token + "'");
      }
    }
  }
}
