import type { EdgeRole, LegendKey } from "./model.js";

/** The few words the drawing adds itself: the legend's title and default entry names. */
export interface Words {
  legend: string;
  categories: Record<LegendKey, string>;
  flows: Record<EdgeRole, string>;
}

const en: Words = {
  legend: "Legend",
  categories: {
    frontend: "Frontend",
    backend: "Backend service",
    database: "Data store",
    cloud: "Cloud",
    security: "Security",
    messagebus: "Messaging",
    external: "External party",
  },
  flows: {
    main: "Main flow",
    branch: "Branch",
    async: "Asynchronous",
    return: "Return",
    error: "Error",
  },
};

const de: Words = {
  legend: "Legende",
  categories: {
    frontend: "Frontend",
    backend: "Backend-Dienst",
    database: "Datenspeicher",
    cloud: "Cloud",
    security: "Sicherheit",
    messagebus: "Messaging",
    external: "Externe Partei",
  },
  flows: {
    main: "Hauptablauf",
    branch: "Verzweigung",
    async: "Asynchron",
    return: "Rückweg",
    error: "Fehler",
  },
};

const fr: Words = {
  legend: "Légende",
  categories: {
    frontend: "Interface",
    backend: "Service backend",
    database: "Stockage de données",
    cloud: "Cloud",
    security: "Sécurité",
    messagebus: "Messagerie",
    external: "Partie externe",
  },
  flows: {
    main: "Flux principal",
    branch: "Branche",
    async: "Asynchrone",
    return: "Retour",
    error: "Erreur",
  },
};

const es: Words = {
  legend: "Leyenda",
  categories: {
    frontend: "Frontend",
    backend: "Servicio backend",
    database: "Almacén de datos",
    cloud: "Nube",
    security: "Seguridad",
    messagebus: "Mensajería",
    external: "Parte externa",
  },
  flows: {
    main: "Flujo principal",
    branch: "Rama",
    async: "Asíncrono",
    return: "Retorno",
    error: "Error",
  },
};

const pt: Words = {
  legend: "Legenda",
  categories: {
    frontend: "Frontend",
    backend: "Serviço backend",
    database: "Armazenamento de dados",
    cloud: "Nuvem",
    security: "Segurança",
    messagebus: "Mensageria",
    external: "Parte externa",
  },
  flows: {
    main: "Fluxo principal",
    branch: "Ramificação",
    async: "Assíncrono",
    return: "Retorno",
    error: "Erro",
  },
};

const WORDS: Record<string, Words> = { en, de, fr, es, pt };

/** The words for meta.locale's language; English for a language without its own set. */
export function wordsFor(locale: string | undefined): Words {
  const language = (locale ?? "en").split("-")[0] ?? "en";
  return WORDS[language] ?? en;
}
