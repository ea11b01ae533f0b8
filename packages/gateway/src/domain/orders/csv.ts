import { sumOf } from "../../lib/money.js";
import type { TenantOrderData } from "./tenant-orders.js";

/**
 * The CSV export of orders, one row per order line (an order's own columns repeated on each of
 * its lines), in the conventions a spreadsheet in the user's language opens without a wizard:
 * German and Indonesian use a decimal comma, so their cells are separated by ';'.
 */

interface Conventions {
  delimiter: string;
  decimal: string;
  header: readonly string[];
}

const HEADERS: Record<string, readonly string[]> = {
  en: [
    ...["Order number", "Status", "Partner", "Partner client ID", "Purchase order"],
    ...["Customer", "Site", "Sales name", "Created", "Currency", "Order total"],
    ...["Line", "Product code", "Quantity", "Unit", "Unit price", "Line total", "Notes"],
  ],
  de: [
    ...["Auftragsnummer", "Status", "Partner", "Partner-Client-ID", "Bestellnummer"],
    ...["Kunde", "Standort", "Vertrieb", "Erstellt", "Währung", "Auftragssumme"],
    ...["Position", "Produktcode", "Menge", "Einheit", "Stückpreis", "Positionssumme", "Notizen"],
  ],
  id: [
    ...["Nomor pesanan", "Status", "Mitra", "ID klien mitra", "Nomor PO"],
    ...["Pelanggan", "Lokasi", "Nama sales", "Dibuat", "Mata uang", "Total pesanan"],
    ...["Baris", "Kode produk", "Jumlah", "Satuan", "Harga satuan", "Total baris", "Catatan"],
  ],
};

/** The conventions of a language tag (`de-AT` → de); English for any other. */
export function csvConventions(language: string): Conventions {
  const base = language.toLowerCase().split("-")[0] ?? "en";
  const header = HEADERS[base] ?? HEADERS.en ?? [];
  return base === "de" || base === "id"
    ? { delimiter: ";", decimal: ",", header }
    : { delimiter: ",", decimal: ".", header };
}

/**
 * One cell. Text a spreadsheet would run as a formula (= + - @, or a leading tab or CR) gets a
 * leading apostrophe (OWASP's CSV-injection advice); a cell holding the delimiter, a quote or a
 * line break is quoted.
 */
export function csvCell(value: string, delimiter: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return safe.includes(delimiter) || /["\r\n]/.test(safe)
    ? `"${safe.replaceAll('"', '""')}"`
    : safe;
}

/** A decimal (number or exact string) with the language's decimal separator; "" for none. */
const decimal = (value: number | string | null, separator: string): string =>
  value === null ? "" : sumOf([value]).replace(".", separator);

export function csvLine(cells: readonly string[], c: Conventions): string {
  return `${cells.map((cell) => csvCell(cell, c.delimiter)).join(c.delimiter)}\r\n`;
}

/** An order's rows: one per line. */
export function csvRows(order: TenantOrderData, c: Conventions): string {
  const head = [
    ...[order.order_number, order.status, order.partner_name, order.client_id],
    ...[order.purchase_order_no ?? "", order.customer_code, order.site_code, order.sales_name],
    ...[order.created_at, order.currency ?? "", decimal(order.total, c.decimal)],
  ];
  return order.products
    .map((line) =>
      csvLine(
        [
          ...head,
          ...[String(line.line_no), line.product_code, decimal(line.quantity, c.decimal)],
          ...[line.uom ?? "", decimal(line.unit_price, c.decimal)],
          ...[decimal(line.line_total, c.decimal), line.notes ?? ""],
        ],
        c,
      ),
    )
    .join("");
}
