import type { ComponentType } from "../model.js";

/**
 * One glyph per component type, drawn with strokes on a 16×16 grid. Plain paths (no fonts, no
 * <use>), so every output format draws them the same.
 */
export const ICON_PATHS: Record<ComponentType, string> = {
  frontend:
    "M2.5 2.5h11a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1zM1.5 5.5h13M3.5 4h.01M5 4h.01",
  backend: "M2 1.5h12v5.5H2zM2 9h12v5.5H2zM4.5 4.25h.01M4.5 11.75h.01M7 4.25h5M7 11.75h5",
  database:
    "M2 4c0-1.4 2.7-2.5 6-2.5s6 1.1 6 2.5-2.7 2.5-6 2.5S2 5.4 2 4zM2 4v8c0 1.4 2.7 2.5 6 2.5s6-1.1 6-2.5V4M2 8c0 1.4 2.7 2.5 6 2.5s6-1.1 6-2.5",
  cloud: "M4.5 13h7.5a3 3 0 0 0 .4-6A4.5 4.5 0 0 0 3.8 6.5 3.3 3.3 0 0 0 4.5 13z",
  security: "M8 1.5l5.5 2v4c0 3.5-2.4 6-5.5 7-3.1-1-5.5-3.5-5.5-7v-4zM5.5 8l2 2 3-3.5",
  messagebus: "M1.5 5h13M1.5 11h13M4 2.5L1.5 5 4 7.5M12 8.5l2.5 2.5-2.5 2.5",
  external:
    "M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM1.5 8h13M8 1.5c1.9 1.8 2.8 4.1 2.8 6.5S9.9 12.7 8 14.5C6.1 12.7 5.2 10.4 5.2 8S6.1 3.3 8 1.5z",
  user: "M8 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM2.5 14.5c0-3 2.5-5 5.5-5s5.5 2 5.5 5",
  service: "M8 1.5l5.6 3.25v6.5L8 14.5l-5.6-3.25v-6.5zM8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z",
  queue: "M2 2.5h12v3H2zM2 6.5h12v3H2zM2 10.5h12v3H2z",
  storage: "M1.5 3.5h13v3.5h-13zM2.5 7v6.5h11V7M6 10h4",
  decision: "M8 1.5L14.5 8 8 14.5 1.5 8z",
  start: "M5 2.5l8.5 5.5L5 13.5z",
  end: "M3.5 3.5h9v9h-9z",
};
