import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useState } from "react";
import { Failure } from "../components.js";
import { ApiError } from "../lib/api.js";
import { downloadFile } from "../lib/download.js";
import { listQuery, type OrderFilters } from "../lib/order-filter.js";
import type { ordersModule } from "../modules.js";
import { useSession } from "../session.js";

/** The filtered orders and their lines as CSV, in the conventions of the language on screen. */
export const ExportButton = ({ filters }: { filters: OrderFilters }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const query = new URLSearchParams(listQuery(filters));
  query.set("language", i18n.language);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadFile(`/v1/tenant/orders.csv?${query}`, api.refresh);
    } catch (cause) {
      setError(cause instanceof ApiError ? cause : new ApiError(0, "client", String(cause)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="secondary" disabled={busy} onClick={() => void download()}>
        {busy ? t("export.busy") : t("export.button")}
      </button>
      {error && <Failure error={error} />}
    </>
  );
};
