// The augmentation an application writes once (see docs/i18n/typed-keys.md): `common` is the
// default namespace, and every namespace's keys come from its reference-language dictionary.
import type booking from "../../examples/booking/locales/en/booking.json";
import type common from "../../locales/en/common.json";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: {
      common: typeof common;
      booking: typeof booking;
    };
  }
}
