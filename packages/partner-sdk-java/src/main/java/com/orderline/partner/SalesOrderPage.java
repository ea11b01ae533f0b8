package com.orderline.partner;

import java.util.List;

/** One page of orders, newest first; {@code nextCursor} is null on the last page. */
public record SalesOrderPage(List<SalesOrder> data, String nextCursor) {}
