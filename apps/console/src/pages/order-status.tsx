import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import type { ordersModule } from "../modules.js";

/** An order status as a badge: its word in the user's language, its colour as a second cue. */
export const StatusBadge = ({ status }: { status: string }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  return (
    <span className={`badge status-${status}`}>
      {t(`status.${status}`, { defaultValue: status })}
    </span>
  );
};
