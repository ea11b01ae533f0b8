import type { Clock } from "../../lib/clock.js";
import { currencyDecimals, minorToText } from "../../lib/minor-units.js";
import type { OrderTallies, TenantStore } from "../../store/tenant-store.js";
import { ORDER_STATUSES, type OrderStatus } from "./lifecycle.js";

/** The status whose orders wait for staff (accept or reject): the overview's first figure. */
export const AWAITING_STATUS: OrderStatus = "received";
/** Orders that will not be delivered: left out of the amounts per currency. */
const NOT_BOOKED: ReadonlySet<string> = new Set<OrderStatus>(["rejected", "cancelled"]);
const DAY_MS = 86_400_000;

export type DayCounts = { date: string; total: number } & Record<OrderStatus, number>;

export interface OverviewData {
  time_zone: "UTC";
  days: number;
  from: string;
  to: string;
  awaiting: { status: OrderStatus; count: number };
  per_day: DayCounts[];
  per_partner: { partner: string; partner_name: string; orders: number }[];
  amounts: { currency: string | null; decimals: number; orders: number; amount: string }[];
}

const isoDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * The tenant's overview over the last `days` UTC days, today included: read from the daily
 * tallies (order_day_totals), never from the orders, so its cost does not grow with them.
 */
export async function tenantOverview(
  store: Pick<TenantStore, "orderTallies">,
  now: Clock,
  tenantId: string,
  days: number,
): Promise<OverviewData> {
  const today = Math.floor(now() / DAY_MS);
  const fromDay = today - days + 1;
  return overviewOf(await store.orderTallies(tenantId, fromDay, AWAITING_STATUS), fromDay, today);
}

/** The tallies shaped for the console: every day (zeros too), partners by orders, currencies. */
export function overviewOf(tallies: OrderTallies, fromDay: number, today: number): OverviewData {
  const perDay = new Map<number, DayCounts>();
  for (let day = fromDay; day <= today; day++) {
    const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<
      OrderStatus,
      number
    >;
    perDay.set(day, { date: isoDay(day), total: 0, ...counts });
  }
  const partners = new Map<string, { partner: string; partner_name: string; orders: number }>();
  const currencies = new Map<string, { orders: number; amount: bigint }>();
  for (const row of tallies.days) {
    // A day past today (a clock behind another instance's) is left for tomorrow's overview.
    const day = perDay.get(row.day);
    if (day === undefined || row.orders === 0) continue;
    if ((ORDER_STATUSES as readonly string[]).includes(row.status))
      day[row.status as OrderStatus] += row.orders;
    day.total += row.orders;
    const partner = partners.get(row.clientId) ?? {
      partner: row.clientId,
      partner_name: row.partnerName,
      orders: 0,
    };
    partner.orders += row.orders;
    partners.set(row.clientId, partner);
    if (NOT_BOOKED.has(row.status)) continue;
    const key = row.currency ?? "";
    const sum = currencies.get(key) ?? { orders: 0, amount: 0n };
    sum.orders += row.orders;
    sum.amount += row.amount;
    currencies.set(key, sum);
  }
  return {
    time_zone: "UTC",
    days: today - fromDay + 1,
    from: isoDay(fromDay),
    to: isoDay(today),
    awaiting: { status: AWAITING_STATUS, count: tallies.awaiting },
    per_day: [...perDay.values()],
    per_partner: [...partners.values()].sort(
      (a, b) => b.orders - a.orders || a.partner.localeCompare(b.partner),
    ),
    amounts: [...currencies.entries()]
      .sort(([a], [b]) => (a === "" ? 1 : b === "" ? -1 : a.localeCompare(b)))
      .map(([key, sum]) => {
        const currency = key === "" ? null : key;
        const decimals = currencyDecimals(currency);
        return {
          currency,
          decimals,
          orders: sum.orders,
          amount: minorToText(sum.amount, decimals),
        };
      }),
  };
}
