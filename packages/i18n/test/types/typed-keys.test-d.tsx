import { describe, expectTypeOf, it } from "vitest";
import { defineEnterpriseModule, i18n } from "../../src/index.js";
import { useEnterpriseModuleTranslationContext } from "../../src/react/index.js";

const bookingModule = defineEnterpriseModule({ translationNamespace: "booking" });

describe("typed keys on the raw instance", () => {
  it("accepts existing keys, with or without the common prefix", () => {
    expectTypeOf(i18n.t("booking:header.title")).toBeString();
    expectTypeOf(i18n.t("actions.save")).toBeString();
    expectTypeOf(i18n.t("common:actions.save")).toBeString();
    expectTypeOf(i18n.t("greeting", { name: "Ada" })).toBeString();
    expectTypeOf(i18n.t("booking:table.guests", { count: 2 })).toBeString();
  });

  it("rejects a wrong key", () => {
    // @ts-expect-error: "titel" is not a key of booking
    i18n.t("booking:header.titel");
    // @ts-expect-error: not a key of common
    i18n.t("actions.sav");
  });

  it("rejects a wrong namespace prefix", () => {
    // @ts-expect-error: there is no "bookings" namespace
    i18n.t("bookings:header.title");
    // @ts-expect-error: a booking key needs its prefix outside the module
    i18n.t("header.title");
  });
});

describe("typed keys in a module component", () => {
  it("accepts module keys without prefix and global keys as common:key", () => {
    const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
    expectTypeOf(t("header.title")).toBeString();
    expectTypeOf(t("table.guests", { count: 3 })).toBeString();
    expectTypeOf(t("common:actions.cancel")).toBeString();
  });

  it("works for modules with settings of their own", () => {
    const withRoutes = defineEnterpriseModule({ translationNamespace: "booking", routes: ["/b"] });
    const { t } = useEnterpriseModuleTranslationContext<typeof withRoutes>();
    expectTypeOf(t("header.title")).toBeString();
    // @ts-expect-error: still checked against booking
    t("header.titel");
  });

  it("accepts the namespace name instead of the module", () => {
    const { t } = useEnterpriseModuleTranslationContext<"booking">();
    expectTypeOf(t("actions.confirm")).toBeString();
  });

  it("rejects a wrong key and a wrong namespace prefix", () => {
    const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
    // @ts-expect-error: not a key of booking
    t("header.titel");
    // @ts-expect-error: not a key of common
    t("common:actions.sav");
    // @ts-expect-error: no such namespace
    t("commons:actions.save");
  });

  it("rejects a module whose namespace has no dictionary type", () => {
    const unknownModule = defineEnterpriseModule({ translationNamespace: "bookings" });
    // @ts-expect-error: "bookings" is not a namespace in CustomTypeOptions
    useEnterpriseModuleTranslationContext<typeof unknownModule>();
  });
});
