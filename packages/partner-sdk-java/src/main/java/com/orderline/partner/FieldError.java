package com.orderline.partner;

/**
 * One refused field of a {@code validation_failed} problem: where ({@code in}: body, querystring,
 * params or headers; {@code pointer}: JSON Pointer such as /products/0/quantity) and what it
 * accepts ({@code message}).
 */
public record FieldError(String in, String pointer, String message) {}
