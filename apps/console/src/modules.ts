import { defineEnterpriseModule } from "@orderline/i18n";

export const shellModule = defineEnterpriseModule({ translationNamespace: "common" });
export const authModule = defineEnterpriseModule({ translationNamespace: "auth" });
export const ordersModule = defineEnterpriseModule({ translationNamespace: "orders" });
export const vocabularyModule = defineEnterpriseModule({ translationNamespace: "vocabulary" });
export const partnersModule = defineEnterpriseModule({ translationNamespace: "partners" });
export const integrationModule = defineEnterpriseModule({ translationNamespace: "integration" });
export const webhooksModule = defineEnterpriseModule({ translationNamespace: "webhooks" });
export const teamModule = defineEnterpriseModule({ translationNamespace: "team" });
export const activityModule = defineEnterpriseModule({ translationNamespace: "activity" });
