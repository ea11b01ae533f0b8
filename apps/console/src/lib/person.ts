/**
 * What the console calls a person: their display name, or their email when they have none
 * (every user from before names existed, and whoever removed theirs).
 */
export const personName = (person: { name?: string | null; email: string }): string =>
  person.name?.trim() ? person.name : person.email;

/**
 * Whether a person matches what was typed in a search: every word of it is in their name or
 * email, ignoring case (in the page's language's rules) and accents.
 */
export const personMatches = (
  person: { name?: string | null; email: string },
  query: string,
  language: string,
): boolean => {
  const fold = (text: string) =>
    text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase(language);
  const haystack = fold(`${person.name ?? ""} ${person.email}`);
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
};
