import { useEffect, useState } from "react";

/** A route: the hash path split into segments plus its query, e.g. `#/orders/42?x=1`. */
export interface Route {
  segments: string[];
  query: URLSearchParams;
}

const parse = (hash: string): Route => {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?");
  return {
    segments: path.split("/").filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(query),
  };
};

/**
 * Hash routing: the gateway serves one static page at /console/, and every screen is a
 * fragment of it, so a reload or a shared link never needs a server-side route.
 */
export const useRoute = (): Route => {
  const [route, setRoute] = useState(() =>
    parse(window.location.hash.startsWith("#/") ? window.location.hash : ""),
  );
  useEffect(() => {
    // Only "#/…" is a route; "#main" (the skip link) just moves focus to an element.
    const onChange = () => {
      if (window.location.hash.startsWith("#/") || window.location.hash === "") {
        setRoute(parse(window.location.hash));
      }
    };
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
};

export const href = (...segments: string[]): string =>
  `#/${segments.map(encodeURIComponent).join("/")}`;
