import { ApiError } from "./api.js";

/**
 * Downloads a file the tenant API makes (the CSV export): fetched (with the session cookie) so
 * that a refusal shows as a message, then handed to the browser as a blob under the server's name.
 */
export const downloadFile = async (
  path: string,
  refresh: () => Promise<unknown>,
): Promise<void> => {
  const attempt = () => fetch(path);
  let response = await attempt().catch((cause: unknown) => {
    throw new ApiError(0, "network", String(cause));
  });
  if (response.status === 401) {
    await refresh();
    response = await attempt();
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    throw new ApiError(
      response.status,
      String(body.code ?? "http_error"),
      String(body.detail ?? ""),
    );
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ??
    "orders.csv";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
