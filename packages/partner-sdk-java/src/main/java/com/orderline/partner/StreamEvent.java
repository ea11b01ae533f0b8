package com.orderline.partner;

/** One event off the gateway's stream: {@code data} is the exact webhook body (JSON text). */
public record StreamEvent(String id, String type, String data) {}
