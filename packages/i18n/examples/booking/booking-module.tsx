// A feature module as a front-end team writes it: dictionaries next to the feature, registered
// at module scope, a module configuration naming the namespace, and components using the hook.
import { defineEnterpriseModule, registerModuleNamespace } from "@orderline/i18n";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import de from "./locales/de/booking.json" with { type: "json" };
import en from "./locales/en/booking.json" with { type: "json" };

registerModuleNamespace("booking", { en, de });

export const bookingModule = defineEnterpriseModule({
  translationNamespace: "booking",
  name: "Bookings",
});

const BookingHeader = ({ customer, guests }: { customer: string; guests: number }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
  return (
    <header>
      <h1>{t("header.title")}</h1>
      <p>{t("header.subtitle", { customer })}</p>
      <p>{t("table.guests", { count: guests })}</p>
      <button type="button">{t("common:actions.save")}</button>
    </header>
  );
};

export const BookingPage = () => (
  <EnterpriseModuleProvider module={bookingModule}>
    <BookingHeader customer="ACME" guests={2} />
  </EnterpriseModuleProvider>
);
